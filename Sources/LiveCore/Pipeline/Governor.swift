import Engine

/// Keeps the frame rate when the machine cannot: when the smoothed frame time
/// stays above budget it lowers, one step at a time and in this order, the
/// agent count, the render resolution and the effect quality; when there is
/// clear headroom for a while it gives the last step back. Pure: the loop
/// feeds it frame times and applies `adjust` to the effective parameters.
public struct Governor: Sendable, Equatable {
    /// What the governor may lower.
    public enum Knob: String, CaseIterable, Sendable {
        case agents, resolution, effects
    }

    /// Agent count factors, step by step.
    public static let agentSteps: [Double] = [1, 0.75, 0.55, 0.4, 0.3, 0.22, 0.16, 0.12]
    /// Render resolution factors (per side).
    public static let resolutionSteps: [Double] = [1, 0.85, 0.7, 0.55]
    /// Effect quality: 0 full, 1 no head glow / feedback, 2 also no bloom.
    public static let effectSteps = 3

    public var enabled = true

    public init() {}
    /// Frame-time budget in ms (60 fps ≈ 16.7).
    public var budgetMs = 1000.0 / 60
    public var allowed: Set<Knob> = Set(Knob.allCases)
    public private(set) var agentLevel = 0
    public private(set) var resolutionLevel = 0
    public private(set) var effectLevel = 0
    /// Lowered knobs, most recent last (restored in reverse order).
    private var lowered: [Knob] = []
    private var smoothed: Double?
    private var smoothedWork: Double?
    private var overSince: Double?
    private var underSince: Double?
    private var lastChange = -Double.infinity

    /// Seconds above budget before lowering; seconds with headroom before restoring.
    public static let lowerAfter = 0.5, restoreAfter = 3.0, cooldown = 0.75
    /// Headroom needed to restore a step (fraction of budget).
    public static let restoreBelow = 0.6, lowerAbove = 1.08
    /// Far over budget (a heavy preset just loaded), steps come faster: over
    /// this fraction of the budget, lower after `fastAfter` s, `fastCooldown` s apart.
    public static let farAbove = 1.5, fastAfter = 0.2, fastCooldown = 0.3
    /// Seconds after a change whose frames are not measured.
    public static let settle = 0.25

    public var agentFactor: Double { Self.agentSteps[agentLevel] }
    public var resolutionFactor: Double { Self.resolutionSteps[resolutionLevel] }
    public var isLowered: Bool { !lowered.isEmpty }

    /// Feeds one frame at time `now` (s): its total time (ms) and the part spent
    /// working rather than waiting for vsync (defaults to the total). Lowering
    /// looks at the total, restoring at the work. Returns true when a level changed.
    @discardableResult
    public mutating func update(frameMs: Double, workMs: Double? = nil, now: Double) -> Bool {
        guard enabled, frameMs.isFinite, frameMs > 0 else { return false }
        // Just after a change the frames pay for it (agents respawn, a new
        // render size allocates and rebuilds its maps): those spikes say
        // nothing about the new setting and would make it overshoot.
        guard now - lastChange >= Self.settle else { return false }
        let w = min(workMs ?? frameMs, frameMs)
        let s = smoothed.map { $0 * 0.9 + frameMs * 0.1 } ?? frameMs
        smoothed = s
        let sw = smoothedWork.map { $0 * 0.9 + w * 0.1 } ?? w
        smoothedWork = sw
        if s > budgetMs * Self.lowerAbove {
            underSince = nil
            if overSince == nil { overSince = now }
            let far = s > budgetMs * Self.farAbove
            if now - overSince! >= (far ? Self.fastAfter : Self.lowerAfter),
               now - lastChange >= (far ? Self.fastCooldown : Self.cooldown), lowerOne() {
                lastChange = now
                overSince = nil
                smoothed = nil  // measure the new setting afresh
                smoothedWork = nil
                return true
            }
        } else if sw < budgetMs * Self.restoreBelow, isLowered {
            overSince = nil
            if underSince == nil { underSince = now }
            if now - underSince! >= Self.restoreAfter, now - lastChange >= Self.cooldown {
                restoreOne()
                lastChange = now
                underSince = nil
                smoothed = nil
                smoothedWork = nil
                return true
            }
        } else {
            overSince = nil
            underSince = nil
        }
        return false
    }

    private mutating func lowerOne() -> Bool {
        for k in Knob.allCases where allowed.contains(k) {
            switch k {
            case .agents where agentLevel < Self.agentSteps.count - 1: agentLevel += 1
            case .resolution where resolutionLevel < Self.resolutionSteps.count - 1: resolutionLevel += 1
            case .effects where effectLevel < Self.effectSteps - 1: effectLevel += 1
            default: continue
            }
            lowered.append(k)
            return true
        }
        return false
    }

    private mutating func restoreOne() {
        guard let k = lowered.popLast() else { return }
        switch k {
        case .agents: agentLevel -= 1
        case .resolution: resolutionLevel -= 1
        case .effects: effectLevel -= 1
        }
    }

    /// The effective parameters with the governor's reductions applied.
    public func adjust(_ p: PresetParams) -> PresetParams {
        guard isLowered else { return p }
        var q = p
        if agentLevel > 0 { q[.agents] = (p[.agents] * agentFactor).rounded() }
        if effectLevel >= 1 {
            q[.headGlow] = 0
            q[.feedback] = 0
        }
        if effectLevel >= 2 { q[.bloom] = 0 }
        return q
    }

    /// A short description for the overlay and stats ("agents ×0.55, resolution ×0.85").
    public var summary: String {
        var parts: [String] = []
        if agentLevel > 0 { parts.append("agents ×\(agentFactor)") }
        if resolutionLevel > 0 { parts.append("resolution ×\(resolutionFactor)") }
        if effectLevel > 0 { parts.append(effectLevel == 1 ? "no glow/feedback" : "no glow/feedback/bloom") }
        return parts.isEmpty ? "full quality" : parts.joined(separator: ", ")
    }
}
