import Foundation

/// A real `physarum` process for integration tests: arguments, environment,
/// captured stdout/stderr, waiting with a deadline, signals.
final class AppProcess: @unchecked Sendable {
    let process = Process()
    private let outPipe = Pipe(), errPipe = Pipe()
    private let lock = NSLock()
    private var out = Data(), err = Data()

    /// The binary under test: $PHYSARUM_BIN (set by scripts/test), else the newest local build.
    static var binary: String {
        if let b = ProcessInfo.processInfo.environment["PHYSARUM_BIN"], FileManager.default.isExecutableFile(atPath: b) { return b }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = ["release", "debug"].map { root.appendingPathComponent(".build/\($0)/physarum").path }
            .filter { FileManager.default.isExecutableFile(atPath: $0) }
        return candidates.max { a, b in
            let da = (try? FileManager.default.attributesOfItem(atPath: a)[.modificationDate] as? Date) ?? .distantPast
            let db = (try? FileManager.default.attributesOfItem(atPath: b)[.modificationDate] as? Date) ?? .distantPast
            return da < db
        } ?? candidates.first ?? "physarum"
    }

    /// Starts the binary. `environment` entries override the inherited ones;
    /// a nil value removes the variable. `input` is written to its standard
    /// input, which is then closed (default: empty).
    init(_ args: [String], environment: [String: String?] = [:], binary: String = AppProcess.binary, input: String? = nil) throws {
        var env = ProcessInfo.processInfo.environment
        // JACK only where the test names a server (MidiControlTests sets one in
        // this process for the instants it opens its own clients).
        env["JACK_DEFAULT_SERVER"] = nil
        for (k, v) in environment { env[k] = v }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = args
        process.environment = env
        process.standardOutput = outPipe
        process.standardError = errPipe
        let inPipe = input.map { _ in Pipe() }
        process.standardInput = inPipe ?? FileHandle.nullDevice
        outPipe.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self, !d.isEmpty else { return }
            self.lock.lock(); self.out.append(d); self.lock.unlock()
        }
        errPipe.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self, !d.isEmpty else { return }
            self.lock.lock(); self.err.append(d); self.lock.unlock()
        }
        try process.run()
        if let inPipe, let input {
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try? inPipe.fileHandleForWriting.close()
        }
    }

    var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
    var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }
    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Waits for exit up to `seconds`; returns the exit status, or nil on timeout.
    @discardableResult
    func wait(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(20_000)
        }
        // Let the readers drain what is left.
        outPipe.fileHandleForReading.readabilityHandler = nil
        errPipe.fileHandleForReading.readabilityHandler = nil
        let restOut = outPipe.fileHandleForReading.readDataToEndOfFile()
        let restErr = errPipe.fileHandleForReading.readDataToEndOfFile()
        lock.lock(); out.append(restOut); err.append(restErr); lock.unlock()
        return process.terminationStatus
    }

    func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

    /// What the long window walks (keyboard, screen layout, UI scale) add under
    /// ThreadSanitizer (`scripts/sanitize thread` sets PHYSARUM_SANITIZE): the
    /// picture from the GPU engine, i.e. llvmpipe under Xvfb, which TSan does
    /// not instrument. Instrumented, the CPU engine's post chain at 1280x720
    /// brings the window below a frame a second, and a walk that waits six
    /// frames per key would take hours. The walks test the panels, not the
    /// engine; the CPU engine's threads run under TSan in the other window tests.
    static var walkArgumentsUnderSanitizer: [String] {
        ProcessInfo.processInfo.environment["PHYSARUM_SANITIZE"] == "thread" ? ["--backend", "gpu"] : []
    }

    /// Kills it if still running (test cleanup).
    func stop() {
        if process.isRunning {
            signal(SIGKILL)
            _ = wait(seconds: 5)
        }
    }

    deinit { stop() }
}

