import AudioReactive

/// Ableton Link as the user sets it (the MIDI panel's Link section; kept in
/// the session): joined or not, the quantum (beats per bar of the shared
/// bar phase) and start/stop sync.
public struct LinkSettings: Equatable, Sendable {
    /// Joined to the Link session on the local network.
    public var enabled = false
    /// Beats per bar: downbeats fall where the session's phase in this quantum is 0.
    public var quantum = 4.0
    /// Share start/stop with the peers: while the session is stopped, synced changes wait.
    public var startStopSync = false

    public static let quantumRange = 1.0...16.0

    public init(enabled: Bool = false, quantum: Double = 4, startStopSync: Bool = false) {
        self.enabled = enabled
        self.quantum = quantum
        self.startStopSync = startStopSync
    }
}

/// The Link session at one frame (read by the Link source, on the frame's
/// time mapped to Link's clock).
public struct LinkReading: Equatable, Sendable {
    public var bpm: Double
    /// Beats on the session's timeline; downbeats at multiples of `quantum`.
    public var beat: Double
    /// 0 ..< quantum: where in the bar.
    public var phase: Double
    /// The session's transport (meaningful with start/stop sync).
    public var playing: Bool
    /// Other peers in the session.
    public var peers: Int
    public var quantum: Double
    public var startStopSync: Bool

    public init(bpm: Double, beat: Double, phase: Double, playing: Bool = true, peers: Int = 0, quantum: Double = 4,
                startStopSync: Bool = false) {
        self.bpm = bpm
        self.beat = beat
        self.phase = phase
        self.playing = playing
        self.peers = peers
        self.quantum = quantum
        self.startStopSync = startStopSync
    }

    /// Synced changes follow the session now (not stopped under start/stop sync).
    public var running: Bool { !startStopSync || playing }
}

/// What the app proposes to the Link session: its own tempo changes. While
/// joined, a new tempo the beat tracker holds (a tap, Lock, OSC `/tempo`)
/// is proposed once; the tempo it held when joining is not (the joiner
/// takes the session's tempo — Link keeps the older session; two founded
/// within 0.5 s of each other are ordered by their random ids). Pure; one
/// `update` per frame.
public struct LinkTempoProposer: Equatable, Sendable {
    private var joined = false
    private var lastHeld: Float?

    public init() {}

    /// The tempo to propose this frame, if any.
    public mutating func update(joined now: Bool, tracker b: BeatFeatures) -> Double? {
        let held: Float? = b.held && b.tempo > 0 ? b.tempo : nil
        defer { joined = now; lastHeld = held ?? lastHeld }
        guard now else { return nil }
        guard joined else { return nil }  // just joined: the session's tempo wins
        guard let held, held != lastHeld else { return nil }
        return Double(held)
    }
}
