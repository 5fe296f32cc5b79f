import Foundation
import TestSupport

/// The desktop services some integration tests need, started through
/// scripts/services-private.sh (the recipe and why it works as root in a
/// container are written there) and stopped by PID when released.
final class PrivateServices {
    let dir: URL
    /// Environment entries for a client (`DBUS_SYSTEM_BUS_ADDRESS`, `SPEECHD_ADDRESS`).
    private(set) var environment: [String: String] = [:]
    /// speech-dispatcher's output: one line per message it spoke.
    private(set) var speechLog: URL?
    private var pids: [Int32] = []

    init() {
        dir = makeTempDir("services")
    }

    /// SIGTERM, then SIGKILL for what is still there after 2 s: a daemon spawned
    /// from a test thread inherits its blocked signals (dbus-daemon then never
    /// sees the SIGTERM).
    deinit {
        for p in pids { kill(p, SIGTERM) }
        for p in pids where !waitForExit(p, seconds: 2) { kill(p, SIGKILL) }
        try? FileManager.default.removeItem(at: dir)
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/services-private.sh").path

    /// The system bus with an avahi-daemon on it: the one scripts/test started
    /// (PHYSARUM_TEST_DBUS_SYSTEM), else a private one. Throws when neither works.
    func avahi() throws {
        if let a = ProcessInfo.processInfo.environment["PHYSARUM_TEST_DBUS_SYSTEM"], !a.isEmpty {
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = a
            return
        }
        let out = try run("avahi_start", "$DBUS_PID $AVAHI_PID $DBUS_SYSTEM_BUS_ADDRESS")
        pids += out.prefix(2).compactMap { Int32($0) }
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = out.count > 2 ? out[2] : nil
    }

    /// A private speech-dispatcher that writes what it speaks to `speechLog`.
    func speechDispatcher() throws {
        let out = try run("speechd_start", "$SPEECHD_PID $SPEECHD_ADDRESS $SPEECH_LOG")
        pids += out.prefix(1).compactMap { Int32($0) }
        guard out.count == 3 else { throw FixtureError("speechd_start said: \(out)") }
        environment["SPEECHD_ADDRESS"] = out[1]
        speechLog = URL(fileURLWithPath: out[2])
    }

    /// What speech-dispatcher spoke so far, one message a line.
    var spoken: [String] {
        guard let speechLog, let t = try? String(contentsOf: speechLog, encoding: .utf8) else { return [] }
        return t.split(separator: "\n").map(String.init)
    }

    /// Runs a function of the script in bash (its daemons keep running) and
    /// returns the words `echo REPORT` printed after it. Spawned with
    /// posix_spawn and reaped with waitpid: the daemons inherit whatever bash
    /// had open, and Foundation's `Process` would wait for them too.
    private func run(_ function: String, _ report: String) throws -> [String] {
        let sub = dir.appendingPathComponent(function).path
        let script = ". '\(Self.script)' && \(function) '\(sub)' >'\(sub).log' 2>&1 && echo \(report) >'\(sub).report'"
        let env = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let pid = try PrivateDaemon.spawn(["/bin/bash", "-c", script], environment: env)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard let line = try? String(contentsOfFile: sub + ".report", encoding: .utf8) else {
            throw FixtureError("\(function) failed: \((try? String(contentsOfFile: sub + ".log", encoding: .utf8)) ?? "")")
        }
        return line.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    private func waitForExit(_ pid: Int32, seconds: Double) -> Bool {
        poll(seconds: seconds) { kill(pid, 0) != 0 }
    }
}
