import AudioReactive

/// Where the tempo comes from.
public enum TempoSource: String, Equatable, Sendable {
    case none
    /// The beat tracker (its own estimate, tap tempo, or a tempo set over OSC).
    case tracker
    case midiClock
    /// Ableton Link (joined).
    case link
}

/// The tempo at one frame: source, BPM and the beat position (beats since
/// the source's origin; downbeats at multiples of `beatsPerBar`), or not locked.
public struct TempoReading: Equatable, Sendable {
    public var source: TempoSource = .none
    public var bpm = 0.0
    /// Beat position; nil when no source is locked (synced changes wait).
    public var beat: Double?
    /// Beats in a bar: 4, or Link's quantum.
    public var beatsPerBar = 4.0

    public init(source: TempoSource = .none, bpm: Double = 0, beat: Double? = nil, beatsPerBar: Double = 4) {
        self.source = source
        self.bpm = bpm
        self.beat = beat
        self.beatsPerBar = beatsPerBar
    }

    public var locked: Bool { beat != nil }
}

/// The tempo sources side by side: Ableton Link while joined, else MIDI
/// clock while it runs, else the beat tracker when it is sure (held by a
/// lock, a tap or an OSC tempo, or confident), else none. Leaving Link falls
/// back to whichever of the others holds. Pure; `update` once per frame
/// with the frame's time, the tracker's features and Link's reading.
public struct TempoClock: Equatable, Sendable {
    public var midi = MidiClockFollower()
    /// Bars the tracker has counted (its `beatInBar` wrapping), for a position that only grows.
    private var trackerBars = 0
    private var lastBeatInBar = -1
    public private(set) var reading = TempoReading()
    /// The tracker counts as locked at this confidence without a hold.
    public static let trackerConfidence: Float = 0.3

    public init() {}

    /// A MIDI clock or transport message (stamped on the frame clock).
    public mutating func midiClock(_ m: MidiMessage, at time: Double) { midi.handle(m, at: time) }

    /// The reading for the frame at `time` with the tracker's latest
    /// features and Link's session (nil: not joined). Link stopped under
    /// start/stop sync gives its tempo with no beat (synced changes wait).
    @discardableResult
    public mutating func update(time: Double, tracker b: BeatFeatures, link: LinkReading? = nil) -> TempoReading {
        if lastBeatInBar >= 0 && b.beatInBar < lastBeatInBar { trackerBars += 1 }
        lastBeatInBar = b.beatInBar
        if let l = link, l.bpm > 0 {
            reading = TempoReading(source: .link, bpm: l.bpm, beat: l.running ? l.beat : nil, beatsPerBar: l.quantum)
        } else if let beat = midi.position(at: time) {
            reading = TempoReading(source: .midiClock, bpm: midi.bpm, beat: beat)
        } else if b.tempo > 0 && (b.held || b.confidence >= Self.trackerConfidence) {
            let beat = Double(trackerBars * 4 + b.beatInBar) + Double(min(max(b.phase, 0), 0.999))
            reading = TempoReading(source: .tracker, bpm: Double(b.tempo), beat: beat)
        } else {
            reading = TempoReading(source: .none, bpm: Double(b.tempo), beat: nil)
        }
        return reading
    }
}

/// Mutate and randomize quantised to the next beat: held actions wait for
/// the first frame whose beat position reaches the next whole beat after
/// the moment they came. Pure.
public struct BeatQuantizer: Equatable, Sendable {
    private var held: [(due: Double, action: AppAction)] = []

    public init() {}

    /// Actions waiting.
    public var count: Int { held.count }

    /// Whether `action` is one that waits for the beat.
    public static func waits(_ action: AppAction) -> Bool {
        switch action {
        case .mutate, .randomize: true
        default: false
        }
    }

    /// Holds `action` until the beat after `beat`.
    public mutating func hold(_ action: AppAction, beat: Double) {
        held.append((beat.rounded(.down) + 1, action))
    }

    /// The held actions whose beat has come (all of them when `beat` is nil: the tempo was lost).
    public mutating func due(beat: Double?) -> [AppAction] {
        guard let beat else { defer { held.removeAll() }; return held.map(\.action) }
        let ready = held.filter { $0.due <= beat + 1e-9 }.map(\.action)
        held.removeAll { $0.due <= beat + 1e-9 }
        return ready
    }

    public static func == (a: BeatQuantizer, b: BeatQuantizer) -> Bool {
        a.held.map(\.due) == b.held.map(\.due) && a.held.map(\.action) == b.held.map(\.action)
    }
}
