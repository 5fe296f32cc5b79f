import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// Ableton's own Link peer, `LinkHut` (Debian ableton-link-utils), as a
/// second peer on this machine: played through its keys on standard input
/// (a: join/leave, w/e: tempo −/+ 1, q: quit) and read from the status line
/// it redraws on standard output ("enabled | num peers | quantum | start
/// stop sync | tempo | beats | metro"). Debian builds it on JACK, so it
/// needs a JACK server (the tests' private dummy one). Stopped by its PID.
final class LinkHut: @unchecked Sendable {
    /// One status line of LinkHut.
    struct Status: Equatable {
        var enabled: Bool
        var peers: Int
        var tempo: Double
    }

    let process = Process()
    private let input = Pipe(), output = Pipe()
    private let lock = NSLock()
    private var tail = ""
    private var latest: Status?

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/LinkHut") }

    /// Starts LinkHut on the JACK server whose client environment is `environment`.
    init(environment: [String: String?]) throws {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        env["JACK_NO_START_SERVER"] = "1"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/LinkHut")
        process.environment = env
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self, !d.isEmpty else { return }
            self.take(String(decoding: d, as: UTF8.self))
        }
        try process.run()
    }

    /// Keeps the last complete status line (LinkHut ends each with a carriage return).
    private func take(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        tail += text
        let lines = tail.split(omittingEmptySubsequences: false) { $0 == "\r" || $0 == "\n" }
        for line in lines.dropLast() {
            if let s = Self.parse(String(line)) { latest = s }
        }
        tail = String(lines.last ?? "")
    }

    /// "yes     | 1         | 4       | no  [stopped]   | 121.00  | 6.08    | XXXO"
    static func parse(_ line: String) -> Status? {
        let f = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard f.count >= 5, f[0] == "yes" || f[0] == "no", let peers = Int(f[1]), let tempo = Double(f[4]) else { return nil }
        return Status(enabled: f[0] == "yes", peers: peers, tempo: tempo)
    }

    /// What LinkHut shows now (nil before its first status line).
    var status: Status? { lock.lock(); defer { lock.unlock() }; return latest }

    /// Presses `keys` in LinkHut.
    func press(_ keys: String) { input.fileHandleForWriting.write(Data(keys.utf8)) }

    func stop() {
        if process.isRunning {
            press("q")
            if !poll(seconds: 5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
            _ = poll(seconds: 5) { !process.isRunning }
        }
        output.fileHandleForReading.readabilityHandler = nil
    }

    deinit { stop() }
}
