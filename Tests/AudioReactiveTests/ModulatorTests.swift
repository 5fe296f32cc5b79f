import Foundation
import Testing
@testable import AudioReactive
import Engine

/// Features at sample-clock `time` with the given levels / transients.
private func features(time: Double = 0, level: [AudioSourceID: Float] = [:],
                      transient: [AudioSourceID: Float] = [:]) -> AudioFeatures {
    var f = AudioFeatures(time: time)
    for (id, v) in level { f[id].level = v }
    for (id, v) in transient { f[id].transient = v }
    return f
}

private func route(_ source: AudioSourceID, _ target: String, _ mode: RouteMode = .level, depth: Double,
                   smoothing: Double? = nil, curve: Double = 1, invert: Bool = false) -> Route {
    Route(source: RouteSource(source), target: RouteTarget(id: target)!, mode: mode, depth: depth, smoothing: smoothing,
          curve: curve, invert: invert)
}

@Suite struct ModulatorTests {
    @Test func levelRouteWithDepthOneSweepsTheWholeRange() {
        var base = PresetParams()
        base[.bloom] = 0
        var m = Modulator(routes: [route(.bass, "effects.bloom", depth: 1)])
        let spec = ParamKey.bloom.spec
        for step in 0...20 {
            let l = Float(step) / 20
            let out = m.process(base: base, features: features(level: [.bass: l]))
            #expect(abs(spec.to01(out[.bloom]) - Double(l)) < 1e-9)
        }
        #expect(m.process(base: base, features: features(level: [.bass: 1]))[.bloom] == spec.max)
        // Clamped: from the middle, full level cannot go past the top; negative depth stops at the bottom.
        base[.bloom] = 1
        #expect(m.process(base: base, features: features(level: [.bass: 1]))[.bloom] == spec.max)
        m.routes[0].depth = -2
        #expect(m.process(base: base, features: features(level: [.bass: 1]))[.bloom] == spec.min)
    }

    @Test func twoRoutesOnOneTargetAdd() {
        let base = PresetParams()
        let spec = ParamKey.bloom.spec
        let a = route(.bass, "effects.bloom", depth: 0.2)
        let b = route(.mid, "effects.bloom", depth: 0.3)
        let f = features(level: [.bass: 0.5, .mid: 1])
        func offset(_ routes: [Route]) -> Double {
            var m = Modulator(routes: routes)
            return spec.to01(m.process(base: base, features: f)[.bloom]) - spec.to01(base[.bloom])
        }
        #expect(abs(offset([a]) - 0.1) < 1e-9)
        #expect(abs(offset([b]) - 0.3) < 1e-9)
        #expect(abs(offset([a, b]) - 0.4) < 1e-9)
    }

    @Test func wildcardHitsEverySpecies() {
        var base = PresetParams()
        for s in 0..<3 { base[.species(s, .moveSpeed)] = Double(s + 1) }
        var m = Modulator(routes: [route(.bass, "species.*.moveSpeed", depth: 0.25)])
        let out = m.process(base: base, features: features(level: [.bass: 1]))
        for s in 0..<3 {
            let k = ParamKey.species(s, .moveSpeed)
            #expect(abs(k.spec.to01(out[k]) - k.spec.to01(base[k]) - 0.25) < 1e-9, "species \(s)")
            #expect(out[.species(s, .turnSpeed)] == base[.species(s, .turnSpeed)])
        }
    }

    @Test func logScaleTargetsMoveEvenlyInLogSpace() {
        var base = PresetParams()
        base[.exposure] = ParamKey.exposure.spec.min
        var m = Modulator(routes: [route(.sub, "global.exposure", depth: 1)])
        var logs: [Double] = []
        for step in 0...10 {
            logs.append(log(m.process(base: base, features: features(level: [.sub: Float(step) / 10]))[.exposure]))
        }
        let steps = zip(logs.dropFirst(), logs).map { $0 - $1 }
        let expected = log(8 / 0.05) / 10
        for d in steps { #expect(abs(d - expected) < 1e-6) }
        // Decay moves evenly in log half-life: 0.5 → 1 step, so each tenth multiplies the half-life equally.
        var base2 = PresetParams()
        base2[.decay] = 0.5
        var m2 = Modulator(routes: [route(.sub, "pheromone.decay", depth: 1)])
        let halfLives = (0...4).map { step -> Double in
            let keep = m2.process(base: base2, features: features(level: [.sub: Float(step) / 10]))[.decay]
            return log(0.5) / log(keep)
        }
        let ratios = zip(halfLives.dropFirst(), halfLives).map { $0 / $1 }
        for r in ratios { #expect(abs(r - ratios[0]) < 1e-6 * ratios[0]) }
        #expect(ratios[0] > 1.5)
    }

    @Test func masterOffReturnsTheBaseBitForBit() {
        var base = PresetParams()
        for k in 0..<ParamKey.count {
            // Values with long mantissas, which a round trip through 0…1 would not keep.
            let spec = ParamKey(index: k).spec
            base[ParamKey(index: k)] = spec.from01((Double(k) * 0.618_033_988_749_895).truncatingRemainder(dividingBy: 1))
        }
        var m = Modulator(routes: DefaultWiring.routes + [route(.full, "effects.bloom", .transient, depth: 2, invert: true)])
        let loud = features(time: 1, level: Dictionary(uniqueKeysWithValues: AudioSourceID.allCases.map { ($0, 1) }),
                            transient: [.full: 1])
        #expect(m.process(base: base, features: loud) != base)
        m.enabled = false
        let off = m.process(base: base, features: loud)
        #expect(off.scalars.map(\.bitPattern) == base.scalars.map(\.bitPattern))
        #expect(off == base)
        // On again but faded out, or silent with no inverted route: also exactly the base.
        m.enabled = true
        m.fade = 0
        #expect(m.process(base: base, features: loud).scalars.map(\.bitPattern) == base.scalars.map(\.bitPattern))
        var quiet = Modulator(routes: DefaultWiring.routes)
        #expect(quiet.process(base: base, features: .silent).scalars.map(\.bitPattern) == base.scalars.map(\.bitPattern))
    }

    @Test func integerTargetsDoNotFlickerAtARoundingEdge() {
        var base = PresetParams()
        base[.diffusion] = 1
        let spec = ParamKey.diffusion.spec
        // Depth chosen so a level of 0.5 lands exactly on the 6.5 rounding edge.
        let depth = spec.to01(6.5) / 0.5
        var m = Modulator(routes: [route(.mid, "pheromone.diffusion", depth: depth)])
        var outputs: [Double] = []
        var naive: [Double] = []
        for frame in 0..<600 {
            let wobble = 0.004 * sin(Double(frame) * 0.9) + 0.002 * sin(Double(frame) * 2.3)
            let level = Float(0.5 + wobble)
            let out = m.process(base: base, features: features(time: Double(frame) / 60, level: [.mid: level]))
            outputs.append(out[.diffusion])
            naive.append(spec.from01(spec.to01(1) + depth * Double(level)).rounded())
        }
        func changes(_ v: [Double]) -> Int { zip(v.dropFirst(), v).filter { $0 != $1 }.count }
        #expect(changes(naive) > 20, "the test signal must cross the edge often")
        #expect(changes(outputs) <= 1)
        #expect(outputs.allSatisfy { $0 == 6 || $0 == 7 })
        // A real move still goes through: full level reaches the next integers.
        let high = m.process(base: base, features: features(time: 11, level: [.mid: 0.7]))[.diffusion]
        #expect(high == spec.from01(spec.to01(1) + depth * Double(Float(0.7))).rounded())
    }

    @Test func transientModeSpikesOnClicksAndDecays() {
        var base = PresetParams()
        base[.headGlow] = 0.2
        var m = Modulator(routes: [route(.full, "effects.headGlow", .transient, depth: 1)])
        var levelOnly = Modulator(routes: [route(.full, "effects.headGlow", .level, depth: 1)])
        let clicks: Set<Int> = [10, 40, 70]
        var transient: Float = 0
        var glow: [Double] = []
        var glowLevel: [Double] = []
        for frame in 0..<100 {
            // The analysis' transient signal: jumps on a hit, decays between hits; the level is steady.
            transient = clicks.contains(frame) ? 0.9 : transient * 0.8
            let f = features(time: Double(frame) / 60, level: [.full: 0.5], transient: [.full: transient])
            glow.append(m.process(base: base, features: f)[.headGlow])
            glowLevel.append(levelOnly.process(base: base, features: f)[.headGlow])
        }
        for c in clicks {
            #expect(glow[c] > glow[c - 1] + 0.5 * 3 * 0.9 * 0.9, "spike at click \(c)")
            for k in (c + 1)..<(c + 25) { #expect(glow[k] < glow[k - 1], "decays after click \(c), frame \(k)") }
            #expect(glow[c + 25] - base[.headGlow] < 0.05, "back near base before the next click")
        }
        #expect(glow[0..<10].allSatisfy { $0 == base[.headGlow] })
        // The same source in level mode ignores the clicks.
        #expect(Set(glowLevel).count == 1)
    }

    @Test func smoothingFollowsTheSampleClock() {
        var m = Modulator(routes: [route(.bass, "effects.bloom", depth: 1, smoothing: 100)])
        var base = PresetParams()
        base[.bloom] = 0
        _ = m.process(base: base, features: features(time: 0))
        // A step to full level: after one time constant (100 ms) the signal is at 63.2 %.
        var u = 0.0
        for k in 1...6 {
            u = ParamKey.bloom.spec.to01(m.process(base: base, features: features(time: Double(k) / 60, level: [.bass: 1]))[.bloom])
        }
        #expect(abs(u - (1 - exp(-1.0))) < 1e-6)
        // Without new hops (time stands still) the smoothed value holds.
        let held = m.process(base: base, features: features(time: 0.1, level: [.bass: 1]))[.bloom]
        #expect(ParamKey.bloom.spec.to01(held) == u)
    }

    @Test func curveInvertMuteSoloReactivityAndActivity() {
        let base = PresetParams()
        let spec = ParamKey.bloom.spec
        let f = features(level: [.bass: 0.5, .mid: 0.5])
        var m = Modulator(routes: [route(.bass, "effects.bloom", depth: 0.4, curve: 2), route(.mid, "effects.vignette", depth: 0.5, invert: true)])
        let out = m.process(base: base, features: f)
        #expect(abs(spec.to01(out[.bloom]) - spec.to01(base[.bloom]) - 0.4 * 0.25) < 1e-9)
        #expect(abs(m.activity[0] - 0.1) < 1e-12)
        #expect(abs(m.activity[1] - 0.25) < 1e-12)
        m.reactivity = 2
        _ = m.process(base: base, features: f)
        #expect(abs(m.activity[0] - 0.2) < 1e-12)
        m.routes[0].muted = true
        #expect(m.process(base: base, features: f)[.bloom] == base[.bloom])
        #expect(m.activity[0] == 0)
        m.routes[0].muted = false
        m.routes[0].solo = true
        let solo = m.process(base: base, features: f)
        #expect(solo[.vignette] == base[.vignette])
        #expect(solo[.bloom] != base[.bloom])
        m.fade = 0.5
        _ = m.process(base: base, features: f)
        #expect(abs(m.activity[0] - 0.1) < 1e-12)
    }

    @Test func fadeRampsTowardItsTarget() {
        var m = Modulator()
        m.advanceFade(toward: 0, elapsed: 0.25, duration: 1)
        #expect(abs(m.fade - 0.75) < 1e-12)
        m.advanceFade(toward: 0, elapsed: 5, duration: 1)
        #expect(m.fade == 0)
        m.advanceFade(toward: 1, elapsed: 0.5, duration: 2)
        #expect(abs(m.fade - 0.25) < 1e-12)
    }

    @Test(arguments: [
        ("global.agents", "respawns"), ("species.1.population", "respawns"), ("species.*.population", "respawns"),
        ("global.simSpeed", "sim speed"), ("species.0.color", "numeric"), ("spawn.pattern", "numeric"),
        ("species.*.color", "numeric"), ("foo.bar", "unknown parameter id 'foo.bar'"), ("species.*.speed", "unknown"),
        ("species.7.moveSpeed", "unknown"), ("", "unknown"),
    ])
    func rejectsTargetsThatCannotBeModulated(id: String, reason: String) throws {
        guard case .failure(let e) = RouteTarget.parse(id) else {
            Issue.record("\(id) must be rejected")
            return
        }
        #expect(e.description.contains(reason))
    }

    @Test func everyModulatableParameterIsATarget() {
        for spec in ParamRegistry.scalars {
            #expect((RouteTarget(id: spec.id) != nil) == spec.isModulatable, "\(spec.id)")
        }
        #expect(RouteTarget(id: "species.*.moveSpeed")?.keys.count == 3)
    }

    @Test func defaultWiringMakesTheDefaultPresetReact() {
        var m = Modulator(routes: [route(.sub, "effects.vignette", depth: 1)])
        m.applyDefaultWiring()
        #expect(m.routes == DefaultWiring.routes)
        let base = PresetParams()
        var out = base
        for k in 0..<30 {
            let hit: Float = k % 10 == 0 ? 1 : 0
            out = m.process(base: base, features: features(time: Double(k) / 60, level: [.bass: 0.9, .brilliance: 0.8],
                                                             transient: [.full: hit]))
        }
        for s in 0..<3 { #expect(out[.species(s, .moveSpeed)] > base[.species(s, .moveSpeed)]) }
        #expect(out[.bloom] > base[.bloom])
        let hit = m.process(base: base, features: features(time: 0.5, transient: [.full: 1]))
        #expect(hit[.headGlow] > base[.headGlow] + 0.5)
    }
}

@Suite struct FrameFeatureAccumulatorTests {
    @Test func levelIsTheLastHopAndTransientTheFramePeak() {
        var acc = FrameFeatureAccumulator()
        // Three hops in one frame: a hit in the middle one, the level falling.
        let hops: [(Float, Float, Bool)] = [(0.8, 0.1, false), (0.6, 0.9, true), (0.4, 0.7, false)]
        for (k, h) in hops.enumerated() {
            var f = AudioFeatures(time: Double(k + 1) * 0.005)
            f[.bass].level = h.0
            f[.full].transient = h.1
            f.onset = h.2
            acc.add(f)
        }
        #expect(acc.pendingHops == 3)
        let frame = acc.takeFrame()
        #expect(frame[.bass].level == 0.4)
        #expect(frame[.full].transient == 0.9)
        #expect(frame.onset)
        #expect(frame.time == 0.015)
        // A frame without new hops repeats the last hop (no second spike, no onset).
        let empty = acc.takeFrame()
        #expect(empty[.full].transient == 0.7 && !empty.onset && empty[.bass].level == 0.4)
        // The next frame's peak starts afresh.
        var f = AudioFeatures(time: 0.02)
        f[.full].transient = 0.5
        acc.add(f)
        #expect(acc.takeFrame()[.full].transient == 0.5)
    }
}
