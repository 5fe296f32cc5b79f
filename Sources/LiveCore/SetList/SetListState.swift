/// The set list's transport.
public enum SetListTransport: String, Equatable, Sendable {
    case stopped, playing, held
}

/// The set list as the app holds it (`AppModel.setList`): the list and its
/// file's problem, the panel, the transport and which cue plays. Changed
/// only through `SetListAction`s; the timing (when a cue ends) is the
/// `SetListPlayer`'s, which reports each cue it enters back as an action.
public struct SetListState: Equatable, Sendable {
    public var list = SetList()
    /// The set list file could not be read (its problem): edits stay in memory and are never written over it.
    public var fileProblem: String?
    public var panelVisible = false
    /// The cue selected in the panel (go starts there when stopped).
    public var selected = 0
    public var transport = SetListTransport.stopped
    /// The cue playing (or held), nil when stopped.
    public var current: Int?
    /// A cue asked for (go, skip or back while playing): it comes in on the next downbeat.
    public var pending: Int?
    /// Grows each time a cue must start at once (go while stopped): the player restarts its timing.
    public var starts = 0

    public init() {}

    /// The cue after the current one (or the pending one).
    public var next: Int? {
        if let pending { return pending }
        guard let c = current else { return list.cues.isEmpty ? nil : min(selected, list.cues.count - 1) }
        return c + 1 < list.cues.count ? c + 1 : nil
    }
}

/// What keys, MIDI, OSC, the remote and the set list panel ask of the set list.
public enum SetListAction: Equatable, Sendable {
    /// Stopped: plays from the selected cue now. Held: plays on. Playing: the next cue on the next downbeat.
    case go
    /// The previous cue on the next downbeat (stopped: selects the previous cue).
    case back
    /// Holds the current cue (it does not end) or plays on.
    case hold
    /// The next cue on the next downbeat (stopped: selects the next cue).
    case skip
    /// Stops the list (the look stays).
    case stop
    case togglePanel
    case select(Int)
    /// Adds the loaded preset (and the audio config in use) as a cue after the selected one.
    case addCurrent
    /// Moves cue i by `by` places (−1 up, +1 down).
    case move(Int, by: Int)
    case duplicate(Int)
    case delete(Int)
    case setLength(Int, CueLength)
    case setTransition(Int, CueTransition)
    /// The file was read at start (or reported broken: `problem`).
    case loaded(SetList, problem: String?)
    /// The player brought cue i in (its downbeat came): it is the current one now.
    case entered(Int)
    /// The last cue ended: the list stops (its look stays).
    case finished
}

/// Work for the shell after a set list action.
public enum SetListEffect: Equatable, Sendable {
    /// Write the set list file (atomically, off the frame path).
    case save(SetList)
}

/// The set list's transport commands, as MIDI targets, OSC addresses
/// (`/physarum/setlist/<name>`) and remote intents name them.
public enum SetListCommand: String, CaseIterable, Hashable, Sendable {
    case go, back, hold, skip, stop

    public var action: SetListAction {
        switch self {
        case .go: .go
        case .back: .back
        case .hold: .hold
        case .skip: .skip
        case .stop: .stop
        }
    }

    /// "Set list: go".
    public var label: String { "Set list: \(rawValue)" }
}
