import AudioReactive

/// An input of the live session: keys and panels, the remote host and the
/// remote editor, MIDI and OSC, tempo, the live set's timers, audio and file
/// replies. Each tick the session drains its sources in the order they were
/// registered, before the pipeline runs; a source posts actions to the inbox
/// (never writing a model itself) and may fill in what it knows of the
/// frame's inputs (features, tempo, brightness, render size). Main thread
/// only, like the session.
public protocol ActionSource: AnyObject {
    /// Posts this tick's actions to `inbox` and sets the parts of `inputs` this source owns.
    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox)
}

/// An output of the live session that reads the models and the frame after
/// the pipeline ran: MIDI and OSC feedback, the remote state, speech, the
/// stats and state writers, autosave, video out. Called in registration
/// order, after every output of the pipeline. A feedback never applies an
/// action: one that has something to say (a notice) is also an
/// `ActionSource` and posts it at the next tick's drain.
public protocol FrameFeedback: AnyObject {
    /// The tick's finished frame.
    func frameDone(_ report: FrameReport)
}

/// Where sources post their actions: each one is applied at once through
/// the session's dispatcher (its effects included), so a later action, and
/// a later source, sees the model as the earlier ones left it — a 14-bit
/// MIDI pair's LSB after its MSB, a remote that connects and leaves within
/// one frame. Valid only during `ActionSource.drain`.
public struct ActionInbox {
    let dispatcher: ActionDispatcher

    /// The model as it is after the actions posted so far.
    public var model: AppModel { dispatcher.model }

    /// Applies `action` (it may be kept for the beat: quantised mutate/randomize).
    public func post(_ action: AppAction) { dispatcher.apply(action) }

    /// Applies each action in order.
    public func post(_ actions: [AppAction]) { dispatcher.apply(actions) }

    /// Applies an action that was kept for its beat (it is not kept again).
    public func postDue(_ action: AppAction) { dispatcher.applyNow(action) }
}

/// What a tick hands the pipeline besides the base parameters. Starts at
/// rest (silence, no tempo, full brightness, the current render size) and
/// is filled in by the sources that own each part.
public struct TickInputs {
    /// The tick being made.
    public let tick: FrameTick
    /// The features as heard this frame (the frame rule's result).
    public var heard: AudioFeatures = .silent
    /// The features the modulation uses (`heard`, behind by the visual offset).
    public var features: AudioFeatures = .silent
    /// Whether sound drives the modulation now (nil: no audio; the modulator stays as it is).
    public var audioDriving: Bool?
    /// This frame's tempo (Link, MIDI clock, the beat tracker or tap).
    public var tempo = TempoReading()
    /// The Link session this frame, while joined (the live controls make it the tempo).
    public var link: LinkReading?
    /// Output brightness 0…1 (auto-cycle fades, blackout).
    public var brightness = 1.0
    /// Render size; nil keeps the current one.
    public var outputSize: (width: Int, height: Int)?

    public init(tick: FrameTick) { self.tick = tick }
}

/// What one tick did, handed to every feedback.
public struct FrameReport {
    /// What the sources set for the frame.
    public let inputs: TickInputs
    /// What the pipeline did (tick, effective parameters, steps, resolution factor).
    public let frame: FramePipeline.Frame
    /// The app's state after the tick's actions.
    public let model: AppModel
    /// Milliseconds of the tick's phases: draining the sources, simulating,
    /// rendering, delivering to the outputs (the window presents there).
    public let timing: Timing

    public struct Timing: Sendable {
        public var drain = 0.0
        public var simulate = 0.0
        public var render = 0.0
        public var deliver = 0.0
        /// From the start of the drain to the end of delivery.
        public var total: Double { drain + simulate + render + deliver }
    }

    /// The tick.
    public var tick: FrameTick { inputs.tick }
}
