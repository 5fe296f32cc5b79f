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
    /// `HOST:PORT` of a tablet: the app's values are sent back there (the OSC layout's addresses).
    public var feedbackTarget: String?

    public init(inPort: Int? = nil, inHost: String? = nil, outTarget: String? = nil, feedbackTarget: String? = nil) {
        self.inPort = inPort
        self.inHost = inHost
        self.outTarget = outTarget
        self.feedbackTarget = feedbackTarget
    }
}

/// The live-control state held by `AppModel.control`: MIDI bindings and
/// learn, OSC endpoints, tempo sync and the visual offset. Changed only
/// through `ControlAction`s.
public struct ControlState: Equatable, Sendable {
    /// The user's own bindings (learned, edited, imported; the bindings file).
    public var bindings: [MidiBinding] = []
    /// The shipped controller templates (configs/controllers, read at start).
    public var templates: [ControllerTemplate] = []
    /// Templates chosen by hand in the MIDI panel (kept in the bindings file).
    public var chosenTemplates: [String] = []
    /// The MIDI ports connected now: a template whose name matches one is in use.
    public var connectedPorts: [String] = []
    /// The target armed for MIDI learn: the next CC, note or pitch bend binds to it.
    public var learning: ControlTarget?
    public var panelVisible = false
    public var sync = TempoSyncSettings()
    public var osc = OSCSettings()
    /// Ableton Link: joined, quantum, start/stop sync.
    public var link = LinkSettings()
    /// Delay of the modulation behind the sound, 0…200 ms (a projector meeting a far PA).
    public var visualOffsetMs = 0.0
    /// The bindings file could not be read (its problem): edits stay in
    /// memory and are never written over it.
    public var bindingsFileProblem: String?

    public static let visualOffsetRange = 0.0...200.0

    public init() {}

    /// The templates in use: chosen by hand, or matching a connected port.
    public var activeTemplates: [ControllerTemplate] {
        templates.filter { t in chosenTemplates.contains(t.id) || connectedPorts.contains(where: t.matches) }
    }

    /// Every binding in force: the user's, then the active templates' for
    /// controls the user has not bound (a learned binding wins).
    public var active: [MidiBinding] {
        let used = activeTemplates
        guard !used.isEmpty else { return bindings }
        var out = bindings
        var taken = Set(bindings.map(\.control))
        for t in used {
            for b in t.bindings where !taken.contains(b.control) {
                out.append(b)
                taken.insert(b.control)
            }
        }
        return out
    }
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
    /// The shipped controller templates were read (problems: files that did not).
    case templatesLoaded([ControllerTemplate], problems: [String])
    /// The templates chosen by hand, as the bindings file keeps them (at start).
    case templatesChosen([String])
    /// Chooses a template by hand (or stops using it).
    case chooseTemplate(String, Bool)
    /// The MIDI input ports connected now (templates follow them).
    case portsConnected([String])
    /// Reads a mapping file (a bindings file) and adds its bindings to the user's.
    case importMapping(String)
    /// Writes every binding in force (the user's and the templates') to a file.
    case exportMapping(String)
    /// An imported file's bindings (they replace the user's bindings of the same controls).
    case mappingImported([MidiBinding], from: String)
    case togglePanel
    case setSyncBars(Int)
    case setFadeBeats(Double)
    case setQuantize(Bool)
    case setVisualOffset(Double)
    case setOSC(OSCSettings)
    /// Joins (true) or leaves the Link session.
    case setLink(Bool)
    case toggleLink
    /// Beats per bar of Link's shared phase.
    case setLinkQuantum(Double)
    case setLinkStartStopSync(Bool)
    /// Proposes start (true) or stop to the Link session.
    case linkTransport(Bool)
    /// Morph toward the preset after the current one (t in 0…1).
    case morph(Double)
}

/// Work for the shell after a control action.
public enum ControlEffect: Equatable, Sendable {
    /// Write the bindings file (atomically, off the frame path), with the templates chosen by hand.
    case saveBindings([MidiBinding], templates: [String])
    /// Read a mapping file (off the frame path); its bindings come back as `.mappingImported`.
    case importMapping(String)
    /// Write these bindings to a file (atomically).
    case exportMapping([MidiBinding], to: String)
    /// Restart the OSC endpoints with these settings.
    case restartOSC(OSCSettings)
    /// Propose start (true) or stop to the Link session.
    case linkTransport(Bool)
}
