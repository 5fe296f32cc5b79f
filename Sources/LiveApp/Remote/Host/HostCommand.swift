import Engine
import Foundation
import LiveCore
import Storage

/// Options of `physarum host`.
struct HostOptions: Sendable {
    var listen = HostPort(host: nil, port: 0)
    var token: String?
    var onDisconnect = DisconnectPolicy.cycle
    var headless = false
    var fps = 30.0
    var field: (width: Int, height: Int) = (1280, 720)
    var size: (width: Int, height: Int)?
    var agents: Int?
    /// Most agents a remote may set (nil: `HostLink.defaultMaxAgents`).
    var maxAgents: Int?
    var preset: String?
    var seed: UInt64 = 1
    var threads: Int?
    var stateFile: String?
    var stats: String?
    var quitAfter: Double?
    var dwell = 25.0

    /// Reads the remote-control options shared with the window
    /// (`--listen`, `--token`, `--on-disconnect`); nil listen when absent.
    static func parseRemote(_ r: inout ArgumentReader) throws -> (listen: HostPort?, token: String?, onDisconnect: DisconnectPolicy) {
        let listen = try r.string("--listen").map { s throws(UsageError) in try HostPort.parse(s, option: "--listen") }
        let token = try r.string("--token")
        if let token, !RemoteToken.isWellFormed(token) {
            throw UsageError("--token must be 16...256 printable characters without spaces")
        }
        var policy = DisconnectPolicy.cycle
        if let s = try r.string("--on-disconnect") {
            guard let p = DisconnectPolicy(rawValue: s) else { throw UsageError("--on-disconnect must be cycle or hold, got '\(s)'") }
            policy = p
        }
        if listen == nil && (token != nil) { throw UsageError("--token needs --listen") }
        return (listen, token, policy)
    }
}

/// `physarum host`: a remote-controlled host; `--headless` runs the
/// simulation and renderer without a window (installations, tests).
enum HostCommand: Subcommand {
    static let name = "host"
    static let summary = "let a remote editor control this machine (add --headless for no window)"
    static let help = """
    Usage: physarum host --listen [ADDR:]PORT [--token T] [--on-disconnect cycle|hold] [--headless]
                         [--fps N] [--field WxH] [--size WxH] [--agents N] [--preset NAME] [--seed S]
                         [--threads N] [--state-file FILE] [--stats FILE] [--dwell S] [--quit-after S]
                         [--max-agents N]

    Listens for one remote (`physarum remote HOST:PORT`) at a time; see docs/remote-protocol.md.
      --listen [ADDR:]PORT  where to listen; ADDR defaults to 127.0.0.1 (this machine only).
                            Port 0 lets the system choose (the state file's "listen" tells which).
      --token T             the secret a remote must send; without it a host bound beyond
                            loopback (e.g. 0.0.0.0) makes a random 128-bit one and prints it.
                            Traffic is NOT encrypted: use it on a network you trust.
      --on-disconnect M     cycle (default): resume cycling through presets when the remote
                            leaves; hold: keep the look.
      --headless            no window: simulate and render at --fps (default 30) and drop the
                            frames. Without it, the live window opens (same as `physarum --listen`,
                            which takes every window option).
      --field WxH           simulation field (default 1280x720); --size WxH output (default: field)
      --state-file FILE     the state (preset, params, cycling, revision, remote, frames) as JSON,
                            rewritten every second
      --stats FILE          one JSON line per second: t, frames, fps, remote
      --dwell S             seconds per preset while cycling (3...600, default 25; then a
                            1.5 s fade out, 0.5 s black, 1.5 s fade in)
      --quit-after S        quit by itself after S seconds
      --max-agents N        most agents a remote may set (default: one million per core, at
                            most 8000000); a larger count it pushes or sends is capped, with a notice
    SIGTERM or Ctrl+C quits (the state file is written one last time).
    """

    static func run(_ args: [String]) throws -> Int32 {
        guard args.contains("--headless") else {
            guard args.contains(where: { $0 == "--listen" || $0.hasPrefix("--listen=") }) else {
                throw UsageError("--listen [ADDR:]PORT is required")
            }
            let options = try LiveOptions.parse(args)
            return LiveRunner(options: options).run()
        }
        let o = try parse(args)
        return try HeadlessHost(options: o).run()
    }

    static func parse(_ args: [String]) throws -> HostOptions {
        var r = ArgumentReader(args)
        var o = HostOptions()
        let remote = try HostOptions.parseRemote(&r)
        guard let listen = remote.listen else { throw UsageError("--listen [ADDR:]PORT is required") }
        o.listen = listen
        o.token = remote.token
        o.onDisconnect = remote.onDisconnect
        o.headless = r.flag("--headless")
        o.fps = try r.double("--fps", in: 1...1000) ?? 30
        o.field = try r.size("--field", max: 4096) ?? (1280, 720)
        o.size = try r.size("--size")
        o.agents = try r.int("--agents", in: 1_000...8_000_000)
        o.maxAgents = try r.int("--max-agents", in: 1_000...8_000_000)
        o.preset = try r.string("--preset")
        o.seed = try r.int("--seed", in: 0...Int.max).map(UInt64.init) ?? 1
        o.threads = try r.int("--threads", in: 1...64)
        o.stateFile = try r.string("--state-file")
        o.stats = try r.string("--stats")
        o.dwell = try r.double("--dwell", in: CycleSettings.dwellRange) ?? 25
        o.quitAfter = try r.double("--quit-after", in: 0...1e9)
        if let p = r.positionals().first { throw UsageError("unexpected argument '\(p)'") }
        try r.finish()
        return o
    }
}

/// Starting a host's network side, shared by the window and the headless host.
enum RemoteHostSetup {
    /// Binds and starts listening; prints where, and the token when one was made up.
    static func start(listen: HostPort, token: String?) throws(RuntimeFailure) -> RemoteHost {
        let host: RemoteHost
        do {
            host = try RemoteHost(listen: listen, token: token)
        } catch {
            throw RuntimeFailure("--listen \(listen): \(error)")
        }
        let exposed = !host.address.isLoopback
        printError("physarum: remote control on \(host.address)\(exposed ? " (reachable from the network; traffic is not encrypted)" : "")")
        if host.generatedToken, let t = host.token {
            writeQuietly("remote token: \(t)\n", to: STDOUT_FILENO)
        }
        host.start()
        return host
    }

    /// Announces a host bound beyond loopback on the local network (DNS-SD
    /// through Avahi); nil for a loopback-only host, which no one else can reach.
    static func announce(_ host: RemoteHost) -> HostAnnouncer? {
        host.address.isLoopback ? nil : HostAnnouncer(port: host.address.port, tokenRequired: host.token != nil,
                                                      ipv4Only: host.address.family == AF_INET)
    }

    /// The host's remote-control status for `--state-file`: addresses, token
    /// (required, shown), the connected remote, the announcement, the lines
    /// on screen and the label's rectangle when drawn.
    static func stateJSON(_ s: HostStatus, tokenShown: Bool, label: UI.Rect? = nil) -> JSONNode {
        var announcement: JSONNode = .null
        switch s.announcement {
        case .none: break
        case .pending?: announcement = .object([("state", .string("pending"))])
        case .announced(let name)?: announcement = .object([("state", .string("announced")), ("name", .string(name))])
        case .unavailable(let reason)?: announcement = .object([("state", .string("unavailable")), ("reason", .string(reason))])
        }
        var members: [(String, JSONNode)] = [
            ("addresses", .array(s.addresses.map(JSONNode.string))), ("tokenRequired", .bool(s.token != nil)),
            ("tokenShown", .bool(tokenShown)), ("remotePeer", s.remotePeer.map(JSONNode.string) ?? .null),
            ("announcement", announcement), ("lines", .array(s.lines(showToken: tokenShown).map(JSONNode.string))),
        ]
        if let label {
            members.append(("label", .array([label.x0, label.y0, label.x1, label.y1].map { JSONNode.rounded(Double($0), 1) })))
        }
        return .object(members)
    }

    /// What the host's window shows about remote control now.
    static func status(host: RemoteHost, link: HostLink?, announcer: HostAnnouncer?) -> HostStatus {
        HostStatus(addresses: host.address.reachableAddresses, loopbackOnly: host.address.isLoopback, token: host.token,
                   remotePeer: link?.remotePeer, announcement: announcer?.status)
    }
}
