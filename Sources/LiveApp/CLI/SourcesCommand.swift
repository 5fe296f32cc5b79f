import AudioReactive
import LiveCore
import Storage

/// `physarum sources [--json] [--server ADDRESS]`: the PulseAudio capture sources.
enum SourcesCommand: Subcommand {
    static let name = "sources"
    static let summary = "list PulseAudio capture sources (monitors capture what the machine plays)"
    static let help = """
    Usage: physarum sources [--json] [--server ADDRESS]

    Lists the capture sources of the PulseAudio server (PulseAudio or
    pipewire-pulse): one line each with the name to pass to
    `physarum analyze --source NAME` (and the live app's --source), the
    description, `[monitor]` for a sink's monitor (what the machine plays),
    and `*` for the server's default source.

    --json             one JSON array of {name, description, monitor, default,
                       channels, rate}
    --server ADDRESS   a PulseAudio server address (default: $PULSE_SERVER,
                       then your session's server)

    Exit status: 0 listed; 1 no server reachable (one line on stderr);
    2 bad arguments.
    """

    static func run(_ args: [String]) throws -> Int32 {
        var r = ArgumentReader(args)
        let json = r.flag("--json")
        let server = try r.string("--server")
        try r.finish()
        let sources: [PulseSourceInfo]
        do {
            sources = try PulseSources.list(server: server)
        } catch {
            throw RuntimeFailure(error.description)
        }
        if json {
            print(JSONNode.array(sources.map { s in
                .object([("name", .string(s.name)), ("description", .string(s.description)),
                         ("monitor", .bool(s.isMonitor)), ("default", .bool(s.isDefault)),
                         ("channels", .int(s.channels)), ("rate", .int(s.sampleRate))])
            }).text)
            return 0
        }
        if sources.isEmpty {
            print("No capture sources on this PulseAudio server.")
            return 0
        }
        let width = min(60, sources.map(\.name.count).max() ?? 0)
        for s in sources {
            let name = s.name.padding(toLength: max(width, s.name.count), withPad: " ", startingAt: 0)
            print("\(s.isDefault ? "*" : " ") \(name)  \(s.isMonitor ? "[monitor] " : "")\(s.description)")
        }
        print("\n* = default source. Monitors capture what the machine plays; use the name with --source.")
        return 0
    }
}
