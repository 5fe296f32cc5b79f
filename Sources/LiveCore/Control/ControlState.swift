/// Tempo-synced changes (docs/live-control.md): with a tempo source locked,
/// the auto-cycle switches every `bars` bars on the downbeat with fades of
/// `fadeBeats`, and mutate/randomize wait for the next beat.
public struct TempoSyncSettings: Equatable, Sendable {
    /// Bars between switches; 0 = off (the dwell in seconds applies).
    public var bars = 0
    /// Length of the fade out and of the fade in, in beats.
    public var fadeBeats = 1.0
    /// Mutate and randomize land on the next beat.
    public var quantize = false

    public static let barsRange = 0...64
    public static let fadeBeatsRange = 0.0...16.0

    public init(bars: Int = 0, fadeBeats: Double = 1, quantize: Bool = false) {
        self.bars = bars
        self.fadeBeats = fadeBeats
        self.quantize = quantize
    }
}

/// Where OSC comes in and goes out (nil: off).
public struct OSCSettings: Equatable, Sendable {
    /// UDP port for `/physarum/…` messages.
    public var inPort: Int?
    /// The address OSC in is bound to (nil: every IPv4 interface).
    public var inHost: String?
    /// `HOST:PORT` the audio features are sent to each frame.
    public var outTarget: String?

    public init(inPort: Int? = nil, inHost: String? = nil, outTarget: String? = nil) {
        self.inPort = inPort
        self.inHost = inHost
        self.outTarget = outTarget
    }
}

/// The live-control state held by `AppModel.control`: MIDI bindings and
/// learn, OSC endpoints, tempo sync and the visual offset. Changed only
/// through `ControlAction`s.
public struct ControlState: Equatable, Sendable {
    public var bindings: [MidiBinding] = []
    /// The target armed for MIDI learn: the next CC, note or pitch bend binds to it.
    public var learning: ControlTarget?
    public var panelVisible = false
    public var sync = TempoSyncSettings()
    public var osc = OSCSettings()
    /// Delay of the modulation behind the sound, 0…200 ms (a projector meeting a far PA).
    public var visualOffsetMs = 0.0
    /// The bindings file could not be read (its problem): edits stay in
    /// memory and are never written over it.
    public var bindingsFileProblem: String?

    public static let visualOffsetRange = 0.0...200.0

    public init() {}
}

/// What the MIDI panel, learn gestures, MIDI input and files can ask of the live controls.
public enum ControlAction: Equatable, Sendable {
    /// Arms learn on a target (right-click → Learn, or L while hovering); again on the same target disarms.
    case learn(ControlTarget)
    case cancelLearn
    /// A control was learned (or edited into) a binding: replaces any binding of that control.
    case bind(MidiBinding)
    case updateBinding(Int, MidiBinding)
    case removeBinding(Int)
    /// The bindings file was read at start (or reported broken: `problem`).
    case bindingsLoaded([MidiBinding], problem: String?)
    case togglePanel
    case setSyncBars(Int)
    case setFadeBeats(Double)
    case setQuantize(Bool)
    case setVisualOffset(Double)
    case setOSC(OSCSettings)
    /// Morph toward the preset after the current one (t in 0…1).
    case morph(Double)
}

/// Work for the shell after a control action.
public enum ControlEffect: Equatable, Sendable {
    /// Write the bindings file (atomically, off the frame path).
    case saveBindings([MidiBinding])
    /// Restart the OSC endpoints with these settings.
    case restartOSC(OSCSettings)
}
