import Engine
import TestSupport
import Testing
@testable import LiveCore

/// Auto-cycle and blackout, driven through the action layer and `tick`
/// exactly as the frame loop does (60 frames a second, deterministic).
@Suite struct AutoCycleTests {
    struct Trace {
        var alpha: [Double] = []
        var switches: [(frame: Int, id: String)] = []
    }

    /// Runs `seconds` of frames; applies switches through the model like the loop.
    static func run(_ m: inout AppModel, _ c: inout AutoCycle, seconds: Double, fps: Double = 60) -> Trace {
        var t = Trace()
        for f in 0..<Int((seconds * fps).rounded()) {
            let out = c.tick(dt: 1 / fps, input: m.cycleInput)
            t.alpha.append(out.alpha)
            if let id = out.switchTo {
                t.switches.append((f, id))
                m.run(.jumpTo(id))
            }
        }
        return t
    }

    func model(pins: [String]) -> AppModel {
        var m = AppModel(library: LibraryModel(factory: testFactory))
        for p in pins { m.run(.library(.togglePin(p))) }
        return m
    }

    @Test func advancesAfterTheDwellWithFadeHoldAndFadeInSkippingUnpinned() throws {
        var m = model(pins: ["amber-drift", "cellar"])
        var c = AutoCycle()
        m.run(.live(.setDwell(10)), .togglePlaylist)
        #expect(m.currentPreset?.id == "amber-drift")
        let s = m.live.cycle
        let t = Self.run(&m, &c, seconds: 10 + s.fadeOut + s.hold + s.fadeIn + 1)
        // Full brightness for the whole dwell.
        #expect(t.alpha.prefix(599).allSatisfy { $0 == 1 })
        // One switch, at the black point, to the next *pinned* preset (blue-storm is skipped).
        #expect(t.switches.count == 1)
        let sw = try #require(t.switches.first)
        #expect(sw.id == "cellar" && m.currentPreset?.id == "cellar")
        #expect(abs(sw.frame - (Int((10 + s.fadeOut) * 60) - 1)) <= 1)
        // Fade out: strictly falling to 0 exactly at the switch.
        let fade = t.alpha[600...sw.frame]
        #expect(zip(fade, fade.dropFirst()).allSatisfy { $0 > $1 })
        #expect(t.alpha[sw.frame] == 0)
        // Hold: black.
        let holdEnd = sw.frame + Int(s.hold * 60)
        #expect(t.alpha[sw.frame..<holdEnd].allSatisfy { $0 == 0 })
        // Fade in: rising back to 1, then full brightness.
        let up = t.alpha[(holdEnd + 1)...(holdEnd + Int(s.fadeIn * 60) - 2)]
        #expect(zip(up, up.dropFirst()).allSatisfy { $0 < $1 })
        #expect(up.first! > 0 && up.first! < 0.01)
        #expect(t.alpha.suffix(30).allSatisfy { $0 == 1 })
    }

    @Test func cyclesThroughPinnedInOrderAndWraps() {
        var m = model(pins: ["dune", "blue-storm"])
        var c = AutoCycle()
        m.run(.live(.setDwell(3)), .togglePlaylist)
        let t = Self.run(&m, &c, seconds: 3 * (3 + 3.5) + 1)
        #expect(t.switches.map(\.id) == ["blue-storm", "dune", "blue-storm"])
    }

    @Test func allPresetsWhenPinnedOnlyIsOffOrNothingIsPinned() {
        var m = model(pins: ["cellar"])
        var c = AutoCycle()
        m.run(.live(.setDwell(3)), .live(.setPinnedOnly(false)), .togglePlaylist)
        #expect(Self.run(&m, &c, seconds: 2 * 6.5 + 0.5).switches.map(\.id) == ["blue-storm", "cellar"])
        var n = model(pins: [])
        var d = AutoCycle()
        n.run(.live(.setDwell(3)), .togglePlaylist)
        #expect(Self.run(&n, &d, seconds: 6.5 + 0.5).switches.map(\.id) == ["blue-storm"])
    }

    @Test func offMeansNoSwitchAndStoppingMidFadeReturnsToFullBrightness() throws {
        var m = model(pins: [])
        var c = AutoCycle()
        m.run(.live(.setDwell(3)))
        #expect(Self.run(&m, &c, seconds: 20).switches.isEmpty)
        m.run(.togglePlaylist)
        let t1 = Self.run(&m, &c, seconds: 3.75)  // half-way through the fade out
        let mid = try #require(t1.alpha.last)
        #expect(mid > 0 && mid < 1)
        m.run(.togglePlaylist)
        let t2 = Self.run(&m, &c, seconds: 2)
        #expect(t2.switches.isEmpty && t2.alpha.first! > mid - 0.02)
        #expect(t2.alpha.last == 1)
    }

    @Test func aRequestedSwitchFadesThroughBlackEvenWithCyclingOff() throws {
        var m = model(pins: [])
        var c = AutoCycle()
        #expect(!m.playlistOn)
        let start = try #require(m.currentPreset?.id)
        let target = try #require(m.presets.last?.id)
        #expect(target != start)
        _ = Self.run(&m, &c, seconds: 1)
        c.request(target)
        let s = m.live.cycle
        let t = Self.run(&m, &c, seconds: s.fadeOut + s.hold + s.fadeIn + 0.5)
        #expect(t.switches.map(\.id) == [target], "exactly one switch, to the requested preset")
        let black = try #require(t.switches.first?.frame)
        #expect(t.alpha[black] == 0, "it switches at the black point")
        #expect(t.alpha[0] < 1 && t.alpha[0] > 0.9, "the fade starts at once")
        #expect(t.alpha.last == 1, "and comes back")
        #expect(m.currentPreset?.id == target && c.requested == nil)
    }

    @Test func aManualSwitchCancelsARequestedFade() throws {
        var m = model(pins: [])
        var c = AutoCycle()
        _ = Self.run(&m, &c, seconds: 0.5)
        let ids = m.presets.map(\.id).filter { $0 != m.currentPreset?.id }
        c.request(ids[1])
        _ = Self.run(&m, &c, seconds: 0.1)
        m.run(.jumpTo(ids[0]))  // someone switches by hand mid-fade
        let t = Self.run(&m, &c, seconds: 3)
        #expect(t.switches.isEmpty && c.requested == nil && m.currentPreset?.id == ids[0])
        #expect(t.alpha.last == 1)
    }

    @Test func aManualSwitchRestartsTheDwell() {
        var m = model(pins: [])
        var c = AutoCycle()
        m.run(.live(.setDwell(5)), .togglePlaylist)
        _ = Self.run(&m, &c, seconds: 4)
        m.run(.next)  // by hand, to blue-storm
        let t = Self.run(&m, &c, seconds: 4.9)
        #expect(t.switches.isEmpty && t.alpha.allSatisfy { $0 == 1 })
        #expect(Self.run(&m, &c, seconds: 1.7).switches.map(\.id) == ["cellar"])
    }

    @Test func blackoutFadesOutStaysBlackAndReturns() {
        var m = model(pins: [])
        var c = AutoCycle()
        m.run(.live(.toggleBlackout))
        let fade = m.live.cycle.blackoutFade
        let down = Self.run(&m, &c, seconds: fade + 2)
        #expect(zip(down.alpha, down.alpha.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(down.alpha[0] < 1 && down.alpha[0] > 0.9)
        #expect(down.alpha[Int(fade * 60) - 1] < 0.001 && down.alpha[Int(fade * 60)] == 0 && down.alpha.last == 0)
        m.run(.live(.toggleBlackout))
        let up = Self.run(&m, &c, seconds: fade + 0.5)
        #expect(zip(up.alpha, up.alpha.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(up.alpha[Int(fade * 60) - 1] > 0.999 && up.alpha[Int(fade * 60)] == 1 && up.alpha.last == 1)
        #expect(down.switches.isEmpty && up.switches.isEmpty)
    }

    @Test func dwellIsClampedAndTimeLeftIsReported() {
        var m = model(pins: [])
        m.run(.live(.setDwell(0.1)))
        #expect(m.live.cycle.dwell == 3)
        m.run(.live(.setDwell(.infinity)))
        #expect(m.live.cycle.dwell == 3)
        m.run(.live(.setDwell(25)), .togglePlaylist)
        var c = AutoCycle()
        let out = c.tick(dt: 5, input: m.cycleInput)
        #expect(out.untilNext == 20 && out.alpha == 1)
        // A huge hitch still switches once, at most.
        #expect(c.tick(dt: 1000, input: m.cycleInput).switchTo == "blue-storm")
    }
}
