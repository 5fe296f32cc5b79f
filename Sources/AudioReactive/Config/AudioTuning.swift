import Engine

/// The analysis settings an audio config carries, in the units a user reads:
/// milliseconds, seconds and decibels. A plain value; the analyzer converts
/// it to its own settings type.
public struct AudioTuning: Sendable, Hashable {
    /// Envelope attack time constant, ms (63.2 % of a rise within it).
    public var attack: Double = 8
    /// Envelope release time constant, ms.
    public var release: Double = 250
    /// Gate closes below this many dB above the tracked noise floor.
    public var gateLow: Double = 4
    /// Gate opens above this many dB above the tracked noise floor (≥ gateLow).
    public var gateHigh: Double = 9
    /// Gate hold time after the level falls below gateLow, ms.
    public var hold: Double = 150
    /// Auto-gain adaptation time, seconds (how long the reference takes to follow a change in loudness).
    public var autoGainAdaptation: Double = 2
    /// Onset sensitivity, 0…1 (higher fires on softer hits).
    public var onsetSensitivity: Double = 0.5
    /// Minimum time between two onsets of one source, ms.
    public var refractory: Double = 50
    /// Time constant of the transient signal's decay after a hit, ms.
    public var transientDecay: Double = 120
    /// JSON members this version does not know (kept on save).
    public var extraMembers: [JSONMember] = []

    /// The defaults above.
    public init() {}

    /// One numeric field: its JSON key, range, unit and meaning.
    public struct Field: Sendable {
        public let key: String
        public let range: ClosedRange<Double>
        public let unit: String
        public let help: String
        let keyPath: WritableKeyPath<AudioTuning, Double> & Sendable
    }

    /// Every numeric field, in file order.
    public static var fields: [Field] {
        [
            Field(key: "attack", range: 0...2_000, unit: "ms", help: "envelope attack time constant", keyPath: \.attack),
            Field(key: "release", range: 0...10_000, unit: "ms", help: "envelope release time constant", keyPath: \.release),
            Field(key: "gateLow", range: 0...40, unit: "dB", help: "gate closes below this level above the noise floor", keyPath: \.gateLow),
            Field(key: "gateHigh", range: 0...40, unit: "dB", help: "gate opens above this level above the noise floor (at least gateLow)", keyPath: \.gateHigh),
            Field(key: "hold", range: 0...5_000, unit: "ms", help: "gate hold time", keyPath: \.hold),
            Field(key: "autoGainAdaptation", range: 0.2...60, unit: "s", help: "auto-gain adaptation time", keyPath: \.autoGainAdaptation),
            Field(key: "onsetSensitivity", range: 0...1, unit: "", help: "onset sensitivity (higher fires on softer hits)", keyPath: \.onsetSensitivity),
            Field(key: "refractory", range: 10...1_000, unit: "ms", help: "minimum time between onsets", keyPath: \.refractory),
            Field(key: "transientDecay", range: 5...10_000, unit: "ms", help: "transient decay time constant", keyPath: \.transientDecay),
        ]
    }

    /// The value of a field.
    public subscript(field field: Field) -> Double {
        get { self[keyPath: field.keyPath] }
        set { self[keyPath: field.keyPath] = newValue }
    }
}

/// The analysis bands' edges, in Hz: 8 increasing edges delimit the 7 named
/// bands (`sub`…`brilliance`).
public enum AudioBandEdges {
    /// The default edges: sub 20–60, bass 60–250, lowMid 250–500, mid 500–2k,
    /// highMid 2k–4k, presence 4k–6k, brilliance 6k–16k Hz.
    public static let standard: [Double] = [20, 60, 250, 500, 2_000, 4_000, 6_000, 16_000]
    /// Allowed edge frequencies, Hz.
    public static let range: ClosedRange<Double> = 10...24_000
    /// Number of edges (bands + 1).
    public static let count = 8
}
