/// The auto-cycle and blackout as a session source: each tick it advances
/// the `AutoCycle` with the model's playlist settings and the tick's tempo,
/// posts the preset switch at the black point of a fade, and sets the
/// frame's brightness. The window (inside its live set) and the headless
/// host register the same type. Main thread only.
public final class AutoCycleSource: ActionSource {
    /// The cycle's state (a windowed host's pushed look requests its fade here).
    public var cycle = AutoCycle()
    /// This tick's output (the live-set panel shows the phase and the time left).
    public private(set) var output = CycleOutput(alpha: 1, switchTo: nil, phase: .showing, untilNext: nil)

    public init() {}

    public func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        if let a = advance(dt: inputs.tick.dt, model: inbox.model, tempo: inputs.tempo) { inbox.post(a) }
        inputs.brightness *= output.alpha
    }

    /// Advances the cycle by `dt` seconds; returns the preset switch due now, if any.
    public func advance(dt: Double, model: AppModel, tempo: TempoReading = TempoReading()) -> AppAction? {
        output = cycle.tick(dt: dt, input: model.cycleInput(tempo: tempo))
        return output.switchTo.map { .jumpTo($0) }
    }

    /// A preset asked for through a fade (a pushed look) is still on its way.
    public var fadePending: Bool { cycle.requested != nil }
}

/// Says when a periodic writer is due: once per `interval` seconds of the
/// frame clock (the `--stats` line every second, the `--state-file` every
/// `--state-interval`). The first tick in a new slot is due.
public struct Cadence: Sendable {
    public let interval: Double
    private var lastSlot: Int

    /// `skipFirst`: the slot of time 0 is not due (the stats line comes after a whole second).
    public init(every interval: Double, skipFirst: Bool = false) {
        precondition(interval > 0, "interval must be positive")
        self.interval = interval
        lastSlot = skipFirst ? 0 : -1
    }

    /// True once per slot: when `time` entered a slot after the last due one.
    public mutating func due(at time: Double) -> Bool {
        let slot = Int((time / interval).rounded(.down))
        guard slot > lastSlot else { return false }
        lastSlot = slot
        return true
    }
}
