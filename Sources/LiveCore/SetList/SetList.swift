/// How long a cue plays: whole bars of the locked tempo, or seconds (which,
/// with a tempo locked, end on the first downbeat after them).
public enum CueLength: Equatable, Sendable {
    case bars(Int)
    case seconds(Double)

    public static let barsRange = 1...512
    public static let secondsRange = 1.0...3600.0

    /// "8 bars", "30 s".
    public var label: String {
        switch self {
        case .bars(let n): n == 1 ? "1 bar" : "\(n) bars"
        case .seconds(let s): s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
        }
    }
}

/// How a cue comes in, on its first downbeat.
public enum CueTransition: Equatable, Sendable {
    /// Switches on the downbeat.
    case cut
    /// Fades to black over the `beats` before the downbeat, switches on it,
    /// and fades in over the `beats` after it.
    case fade(beats: Double)
    /// From the downbeat on, the look morphs into the cue's preset over `beats`.
    case morph(beats: Double)

    public static let beatsRange = 0.25...64.0

    /// The JSON `transition` value.
    public var kind: String {
        switch self {
        case .cut: "cut"
        case .fade: "fade"
        case .morph: "morph"
        }
    }

    public var beats: Double? {
        switch self {
        case .cut: nil
        case .fade(let b), .morph(let b): b
        }
    }

    /// "cut", "fade 4 beats", "morph 8 beats".
    public var label: String {
        guard let b = beats else { return kind }
        let n = b == b.rounded() ? String(Int(b)) : String(b)
        return "\(kind) \(n) beat\(b == 1 ? "" : "s")"
    }
}

/// One entry of a set list: a preset (and optionally an audio config), how
/// long it plays and how it comes in.
public struct Cue: Equatable, Sendable {
    /// A preset id (a factory id or `user:<id>`).
    public var preset: String
    /// The name of a saved audio config to apply with it (nil: keep the one in use).
    public var audioConfig: String?
    public var length: CueLength
    public var transition: CueTransition

    public init(preset: String, audioConfig: String? = nil, length: CueLength = .bars(16), transition: CueTransition = .cut) {
        self.preset = preset
        self.audioConfig = audioConfig
        self.length = length
        self.transition = transition
    }
}

/// An ordered list of cues a VJ plans a set with
/// (`$XDG_CONFIG_HOME/physarum/setlist.json`, `SetListFile`).
public struct SetList: Equatable, Sendable {
    public var name: String
    public var cues: [Cue]

    public static let maxCues = 1000

    public init(name: String = "Set list", cues: [Cue] = []) {
        self.name = name
        self.cues = cues
    }
}
