/// What the auto-cycle reads from the app model each frame (`AppModel.cycleInput`).
public struct CycleInput: Equatable, Sendable {
    /// Cycling is on (space toggles it).
    public var enabled: Bool
    /// Blackout is on (B): the output fades to black and stays black.
    public var blackout: Bool
    /// Every preset id in play order.
    public var order: [String]
    /// The ids the cycle may switch to (the pinned ones, or all).
    public var eligible: Set<String>
    /// The loaded preset.
    public var current: String?
    public var settings: CycleSettings
    /// Tempo sync: switch every `sync.bars` bars on the downbeat (when > 0 and a tempo is locked).
    public var sync = TempoSyncSettings()
    /// The locked tempo's beat position this frame (nil: no tempo, timed by `settings`).
    public var beat: Double?
    /// The locked tempo in BPM (for `untilNext`).
    public var bpm = 0.0
    /// Beats in a bar (4; Link's quantum while joined).
    public var beatsPerBar = 4.0
}

/// The auto-cycle's answer for one frame.
public struct CycleOutput: Equatable, Sendable {
    /// Output brightness 0…1 (cycle fade × blackout); the renderer multiplies the frame by it.
    public var alpha: Double
    /// Load this preset now (sent at the black point of a fade).
    public var switchTo: String?
    /// Where the cycle is.
    public var phase: AutoCycle.Phase
    /// Seconds until the next fade starts; nil when the cycle will not switch.
    public var untilNext: Double?

    /// A value with these members (defaults as declared).
    public init(alpha: Double, switchTo: String? = nil, phase: AutoCycle.Phase, untilNext: Double? = nil) {
        self.alpha = alpha
        self.switchTo = switchTo
        self.phase = phase
        self.untilNext = untilNext
    }
}

/// Hands-off cycling through presets — show for `dwell`, fade to black,
/// switch at the black point, hold, fade in — and the blackout fade.
/// A pure state machine driven by `tick(dt:input:)`; deterministic for a
/// given sequence of ticks. A manual preset change restarts the dwell (and
/// cancels a fade in progress). Owned by the frame loop (main thread).
public struct AutoCycle: Equatable, Sendable {
    /// The cycle's phase.
    public enum Phase: Equatable, Sendable {
        case showing, fadingOut, holding, fadingIn
    }

    public private(set) var phase = Phase.showing
    /// Seconds spent in the current fade or hold.
    public private(set) var phaseTime = 0.0
    /// Seconds the current preset has been showing (counts toward the dwell).
    public private(set) var shown = 0.0
    /// Cycle fade level 0…1 (linear; the output is eased).
    public private(set) var level = 1.0
    /// Blackout fade level 0…1 (linear).
    public private(set) var blackoutLevel = 1.0
    /// The preset seen last tick (a different one means someone else switched).
    private var lastSeen: String?
    private var started = false
    /// A switch asked for from outside (a remote's pushed look): fade out now,
    /// even with cycling off, and switch to it at the black point.
    public private(set) var requested: String?
    /// Tempo sync: the beat of the next switch and of the last one.
    public private(set) var nextSwitchBeat: Double?
    private var lastSwitchBeat: Double?

    public init() {}

    /// Fades out from wherever the output is and switches to `id` at the black point.
    public mutating func request(_ id: String) { requested = id }

    /// Advances by `dt` seconds (negative or non-finite counts as 0).
    public mutating func tick(dt rawDT: Double, input: CycleInput) -> CycleOutput {
        let dt = rawDT.isFinite ? max(rawDT, 0) : 0
        let s = input.settings
        // Blackout fades toward its target at a constant rate.
        let target = input.blackout ? 0.0 : 1.0
        let step = s.blackoutFade > 0 ? dt / s.blackoutFade : 1
        blackoutLevel = target < blackoutLevel ? max(target, blackoutLevel - step) : min(target, blackoutLevel + step)

        if !started {
            started = true
            lastSeen = input.current
        }
        if input.current != lastSeen {
            // A manual switch: a fresh dwell; a fade in progress returns.
            lastSeen = input.current
            shown = 0
            requested = nil  // someone switched by hand: that wins
            if phase == .fadingOut || phase == .holding { beginFadeIn(s) }
        }
        var switchTo: String?
        if !input.enabled {
            shown = 0
            if requested == nil, phase == .fadingOut || phase == .holding { beginFadeIn(s) }
        }
        if input.enabled, requested == nil, input.sync.bars > 0, let beat = input.beat {
            return syncedTick(beat: beat, input: input)
        }
        if nextSwitchBeat != nil {
            // The tempo was lost or sync turned off: back to timed cycling from here.
            nextSwitchBeat = nil
            lastSwitchBeat = nil
            if phase != .showing { beginFadeIn(s) }
        }
        if requested != nil, phase == .showing || phase == .fadingIn {
            // Fade out from the present brightness (no jump).
            phase = .fadingOut
            phaseTime = (1 - level) * s.fadeOut
        }
        var left = dt
        while left > 0 {
            switch phase {
            case .showing:
                level = 1
                guard input.enabled, switchTo == nil, next(input) != nil else {
                    if input.enabled { shown += left }
                    left = 0
                    continue
                }
                if Self.spend(&left, &shown, length: s.dwell) { enter(.fadingOut) }
            case .fadingOut:
                if Self.spend(&left, &phaseTime, length: s.fadeOut) {
                    level = 0
                    // Choose at the black point, so pins changed during the fade count.
                    switchTo = requested ?? next(input)
                    requested = nil
                    if let id = switchTo { lastSeen = id }
                    enter(.holding)
                } else {
                    level = 1 - phaseTime / s.fadeOut
                }
            case .holding:
                level = 0
                if Self.spend(&left, &phaseTime, length: s.hold) { enter(.fadingIn) }
            case .fadingIn:
                if Self.spend(&left, &phaseTime, length: s.fadeIn) {
                    level = 1
                    phase = .showing
                    shown = 0
                } else {
                    level = phaseTime / s.fadeIn
                }
            }
        }
        if dt == 0, phase == .showing { level = 1 }
        var until: Double?
        if input.enabled, phase == .showing, next(input) != nil { until = max(s.dwell - shown, 0) }
        return CycleOutput(alpha: Self.ease(level) * Self.ease(blackoutLevel), switchTo: switchTo, phase: phase, untilNext: until)
    }

    /// One frame of tempo-synced cycling: the switch (black point) falls on
    /// the first frame at or after every `beatsPerBar × bars`-th beat (beats counted
    /// from the tempo source's origin, so the switches sit on downbeats), the
    /// fade out takes the `fadeBeats` before it and the fade in the
    /// `fadeBeats` after it (no hold). A switch closer than one fade when sync
    /// starts is skipped (no jump in brightness); a source that restarts
    /// (MIDI Start) moves the grid with it.
    private mutating func syncedTick(beat: Double, input: CycleInput) -> CycleOutput {
        let period = max(input.beatsPerBar, 1) * Double(input.sync.bars), fade = max(input.sync.fadeBeats, 0)
        func firstAfter(_ b: Double) -> Double { ((b / period + 1e-9).rounded(.down) + 1) * period }
        if nextSwitchBeat == nil {
            var n = firstAfter(beat)
            if n - beat < fade { n += period }
            nextSwitchBeat = n
        } else if let n = nextSwitchBeat, n - beat > period + 1e-9 {
            nextSwitchBeat = firstAfter(beat)
            lastSwitchBeat = nil
        }
        var target = nextSwitchBeat!
        var switchTo: String?
        if beat >= target, let id = next(input) {
            switchTo = id
            lastSeen = id
            shown = 0
            lastSwitchBeat = target
            while target <= beat { target += period }
            nextSwitchBeat = target
        } else if beat >= target {
            while target <= beat { target += period }  // nothing to switch to: keep the grid
            nextSwitchBeat = target
        }
        if fade > 0, target - beat <= fade, next(input) != nil {
            phase = .fadingOut
            level = min(max((target - beat) / fade, 0), 1)
        } else if fade > 0, let last = lastSwitchBeat, beat - last < fade {
            phase = .fadingIn
            level = min(max((beat - last) / fade, 0), 1)
        } else {
            phase = .showing
            level = 1
        }
        phaseTime = 0
        let until = input.bpm > 0 && next(input) != nil ? max(target - fade - beat, 0) * 60 / input.bpm : nil
        return CycleOutput(alpha: Self.ease(level) * Self.ease(blackoutLevel), switchTo: switchTo, phase: phase, untilNext: until)
    }

    /// Spends time of `left` on a phase of `length` that has run for `elapsed`: true when the phase
    /// ends within `left` (what it needed is taken, the rest stays in `left`), else all of `left` is spent.
    private static func spend(_ left: inout Double, _ elapsed: inout Double, length: Double) -> Bool {
        let need = max(length - elapsed, 0)
        if left < need {
            elapsed += left
            left = 0
            return false
        }
        left -= need
        elapsed = length
        return true
    }

    /// The eligible preset after the current one in play order (wrapping), other than the current one.
    public func next(_ input: CycleInput) -> String? {
        let n = input.order.count
        guard n > 0 else { return nil }
        let start = input.current.flatMap { input.order.firstIndex(of: $0) } ?? -1
        for k in 1...n {
            let id = input.order[((start + k) % n + n) % n]
            if id != input.current && input.eligible.contains(id) { return id }
        }
        return nil
    }

    /// Starts fading in from the current level (no jump in brightness).
    /// Starts `next` from its beginning.
    private mutating func enter(_ next: Phase) {
        phase = next
        phaseTime = 0
    }

    private mutating func beginFadeIn(_ s: CycleSettings) {
        phase = .fadingIn
        phaseTime = level * s.fadeIn
        if s.fadeIn <= 0 {
            phase = .showing
            level = 1
        }
    }

    /// Smoothstep: fades start and end softly.
    public static func ease(_ x: Double) -> Double {
        let t = min(max(x, 0), 1)
        return t * t * (3 - 2 * t)
    }
}
