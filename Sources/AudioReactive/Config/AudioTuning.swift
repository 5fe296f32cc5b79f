import Storage

/// How sound is analysed, in the units a user reads (milliseconds, seconds,
/// decibels): the one description of every analysis setting. An audio
/// config carries one (`AudioConfig.tuning`), the analyser runs on one
/// (`Analyzer.settings`), and the config JSON, the JSON schema, the
/// `analyze` options and their help, and the audio panel's sliders and
/// tooltips are all produced from `fields` — adding a setting means adding
/// a stored property and its `Field`, plus the one place that uses it.
/// A plain value.
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
    /// Manual input gain, dB, applied before auto-gain (shifts every band's dBFS).
    public var gain: Double = 0
    /// Auto-gain on: a slowly adapting loudness reference per band; off = raw levels.
    public var autoGain = true
    /// Auto-gain adaptation time, seconds (how long the reference takes to follow a change in loudness).
    public var autoGainAdaptation: Double = 2
    /// Onset sensitivity, 0…1 (higher fires on softer hits).
    public var onsetSensitivity: Double = 0.5
    /// Minimum time between two onsets of one source, ms.
    public var refractory: Double = 50
    /// Time constant of the transient signal's decay after a hit, ms.
    public var transientDecay: Double = 120
    /// Band edges in Hz (8 increasing values bounding `sub` … `brilliance`;
    /// `full` spans the first to the last), nil = `AudioBandEdges.standard`.
    public var bands: [Double]?
    /// Members of the config's `tuning` object this version does not know (kept on save).
    public var extraMembers: [JSONMember] = []

    /// The defaults above.
    public init() {}

    /// The band edges in use.
    public var bandEdges: [Double] {
        get { bands ?? AudioBandEdges.standard }
        set { bands = newValue }
    }

    /// Where a field sits in the config JSON.
    public enum Placement: Sendable {
        /// A top-level member of the config (`gain`).
        case config
        /// A member of the config's `tuning` object.
        case tuning
    }

    /// One numeric setting: its JSON key, where it lives, its range, unit,
    /// label, command-line option and help, and the stored property.
    public struct Field: Sendable {
        /// JSON key and identity (`setTuning` actions, panel ids).
        public let key: String
        public let placement: Placement
        public let range: ClosedRange<Double>
        /// "ms", "s", "dB" or "" (a plain number).
        public let unit: String
        /// The audio panel's label.
        public let label: String
        /// The `analyze` option, e.g. `--attack`.
        public let option: String
        /// One sentence a user can act on: tooltip, `--help`, schema description.
        public let help: String
        let keyPath: WritableKeyPath<AudioTuning, Double> & Sendable

        /// The default value (from `AudioTuning()`).
        public var defaultValue: Double { AudioTuning()[keyPath: keyPath] }
        /// The help with its unit, for one-line listings.
        public var helpWithUnit: String { unit.isEmpty ? help : "\(help) (\(unit))" }
    }

    /// Every numeric field, in file order.
    public static let fields: [Field] = [
        Field(key: "gain", placement: .config, range: -40...40, unit: "dB", label: "Input gain", option: "--gain",
              help: "Manual input gain, applied before auto-gain: raise it for a quiet source when auto-gain is off.",
              keyPath: \.gain),
        Field(key: "attack", placement: .tuning, range: 0...2_000, unit: "ms", label: "Attack", option: "--attack",
              help: "How fast a band's level rises: the time to reach 63 % of a sudden step. Small = snappy, large = smooth.",
              keyPath: \.attack),
        Field(key: "release", placement: .tuning, range: 0...10_000, unit: "ms", label: "Release", option: "--release",
              help: "How fast a band's level falls back: the time to fall 63 % of the way after the sound stops.",
              keyPath: \.release),
        Field(key: "gateLow", placement: .tuning, range: 0...40, unit: "dB", label: "Gate low", option: "--gate-low",
              help: "The gate closes (after the hold time) when a band falls below its noise floor plus this many dB. Must not be above gate high.",
              keyPath: \.gateLow),
        Field(key: "gateHigh", placement: .tuning, range: 0...40, unit: "dB", label: "Gate high", option: "--gate-high",
              help: "The gate opens when a band rises above its tracked noise floor plus this many dB. Higher ignores more hiss and room noise.",
              keyPath: \.gateHigh),
        Field(key: "hold", placement: .tuning, range: 0...5_000, unit: "ms", label: "Hold", option: "--hold",
              help: "How long a band may stay below gate low before its gate closes, so short gaps do not flicker.",
              keyPath: \.hold),
        Field(key: "autoGainAdaptation", placement: .tuning, range: 0.2...60, unit: "s", label: "Auto gain adaptation", option: "--adaptation",
              help: "How long auto-gain takes to follow a change in loudness. Short follows a quiet break quickly; long keeps the dynamics.",
              keyPath: \.autoGainAdaptation),
        Field(key: "onsetSensitivity", placement: .tuning, range: 0...1, unit: "", label: "Onset sensitivity", option: "--sensitivity",
              help: "Transient detection: higher fires on softer hits (0…1, 0.5 balanced).",
              keyPath: \.onsetSensitivity),
        Field(key: "refractory", placement: .tuning, range: 10...1_000, unit: "ms", label: "Refractory", option: "--refractory",
              help: "Shortest time between two transients of one band: stops one hit from firing twice.",
              keyPath: \.refractory),
        Field(key: "transientDecay", placement: .tuning, range: 5...10_000, unit: "ms", label: "Transient decay", option: "--decay",
              help: "How fast the transient signal falls back after a hit: the time to fall 63 % of the way.",
              keyPath: \.transientDecay),
    ]

    /// The auto-gain switch's JSON key, option and help (the one Boolean setting).
    public static let autoGainKey = "autoGain"
    public static let autoGainOption = "--auto-gain"
    public static let autoGainHelp = "Auto-gain follows the loudness of each band slowly, so quiet and loud music both move the picture. Off: raw levels (−60…0 dBFS maps to 0…1)."

    /// The field with this JSON key, if any.
    public static func field(_ key: String) -> Field? { fields.first { $0.key == key } }

    /// The value of a field.
    public subscript(field field: Field) -> Double {
        get { self[keyPath: field.keyPath] }
        set { self[keyPath: field.keyPath] = newValue }
    }

    /// Sets a field clamped to its range (a non-finite value keeps the old
    /// one) and keeps gateLow ≤ gateHigh by moving the other end.
    public mutating func set(_ field: Field, clamped value: Double) {
        if value.isFinite { self[field: field] = min(max(value, field.range.lowerBound), field.range.upperBound) }
        if field.key == "gateLow", gateHigh < gateLow { gateHigh = gateLow }
        if field.key == "gateHigh", gateLow > gateHigh { gateLow = gateHigh }
    }

    /// Every problem with these settings as `field: reason` lines (empty = valid).
    public func problems() -> [String] {
        var out: [String] = []
        for f in Self.fields {
            let v = self[field: f]
            if !v.isFinite || !f.range.contains(v) {
                out.append("\(f.key): \(v) is outside \(JSONWriter.number(f.range.lowerBound))…\(JSONWriter.number(f.range.upperBound)) \(f.unit)")
            }
        }
        if gateLow > gateHigh { out.append("gateLow: \(gateLow) dB is above gateHigh \(gateHigh) dB") }
        if let bands { out += AudioBandEdges.problems(bands) }
        return out
    }

    /// These settings with every out-of-range field replaced by the one in
    /// `old` (and gateLow lowered to gateHigh, bad band edges replaced): what
    /// the analyser runs on, whatever it is given.
    public func sanitized(keeping old: AudioTuning) -> AudioTuning {
        var out = self
        for f in Self.fields where !(out[field: f].isFinite && f.range.contains(out[field: f])) {
            out[field: f] = old[field: f]
        }
        if out.gateLow > out.gateHigh { out.gateLow = out.gateHigh }
        if let b = out.bands, !AudioBandEdges.problems(b).isEmpty { out.bands = old.bands }
        return out
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

    /// Every problem with a list of edges as `bands[i]: reason` lines.
    public static func problems(_ edges: [Double]) -> [String] {
        guard edges.count == count else { return ["bands: need \(count) edges (sub…brilliance), got \(edges.count)"] }
        var out: [String] = []
        for (i, e) in edges.enumerated() where !e.isFinite || !range.contains(e) {
            out.append("bands[\(i)]: \(e) Hz is outside \(JSONWriter.number(range.lowerBound))…\(JSONWriter.number(range.upperBound)) Hz")
        }
        for i in 1..<edges.count where !(edges[i] > edges[i - 1]) {
            out.append("bands[\(i)]: edges must increase (\(edges[i - 1]) then \(edges[i]))")
        }
        return out
    }
}
