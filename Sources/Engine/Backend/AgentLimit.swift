/// The most agents one backend runs on this machine, and why: the engine's
/// own limit, or what the free memory holds (estimated before anything is
/// allocated). Every way an agent count arrives (a preset file, `--agents`,
/// `render --agents`, OSC, a remote, MIDI, a session) is held to it before
/// any allocation: the app model lowers counts to it with a notice naming it.
public struct AgentLimit: Sendable, Equatable, CustomStringConvertible {
    /// The most agents.
    public let count: Int
    /// Why that many: "the CPU engine's limit", "what the free memory holds (…)".
    public let reason: String

    public init(count: Int, reason: String) {
        self.count = max(1_000, count)
        self.reason = reason
    }

    /// Bytes the CPU engine spends per agent: two agent stores (x, y and the
    /// heading as four Floats plus a phase byte: the live one and the spare
    /// the tile sort and respawns fill) and the sort key.
    public static let cpuBytesPerAgent = 2 * (4 * 4 + 1) + 4

    /// The share of the machine's free memory agents may take (the rest is
    /// for the field, the renderer, the window and everything else running).
    public static let memoryShare = 0.5

    /// The limit of a backend that takes at most `engineMax` agents (its
    /// name in `engine`, e.g. "the CPU engine"), on a machine with
    /// `availableBytes` free (nil: unknown, not checked), at
    /// `bytesPerAgent` of main memory each (0: the agents live elsewhere).
    public static func of(engine: String, engineMax: Int, availableBytes: Int?, bytesPerAgent: Int) -> AgentLimit {
        let engineLimit = AgentLimit(count: engineMax, reason: "\(engine)'s limit")
        guard let free = availableBytes, bytesPerAgent > 0 else { return engineLimit }
        let byMemory = Int(Double(free) * memoryShare) / bytesPerAgent
        guard byMemory < engineMax else { return engineLimit }
        return AgentLimit(count: byMemory, reason: "what half of the \(gigabytes(free)) of free memory holds at \(bytesPerAgent) bytes an agent")
    }

    /// The CPU engine's limit on a machine with `availableBytes` free.
    public static func cpu(availableBytes: Int?) -> AgentLimit {
        of(engine: "the CPU engine", engineMax: CPUBackend.agentLimit, availableBytes: availableBytes, bytesPerAgent: cpuBytesPerAgent)
    }

    /// `n` held to the limit: the count to run and, when it was lowered, a
    /// notice saying so.
    public func hold(_ n: Double) -> (count: Double, notice: String?) {
        guard n > Double(count) else { return (n, nil) }
        return (Double(count), "\(Self.grouped(Int(n))) agents asked for; running \(Self.grouped(count)) instead: \(reason)")
    }

    /// "8 000 000, the CPU engine's limit".
    public var description: String { "\(Self.grouped(count)), \(reason)" }

    static func grouped(_ n: Int) -> String {
        var s = String(n), out = ""
        while s.count > 3 {
            out = " " + s.suffix(3) + out
            s = String(s.dropLast(3))
        }
        return s + out
    }

    static func gigabytes(_ bytes: Int) -> String {
        let g = Double(bytes) / Double(1 << 30)
        return g >= 10 ? "\(Int(g.rounded())) GB" : "\((g * 10).rounded() / 10) GB"
    }
}

extension PresetParams {
    /// These parameters with the agent count held to `limit` (and the notice when it was lowered).
    public func held(to limit: AgentLimit?) -> (params: PresetParams, notice: String?) {
        guard let limit else { return (self, nil) }
        let (n, notice) = limit.hold(self[.agents])
        guard notice != nil else { return (self, nil) }
        var p = self
        p[.agents] = n
        return (p, notice)
    }
}
