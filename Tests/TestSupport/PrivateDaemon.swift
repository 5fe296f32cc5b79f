import AudioReactive
import Foundation

/// A private PulseAudio daemon (TESTING.md's recipe) in a temporary folder,
/// with one null sink per name (the first one's monitor is the default
/// source), started with `Process` and stopped by its PID. Shared by the
/// AudioReactive and LiveApp integration tests. One owner thread.
public final class PrivateDaemon {
    /// Its private folder (socket, config, HOME).
    public let dir: URL
    /// The null sinks, in order; the first is the default sink.
    public let sinks: [String]
    /// `PULSE_SERVER` value for clients.
    public var server: String { "unix:\(dir.path)/native" }
    /// `PULSE_CLIENTCONFIG` value for clients (autospawn off).
    public var clientConfig: String { dir.appendingPathComponent("client.conf").path }
    private var process: Process?

    /// Writes the daemon's config (nothing runs until `start`).
    public init(sinks: [String]) throws {
        precondition(!sinks.isEmpty)
        self.sinks = sinks
        dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("physarum-pulse-\(sinks[0])-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("home"), withIntermediateDirectories: true)
        var pa = "load-module module-native-protocol-unix auth-anonymous=1 socket=\(dir.path)/native\n"
        for s in sinks { pa += "load-module module-null-sink sink_name=\(s)\n" }
        pa += "set-default-sink \(sinks[0])\nset-default-source \(sinks[0]).monitor\n"
        try pa.write(to: dir.appendingPathComponent("custom.pa"), atomically: true, encoding: .utf8)
        try "autospawn = no\n".write(to: dir.appendingPathComponent("client.conf"), atomically: true, encoding: .utf8)
    }

    /// Environment entries that point a client process at this daemon.
    public var clientEnvironment: [String: String] { ["PULSE_SERVER": server, "PULSE_CLIENTCONFIG": clientConfig] }

    /// Starts the daemon and waits (polling, 20 s deadline) until it answers.
    public func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pulseaudio")
        p.arguments = ["-n", "-F", dir.appendingPathComponent("custom.pa").path, "--system=false", "--exit-idle-time=-1",
                       "--realtime=no", "--high-priority=no", "--use-pid-file=no", "--daemonize=no"]
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir.appendingPathComponent("home").path
        env["XDG_RUNTIME_DIR"] = dir.path
        env["PULSE_CLIENTCONFIG"] = clientConfig
        env.removeValue(forKey: "PULSE_SERVER")
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        let deadline = Date().addingTimeInterval(20)
        while (try? PulseSources.list(server: server, timeout: 1)) == nil {
            if Date() > deadline || !p.isRunning { throw AudioSourceError("private PulseAudio daemon did not answer at \(server)") }
            usleep(50_000)
        }
    }

    /// SIGKILL by PID (a crash, as far as clients can tell).
    public func kill() {
        guard let p = process, p.isRunning else { return }
        Foundation.kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        process = nil
    }

    /// Stops the daemon by its PID and removes its folder.
    public func stop() {
        if let p = process, p.isRunning {
            p.terminate()
            p.waitUntilExit()
        }
        process = nil
        try? FileManager.default.removeItem(at: dir)
    }

    deinit { stop() }
}
