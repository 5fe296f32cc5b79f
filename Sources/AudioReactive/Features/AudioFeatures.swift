/// A modulation source: one of the named analysis bands, or the broadband `full`.
public enum AudioSourceID: String, CaseIterable, Sendable, Codable, Hashable {
    case sub, bass, lowMid, mid, highMid, presence, brilliance, full

    /// Index into `AudioFeatures.sources`.
    public var index: Int {
        switch self {
        case .sub: 0
        case .bass: 1
        case .lowMid: 2
        case .mid: 3
        case .highMid: 4
        case .presence: 5
        case .brilliance: 6
        case .full: 7
        }
    }

    /// Number of sources (7 bands + full).
    public static let count = 8
}

/// What one source is doing at one hop: all values 0…1.
public struct SourceFeatures: Sendable, Hashable {
    /// Gated, gained, enveloped level.
    public var level: Float
    /// Transient signal: jumps to the hit strength on an onset, then decays.
    public var transient: Float
    /// Gate gain actually applied (0 closed … 1 open, smoothed).
    public var gate: Float

    public init(level: Float = 0, transient: Float = 0, gate: Float = 0) {
        self.level = level
        self.transient = transient
        self.gate = gate
    }
}

/// The analysis result of one hop, timestamped on the sample clock. Fixed
/// size (no heap allocation), so it can cross threads through an SPSC queue.
public struct AudioFeatures: Sendable {
    /// Sample-clock seconds at the last sample of the hop (when a live decision
    /// could first be made; never back-dated).
    public var time: Double
    /// Per source, in `AudioSourceID.allCases` order.
    public var sources: InlineArray<8, SourceFeatures>
    /// True on the hop at which a `full` onset fires.
    public var onset: Bool
    /// The beat tracker: tempo, phase, confidence, beats and bars.
    public var beat: BeatFeatures

    public init(time: Double = 0) {
        self.time = time
        sources = InlineArray(repeating: SourceFeatures())
        onset = false
        beat = BeatFeatures()
    }

    /// The features of one source.
    public subscript(_ id: AudioSourceID) -> SourceFeatures {
        get { sources[id.index] }
        set { sources[id.index] = newValue }
    }

    /// All-zero features (silence): modulation returns to base.
    public static let silent = AudioFeatures()
}
