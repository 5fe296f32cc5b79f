import AudioReactive
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
    /// The daemon's PID while it runs (spawned with posix_spawn, reaped with waitpid).
    private var pid: pid_t?

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
    ///
    /// Spawned with `posix_spawn`, not `Process`: pulseaudio closes every
    /// inherited descriptor at start-up, including the socket Foundation's
    /// `Process` watches to notice an exit, and Foundation then blocks its
    /// process-monitor thread in `waitpid` on the daemon, so no other
    /// `Process` in the test could ever be seen to finish.
    public func start() throws {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir.appendingPathComponent("home").path
        env["XDG_RUNTIME_DIR"] = dir.path
        env["PULSE_CLIENTCONFIG"] = clientConfig
        env.removeValue(forKey: "PULSE_SERVER")
        let args = ["/usr/bin/pulseaudio", "-n", "-F", dir.appendingPathComponent("custom.pa").path, "--system=false",
                    "--exit-idle-time=-1", "--realtime=no", "--high-priority=no", "--use-pid-file=no", "--daemonize=no"]
        let spawned = try Self.spawn(args, environment: env.map { "\($0.key)=\($0.value)" })
        pid = spawned
        let deadline = Date().addingTimeInterval(20)
        while (try? PulseSources.list(server: server, timeout: 1)) == nil {
            if Date() > deadline || !isRunning { throw AudioSourceError("private PulseAudio daemon did not answer at \(server)") }
            usleep(50_000)
        }
    }

    /// Whether the daemon process is still alive (reaps it when it has exited).
    public var isRunning: Bool {
        guard let pid else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            self.pid = nil
            return false
        }
        return true
    }

    /// SIGKILL by PID (a crash, as far as clients can tell).
    public func kill() { end(SIGKILL) }

    /// SIGSTOP by PID: the daemon hangs (connections stay open, nothing is answered or delivered).
    public func pause() { if let p = pid { Glibc.kill(p, SIGSTOP) } }

    /// SIGCONT by PID: a paused daemon carries on.
    public func resume() { if let p = pid { Glibc.kill(p, SIGCONT) } }

    /// Stops the daemon by its PID (SIGTERM) and removes its folder.
    public func stop() {
        end(SIGTERM)
        try? FileManager.default.removeItem(at: dir)
    }

    private func end(_ signal: Int32) {
        guard let p = pid else { return }
        Glibc.kill(p, signal)
        Glibc.kill(p, SIGCONT)  // a paused daemon takes SIGTERM only once continued
        var status: Int32 = 0
        _ = waitpid(p, &status, 0)
        pid = nil
    }

    /// posix_spawn with stdin/stdout/stderr on /dev/null; returns the PID.
    /// (Also for scripts that leave daemons running: they would keep the
    /// descriptor Foundation's `Process` watches for the exit open.)
    public static func spawn(_ args: [String], environment: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        func cStrings(_ a: [String]) -> [UnsafeMutablePointer<CChar>?] { a.map { strdup($0) } + [nil] }
        let argv = cStrings(args), envp = cStrings(environment)
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, args[0], &actions, nil, argv, envp)
        guard rc == 0 else { throw AudioSourceError("cannot start \(args[0]): \(String(cString: strerror(rc)))") }
        return pid
    }

    deinit { stop() }
}
