import Foundation
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A private JACK server with the dummy backend (Debian jackd2; no sound
/// card, no realtime), under a name of its own so it never meets another
/// server on the machine. Clients find it through JACK_DEFAULT_SERVER.
/// Stopped by its PID.
final class JackServer {
    let name: String
    let process = Process()
    let log: URL

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/jackd") }

    /// Starts a server named `name` (a new one by default; the name of one that died to bring it back).
    init(name given: String? = nil) throws {
        name = given ?? "physarum-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        log = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let out = try FileHandle(forWritingTo: log)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jackd")
        // A long client timeout (-t, ms) and a long period (4096 frames, 85 ms):
        // on a busy 2-core machine the clients' process callbacks wait for a
        // core, and with 10 ms periods the graph failed cycle after cycle
        // ("ProcessGraphAsyncMaster: Process error") so no MIDI went through
        // for 30 s although the app had sent it. The tests are about the app,
        // not about JACK on a starved machine; they wait on outcomes, so the
        // period's latency does not matter.
        process.arguments = ["-n", name, "--no-realtime", "-t", "20000", "-d", "dummy", "-r", "48000", "-p", "4096"]
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let socketPath = "/dev/shm/jack_\(name)_\(getuid())_0"
        guard poll(seconds: 30, { FileManager.default.fileExists(atPath: socketPath) }) else {
            stop()
            throw FixtureError("jackd did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
    }

    /// The environment a client needs to find this server.
    var environment: [String: String?] { ["JACK_DEFAULT_SERVER": name, "JACK_NO_AUDIO_RESERVATION": "1"] }

    /// Kills the server at once (SIGKILL): it cannot tell its clients, and its socket stays behind.
    func kill9() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            _ = poll(seconds: 10) { !process.isRunning }
        }
    }

    /// The JACK ports now (`jack_lsp` on this server).
    func ports() throws -> [String] {
        let r = try PhysarumProcess.run(tool: "/usr/bin/jack_lsp", [], environment: ["JACK_DEFAULT_SERVER": name, "JACK_NO_START_SERVER": "1"])
        return r.stdout.split(separator: "\n").map { String($0) }
    }

    /// The server's last lines (xruns, clients it removed), for a failure message.
    var logTail: String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    /// Stops the server with SIGTERM, so it leaves JACK's shared server
    /// registry (8 places for the whole machine; a killed server keeps its
    /// place until a server of its name starts, and with 8 kept no server
    /// starts: "Too many servers already active"). SIGKILL only when it has
    /// not gone after its client timeout (-t 20 s) and some.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            if !poll(seconds: 30, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: log)
    }

    deinit { stop() }
}
