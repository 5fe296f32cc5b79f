import Foundation
import Testing
import TestSupport

/// A private PipeWire daemon for a test: its own runtime folder (the socket
/// `pipewire-0` lives there; clients find it through `XDG_RUNTIME_DIR` and
/// `PIPEWIRE_RUNTIME_DIR`), Debian's stock `pipewire.conf`, no session
/// manager (the test links ports itself with `pw-link`, as a patchbay user
/// would). It can be stopped and started again on the same socket (a
/// PipeWire restart). Stopped by PID when released. Warnings about the
/// missing D-Bus session bus (the portal module) are harmless.
final class PrivatePipeWire {
    static var available: Bool {
        ["/usr/bin/pipewire", "/usr/bin/pw-dump", "/usr/bin/pw-link", "/usr/bin/gst-launch-1.0"]
            .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let dir: URL
    private var process: Process?

    init() throws {
        dir = makeTempDir("pipewire")
        chmod(dir.path, 0o700)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: dir)
    }

    /// What a client needs to find this daemon.
    var environment: [String: String] {
        ["XDG_RUNTIME_DIR": dir.path, "PIPEWIRE_RUNTIME_DIR": dir.path, "PIPEWIRE_REMOTE": "pipewire-0"]
    }

    var isRunning: Bool { process?.isRunning ?? false }

    /// Starts the daemon and waits (up to 20 s) until `pw-cli info 0` answers.
    func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pipewire")
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        env["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"
        p.environment = env
        let logPath = dir.appendingPathComponent("pipewire.log").path
        if !FileManager.default.fileExists(atPath: logPath) { _ = FileManager.default.createFile(atPath: logPath, contents: nil) }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        p.standardOutput = log
        p.standardError = log
        p.standardInput = FileHandle.nullDevice
        try p.run()
        process = p
        let up = poll(seconds: 20, every: 0.1) { (try? self.run("/usr/bin/pw-cli", ["info", "0"]))?.contains("Core") == true }
        guard up else {
            throw FixtureError("pipewire did not answer within 20 s: \((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")")
        }
    }

    /// Stops the daemon (SIGTERM, then SIGKILL after 5 s) and waits for it.
    func stop() {
        guard let p = process, p.isRunning else { process = nil; return }
        p.terminate()
        if !poll(seconds: 5, { !p.isRunning }) { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
        process = nil
    }

    /// Runs a PipeWire tool against this daemon; its standard output. Throws on a non-zero exit.
    @discardableResult
    func run(_ tool: String, _ args: [String]) throws -> String {
        let r = try PhysarumProcess.run(tool: tool, args, environment: environment)
        guard r.status == 0 else { throw FixtureError("\(tool) \(args.joined(separator: " ")): exit \(r.status): \(r.stderr)") }
        return r.stdout
    }

    /// The objects `pw-dump` lists (each a JSON object).
    func dump() -> [[String: Any]] {
        guard let text = try? run("/usr/bin/pw-dump", []),
              let objects = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else { return [] }
        return objects
    }

    /// The node whose `node.name` is `name` in `pw-dump`: its properties and its whole object.
    func node(named name: String) -> (props: [String: Any], object: [String: Any])? {
        for o in dump() where (o["type"] as? String)?.hasSuffix(":Node") == true {
            let props = ((o["info"] as? [String: Any])?["props"] as? [String: Any]) ?? [:]
            if props["node.name"] as? String == name { return (props, o) }
        }
        return nil
    }
}
