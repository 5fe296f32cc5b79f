import Engine

/// Keeps the frame rate when the machine cannot, without hunting.
///
/// Quality is a ladder of levels (`ladder`): the render resolution and the
/// effects go first, the agent count last, and no level below `notifyBelow`
/// (half the agents) is taken without a decision that carries a notice for
/// the user. The governor measures each frame's work (simulation, render,
/// the rest; the wait for vsync excluded) and, from that headroom, predicts
/// the work of every level (the simulation scales with the agents, the
/// render with the output pixels and the effects, the rest stays), so one
/// decision can go down as many levels as the overload needs:
///
/// - **Lower** when the smoothed work stays above `lowerAbove` × budget for
///   `lowerAfter` s (or above `farAbove` × budget for `fastAfter` s): to the
///   first level predicted to fit in `target` × budget.
/// - **Raise** one level when the level above is predicted to fit in
///   `raiseBelow` × budget for the hold time (`raiseAfter` s, doubled each
///   time a raise had to be taken back within `bounceWindow` s, up to
///   `maxRaiseAfter`): a level that did not hold is not retried every few
///   seconds.
/// - At most one change every `minInterval` s (`fastInterval` when far over
///   budget); the frames of the first `warmup` s and of the first `settle` s
///   after a change (respawns, new buffers) are not measured; a decision
///   goes below half the agents only from a level measured at half or more.
///
/// Pure: the loop feeds it frame times and applies `adjust` to the
/// effective parameters and `resolutionFactor` to the render size; tests
/// drive it with synthetic frame times.
public struct Governor: Sendable, Equatable {
    /// One level of quality.
    public struct Level: Sendable, Equatable {
        /// Render resolution factor (per side).
        public var resolution: Double
        /// 0 full, 1 no head glow or feedback, 2 also no bloom.
        public var effects: Int
        /// Agent count factor.
        public var agents: Double
    }

    /// The quality levels, best first: every step of resolution and effects
    /// before the first cut of agents.
    public static let ladder: [Level] = [
        Level(resolution: 1, effects: 0, agents: 1),
        Level(resolution: 0.85, effects: 0, agents: 1),
        Level(resolution: 0.85, effects: 1, agents: 1),
        Level(resolution: 0.7, effects: 1, agents: 1),
        Level(resolution: 0.7, effects: 2, agents: 1),
        Level(resolution: 0.55, effects: 2, agents: 1),
        Level(resolution: 0.55, effects: 2, agents: 0.75),
        Level(resolution: 0.55, effects: 2, agents: 0.5),
        Level(resolution: 0.55, effects: 2, agents: 0.35),
        Level(resolution: 0.55, effects: 2, agents: 0.25),
        Level(resolution: 0.55, effects: 2, agents: 0.16),
        Level(resolution: 0.55, effects: 2, agents: 0.12),
    ]
    /// Below this agent factor a decision carries a notice.
    public static let notifyBelow = 0.5
    /// Render cost of each effect level relative to full effects (bloom is
    /// the dear one; head glow and feedback cost little).
    public static let effectCost = [1.0, 0.92, 0.75]

    /// Smoothed work above this share of the budget lowers…
    public static let lowerAbove = 0.95
    /// …after this many seconds; far over budget (a heavy preset just
    /// loaded), after `fastAfter`.
    public static let lowerAfter = 1.0, farAbove = 1.5, fastAfter = 0.3
    /// A lowering aims for this share of the budget.
    public static let target = 0.8
    /// The level above is taken back when predicted under this share…
    public static let raiseBelow = 0.7
    /// …for this long (doubling after each bounce, up to `maxRaiseAfter`).
    public static let raiseAfter = 4.0, maxRaiseAfter = 64.0, bounceWindow = 15.0
    /// Least time between two changes (far over budget: `fastInterval`).
    public static let minInterval = 3.0, fastInterval = 1.0
    /// Seconds after a change whose frames are not measured.
    public static let settle = 0.5
    /// Seconds from the first frame that are not measured (start-up:
    /// shaders, buffers and maps are made, the field fills).
    public static let warmup = 2.0
    /// Smoothing time constant of the measurements, seconds.
    public static let smoothing = 0.5

    /// One frame's measurement, in milliseconds.
    public struct Sample: Sendable, Equatable {
        /// The frame's work: its time minus the wait for vsync.
        public var work: Double
        /// Of that, the simulation steps and the render (post chain).
        public var sim: Double, render: Double

        public init(work: Double, sim: Double = 0, render: Double = 0) {
            self.work = work
            self.sim = sim
            self.render = render
        }
    }

    /// A change of level and why it was made.
    public struct Decision: Sendable, Equatable {
        public var time: Double
        public var from: Int, to: Int
        /// The smoothed work and the budget that led to it (ms).
        public var workMs: Double, budgetMs: Double
        /// Set when the new level cuts agents below `notifyBelow` (and the old did not).
        public var notice: String?

        /// "12.5 s: level 0 -> 2 (work 19.1 ms, budget 16.7 ms)".
        public var summary: String {
            func f(_ v: Double) -> String { String(Double(Int((v * 10).rounded())) / 10) }
            return "\(f(time)) s: level \(from) -> \(to) (work \(f(workMs)) ms, budget \(f(budgetMs)) ms)"
        }
    }

    public var enabled = true
    /// Frame-time budget in ms (60 fps ≈ 16.7).
    public var budgetMs = 1000.0 / 60
    /// The level in force (index into `ladder`).
    public private(set) var level = 0
    /// Changes of level so far.
    public private(set) var changes = 0
    /// The last decision.
    public private(set) var lastDecision: Decision?
    private var smoothed: Sample?
    private var lastTime: Double?
    private var firstTime: Double?
    private var overSince: Double?
    private var underSince: Double?
    private var lastChange = -Double.infinity
    private var lastRaise = -Double.infinity
    private var holdRaise = Governor.raiseAfter

    public init() {}

    public var current: Level { Self.ladder[level] }
    public var agentFactor: Double { current.agents }
    public var resolutionFactor: Double { current.resolution }
    public var effectLevel: Int { current.effects }
    public var isLowered: Bool { level > 0 }

    /// The smoothed work of the current level (ms; nil before a measurement).
    public var smoothedWorkMs: Double? { smoothed?.work }

    /// Work of a level relative to the one above it, when the frames come
    /// without a split into simulation and render.
    public static let rungCost = 0.85

    /// Predicted work (ms) of level `l` from the smoothed measurement of the current one.
    public func predictedWork(_ l: Int) -> Double? {
        guard let s = smoothed else { return nil }
        let a = current, b = Self.ladder[l]
        let sim = max(0, s.sim), render = max(0, s.render)
        if sim + render <= 0 {
            var f = 1.0
            for _ in 0..<abs(l - level) { f *= Self.rungCost }
            return l > level ? s.work * f : s.work / f
        }
        let rest = max(0, s.work - sim - render)
        let renderScale = (b.resolution * b.resolution * Self.effectCost[b.effects])
            / (a.resolution * a.resolution * Self.effectCost[a.effects])
        return sim * b.agents / a.agents + render * renderScale + rest
    }

    /// Feeds one frame at time `now` (s). Returns the decision when the level changed.
    @discardableResult
    public mutating func update(_ sample: Sample, now: Double) -> Decision? {
        guard enabled, sample.work.isFinite, sample.work > 0 else { return nil }
        defer { lastTime = now }
        if firstTime == nil { firstTime = now }
        guard now - lastChange >= Self.settle, now - firstTime! >= Self.warmup else { return nil }
        let dt = lastTime.map { min(max(now - $0, 0), 0.25) } ?? 0
        let a = smoothed == nil ? 1 : min(1, dt / Self.smoothing)
        var s = smoothed ?? sample
        s.work += a * (sample.work - s.work)
        s.sim += a * (sample.sim - s.sim)
        s.render += a * (sample.render - s.render)
        smoothed = s
        if s.work > budgetMs * Self.lowerAbove {
            underSince = nil
            if overSince == nil { overSince = now }
            let far = s.work > budgetMs * Self.farAbove
            guard level < Self.ladder.count - 1, now - overSince! >= (far ? Self.fastAfter : Self.lowerAfter),
                  now - lastChange >= (far ? Self.fastInterval : Self.minInterval) else { return nil }
            var to = level + 1
            while to < Self.ladder.count - 1, let w = predictedWork(to), w > budgetMs * Self.target { to += 1 }
            // Below half the agents only from a level measured at half or more.
            if Self.ladder[to].agents < Self.notifyBelow, current.agents > Self.notifyBelow,
               let half = Self.ladder.lastIndex(where: { $0.agents >= Self.notifyBelow }), half > level {
                to = half
            }
            if now - lastRaise < Self.bounceWindow { holdRaise = min(Self.maxRaiseAfter, holdRaise * 2) }
            return change(to: to, now: now, work: s.work)
        }
        overSince = nil
        guard level > 0, let w = predictedWork(level - 1), w < budgetMs * Self.raiseBelow else {
            underSince = nil
            return nil
        }
        if underSince == nil { underSince = now }
        guard now - underSince! >= holdRaise, now - lastChange >= Self.minInterval else { return nil }
        lastRaise = now
        return change(to: level - 1, now: now, work: s.work)
    }

    /// Feeds one frame of `frameMs` of which `workMs` was work (the rest
    /// waiting for vsync), with no split (levels predicted by `rungCost`).
    @discardableResult
    public mutating func update(frameMs: Double, workMs: Double? = nil, now: Double) -> Decision? {
        update(Sample(work: min(workMs ?? frameMs, frameMs)), now: now)
    }

    private mutating func change(to new: Int, now: Double, work: Double) -> Decision {
        let old = level
        level = new
        changes += 1
        lastChange = now
        overSince = nil
        underSince = nil
        smoothed = nil
        var d = Decision(time: now, from: old, to: new, workMs: work, budgetMs: budgetMs)
        if Self.ladder[new].agents < Self.notifyBelow && Self.ladder[old].agents >= Self.notifyBelow {
            d.notice = "Frames take \(Int(work.rounded())) ms of a \(Int(budgetMs.rounded())) ms budget: the governor "
                + "runs \(percent(Self.ladder[new].agents)) of the agents (and \(summary)); fewer agents in the preset, "
                + "a smaller window or --no-governor change that"
        }
        lastDecision = d
        return d
    }

    private func percent(_ f: Double) -> String { "\(Int((f * 100).rounded())) %" }

    /// The effective parameters with the level's reductions applied.
    public func adjust(_ p: PresetParams) -> PresetParams {
        guard isLowered else { return p }
        var q = p
        let l = current
        if l.agents < 1 { q[.agents] = (p[.agents] * l.agents).rounded() }
        if l.effects >= 1 {
            q[.headGlow] = 0
            q[.feedback] = 0
        }
        if l.effects >= 2 { q[.bloom] = 0 }
        return q
    }

    /// A short description for the overlay and stats ("agents ×0.75, resolution ×0.7, no glow/feedback/bloom").
    public var summary: String {
        let l = current
        var parts: [String] = []
        if l.agents < 1 { parts.append("agents ×\(l.agents)") }
        if l.resolution < 1 { parts.append("resolution ×\(l.resolution)") }
        if l.effects > 0 { parts.append(l.effects == 1 ? "no glow/feedback" : "no glow/feedback/bloom") }
        return parts.isEmpty ? "full quality" : parts.joined(separator: ", ")
    }
}
