import Engine
import TestSupport
import Testing
@testable import LiveCore

@Suite struct GovernorTests {
    /// Feeds `seconds` of frames of `ms` each, starting at `t`; returns the end time.
    @discardableResult
    static func run(_ g: inout Governor, ms: Double, seconds: Double, from t: Double) -> Double {
        var now = t
        while now < t + seconds {
            g.update(frameMs: ms, now: now)
            now += ms / 1000
        }
        return now
    }

    @Test func lowersInOrderWhileOverBudgetAndStopsWhenItFits() {
        var g = Governor()
        var t = Self.run(&g, ms: 10, seconds: 2, from: 0)
        #expect(!g.isLowered, "within budget nothing changes")
        t = Self.run(&g, ms: 40, seconds: 1.5, from: t)
        #expect(g.agentLevel >= 1, "agents go first")
        #expect(g.resolutionLevel == 0 && g.effectLevel == 0)
        // Keep it slow until agents are exhausted: then resolution, then effects.
        t = Self.run(&g, ms: 40, seconds: 12, from: t)
        #expect(g.agentLevel == Governor.agentSteps.count - 1)
        #expect(g.resolutionLevel > 0)
        // Now it fits comfortably but not with headroom to spare: it holds.
        let held = g
        t = Self.run(&g, ms: 14, seconds: 10, from: t)
        #expect(g == held || g.agentLevel == held.agentLevel, "no oscillation inside the band")
        _ = t
    }

    @Test func farOverBudgetItLowersFasterThanJustOver() {
        var far = Governor(), near = Governor()
        Self.run(&far, ms: 50, seconds: 2, from: 0)  // 3× the budget: a heavy preset just loaded
        Self.run(&near, ms: 19, seconds: 1.8, from: 0)  // just over it
        #expect(far.agentLevel >= 4, "far over budget: \(far.summary)")
        #expect(near.agentLevel >= 1 && near.agentLevel <= 2, "just over budget, one careful step at a time: \(near.summary)")
    }

    @Test func theSpikeRightAfterAChangeDoesNotLowerAgain() {
        var g = Governor()
        var t = 0.0
        while !g.update(frameMs: 30, now: t) { t += 0.03 }  // slow frames until it lowers once
        let level = g.agentLevel
        #expect(level == 1)
        // The change costs two slow frames (respawn, new buffers), then frames fit.
        g.update(frameMs: 120, now: t + 0.03)
        g.update(frameMs: 90, now: t + 0.15)
        Self.run(&g, ms: 15, seconds: 5, from: t + 0.24)
        #expect(g.agentLevel == level, "\(g.summary)")
    }

    @Test func restoresInReverseOrderWithHeadroom() {
        var g = Governor()
        var t = Self.run(&g, ms: 40, seconds: 15, from: 0)
        #expect(g.resolutionLevel > 0)
        t = Self.run(&g, ms: 5, seconds: 4, from: t)
        #expect(g.agentLevel == Governor.agentSteps.count - 1, "the last lowered knob (resolution) is restored first")
        t = Self.run(&g, ms: 5, seconds: 60, from: t)
        #expect(!g.isLowered)
        #expect(g.summary == "full quality")
    }

    @Test func onlyAllowedKnobsMove() {
        var g = Governor()
        g.allowed = [.effects]
        Self.run(&g, ms: 50, seconds: 10, from: 0)
        #expect(g.agentLevel == 0 && g.resolutionLevel == 0)
        #expect(g.effectLevel == Governor.effectSteps - 1)
        var p = PresetParams()
        p[.bloom] = 1
        p[.headGlow] = 2
        let q = g.adjust(p)
        #expect(q[.bloom] == 0 && q[.headGlow] == 0 && q[.agents] == p[.agents])
    }

    @Test func disabledGovernorNeverActs() {
        var g = Governor()
        g.enabled = false
        Self.run(&g, ms: 100, seconds: 10, from: 0)
        #expect(!g.isLowered)
        var p = PresetParams()
        p[.agents] = 4_000_000
        #expect(g.adjust(p) == p)
    }

    @Test func agentFactorScalesTheEffectiveAgentsOnly() {
        var g = Governor()
        Self.run(&g, ms: 40, seconds: 1.2, from: 0)
        var p = PresetParams()
        p[.agents] = 4_000_000
        let q = g.adjust(p)
        #expect(q[.agents] == (4_000_000 * g.agentFactor).rounded())
        #expect(p[.agents] == 4_000_000, "the base is untouched")
    }
}
