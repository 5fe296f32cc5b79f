import Engine
import Foundation
import LiveCore

/// Where a remote editor connects (`physarum remote HOST:PORT`).
struct RemoteTarget: Sendable {
    var host: HostPort
    var token: String?
    /// Push our own look on connect instead of pulling the host's.
    var push = false
    /// `--wait`: keep trying a host that does not answer (by default a remote
    /// gives up after `RemoteClient.defaultAttempts` tries, in one line).
    var keepTrying = false
}

/// `physarum remote HOST:PORT`: the full editor, mirrored to a host.
enum RemoteCommand: Subcommand {
    static let name = "remote"
    static let summary = "edit a host running `physarum --listen` from this machine"
    static let help = """
    Usage: physarum remote HOST:PORT [--token T] [--push] [--wait] [WINDOW OPTIONS]
           physarum remote HOST:PORT [--token T] [--push] [--wait] --headless [--script FILE|-]
                                     [--state-file FILE] [--exit-when-done] [--quit-after S]
           physarum remote [--wait S] [--token T] [...]   find hosts on the local network, choose one
           physarum remote --browse [--wait S]           list the hosts found, one a line, and exit

    Runs the editor here and mirrors it to the host: parameter edits go out live
    (at most 20 messages a second; the last value always arrives), preset changes
    and the playlist toggle go out at once and the host's state comes back. On
    connect the editor takes the host's look (pull); --push sends ours instead.
    The connection retries with back-off; its state shows in the window. A host that
    never answers is given up after 5 tries (about 4 s) with one line on stderr (exit 1
    with --headless); a host that answered once is tried again after a loss until it is back.
      --wait            keep trying a host that does not answer yet (it may start later)
      --token T         the host's token (required when it listens beyond loopback)
      --push            load this editor's look on the host when connecting
      --headless        no window (scripts, tests)
      --script FILE     with --headless: JSON lines of steps, `-` for standard input:
                          {"intent":"next"} {"intent":"jumpTo","preset":"ID"} {"intent":"togglePlaylist"}
                          {"intent":"showOverlay"} {"intent":"dismissOverlay"}
                          {"params":{"global.exposure":1.4}} {"wait":0.5} {"sync":true} {"quit":true}
                        The script starts once the host's state arrived.
      --state-file FILE the mirrored state (preset, params, cycling, revision) as JSON, every second
      --exit-when-done  with --script: exit once the script ended and the host acknowledged
                        every change (otherwise keep mirroring until killed)
      --quit-after S    quit by itself after S seconds
    Without HOST:PORT it looks for hosts announced on the local network (DNS-SD through
    the Avahi daemon; a host announces itself when it listens beyond loopback) for
    --wait seconds (default 3), lists them numbered and reads the number (or name) of
    the one to connect to from standard input; when that host needs a token and none
    was given, it reads the token on the next line. Every other option is as above.
      --browse          print the hosts found, one a line: NAME, ADDR:PORT, host name and
                        token|no-token, separated by tabs (exit 1 when Avahi is not running)
    Window options are those of `physarum` (see `physarum --help`).
    Traffic is not encrypted; see docs/remote-protocol.md.
    """

    static func run(_ args: [String]) throws -> Int32 {
        guard let first = args.first, !first.hasPrefix("-") else {
            return try RemoteDiscovery.run(args)
        }
        let target = try HostPort.parse(first, option: "HOST:PORT", requireHost: true)
        var r = ArgumentReader(Array(args.dropFirst()))
        let token = try r.string("--token")
        if let token, !RemoteToken.isWellFormed(token) {
            throw UsageError("--token must be 16...256 printable characters without spaces")
        }
        let remote = RemoteTarget(host: target, token: token, push: r.flag("--push"), keepTrying: r.flag("--wait"))
        guard r.flag("--headless") else {
            for o in ["--script", "--exit-when-done"] where r.remaining.contains(o) { throw UsageError("\(o) needs --headless") }
            var options = try LiveOptions.parse(r.remaining)
            options.remote = remote
            return LiveRunner(options: options).run()
        }
        let script = try r.string("--script")
        let exitWhenDone = r.flag("--exit-when-done")
        let stateFile = try r.string("--state-file")
        let quitAfter = try r.double("--quit-after", in: 0...1e9)
        let preset = try r.string("--preset")
        if let p = r.positionals().first { throw UsageError("unexpected argument '\(p)'") }
        try r.finish()
        if exitWhenDone && script == nil { throw UsageError("--exit-when-done needs --script") }
        let source = try script.map { try ScriptSource(path: $0) }
        return try ScriptedRemote(target: remote, script: source, stateFile: stateFile, exitWhenDone: exitWhenDone,
                                  quitAfter: quitAfter, preset: preset).run()
    }
}
