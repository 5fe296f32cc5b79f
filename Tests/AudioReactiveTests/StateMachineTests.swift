import Engine
import Foundation
import Testing
@testable import AudioReactive

/// The per-band state machines, stepped directly with synthetic input.
@Suite struct EnvelopeTests {
    @Test(arguments: [2.0, 5.0, 40.0]) func reaches63PercentInOneTimeConstant(hops: Double) {
        let hop = 128.0 / 48000
        let c = Envelope.coefficient(timeConstant: hops * hop, step: hop)
        var e = Envelope()
        var n = 0
        while e.value < 0.632 { _ = e.process(1, attack: c, release: c); n += 1 }
        #expect(abs(Double(n) - hops) <= 1)
        var r = Envelope()
        for _ in 0..<Int(hops) { _ = r.process(1, attack: c, release: 1) }
        #expect(abs(r.value - 0.632) < 0.01, "after exactly T the rise is 63.2 %")
    }

    @Test func attackAndReleaseAreSeparate() {
        var e = Envelope()
        _ = e.process(1, attack: 1, release: 0.01)
        #expect(e.value == 1)
        _ = e.process(0, attack: 1, release: 0.01)
        #expect(abs(e.value - 0.99) < 1e-6)
    }
}

@Suite struct GateTests {
    let dt: Float = 128.0 / 48000
    let t = GateTuning(low: 4, high: 9, holdMilliseconds: 150)
    let open = Envelope.coefficient(timeConstant: Gate.openTime, step: 128.0 / 48000)
    let close = Envelope.coefficient(timeConstant: Gate.closeTime, step: 128.0 / 48000)

    func run(_ g: inout Gate, _ db: Float, seconds: Float) -> [Float] {
        (0..<Int(seconds / dt)).map { _ in g.process(db: db, dt: dt, tuning: t, openCoefficient: open, closeCoefficient: close) }
    }

    /// While the floor is learnt (1 s), −60 dBFS is the reference: noise
    /// below −51 dBFS never opens the gate; louder noise may open it until
    /// the floor is known, then it closes for good.
    @Test(arguments: [-70.0, -58.0, -45.0, -35.0]) func steadyNoiseKeepsItClosed(level: Double) {
        var g = Gate()
        var rng = SeededRandom(seed: 1)
        var gains: [Float] = []
        for _ in 0..<(10 * 375) {
            let db = Float(level) + 2 * rng.bipolar()
            gains.append(g.process(db: db, dt: dt, tuning: t, openCoefficient: open, closeCoefficient: close))
        }
        let settled = gains[Int(2 / dt)...]
        #expect(settled.max()! == 0)
        if level < -53 { #expect(gains.max()! == 0) }
        #expect(g.state == .closed)
    }

    @Test func opensAboveHighClosesAfterHoldBelowLowAndNeverSnaps() {
        var g = Gate()
        _ = run(&g, -50, seconds: 2) // learn the floor
        #expect(g.state == .closed)
        _ = run(&g, -44, seconds: 0.3) // +6 dB: between low and high
        #expect(g.state == .closed, "hysteresis: below gateHigh it stays closed")
        let rising = run(&g, -30, seconds: 0.2)
        #expect(g.state == .open)
        #expect(rising.last! > 0.99)
        #expect(rising.first! < 1, "the gain is smoothed, not switched")
        _ = run(&g, -44, seconds: 0.2) // +6 dB: above gateLow: stays open
        #expect(g.state == .open)
        // Drop: detector falls at 40 dB/s, then hold 150 ms, then a smooth close.
        var falling: [Float] = []
        var holdSeen = false
        for _ in 0..<Int(1.0 / dt) {
            falling.append(g.process(db: -50, dt: dt, tuning: t, openCoefficient: open, closeCoefficient: close))
            if g.state == .hold { holdSeen = true }
        }
        #expect(holdSeen)
        #expect(g.state == .closed)
        #expect(falling.last! == 0)
        let steps = zip(falling, falling.dropFirst()).map { abs($0 - $1) }
        #expect(steps.max()! < 0.1, "closing never snaps (largest per-hop step \(steps.max()!))")
    }

    @Test func silenceBelowTheAbsoluteFloorNeverOpens() {
        var g = Gate()
        _ = run(&g, -200, seconds: 2)
        let gains = run(&g, Gate.absoluteFloor + 5, seconds: 1)
        #expect(gains.max()! == 0)
        _ = run(&g, Gate.absoluteFloor + 12, seconds: 0.1)
        #expect(g.state == .open)
    }
}

@Suite struct AutoGainTests {
    let dt: Float = 128.0 / 48000

    @Test func bringsTheReferenceToTheTargetAndFreezesWhileClosed() {
        var a = AutoGain()
        var rng = SeededRandom(seed: 2)
        for _ in 0..<(10 * 375) { _ = a.process(db: -30 + 3 * rng.bipolar(), open: true, dt: dt, adaptation: 2) }
        // The 90th percentile of −30 ± 3 dB is ≈ −27.6: gain ≈ target − (−27.6).
        #expect(abs(a.gainDb - (AutoGain.targetDb + 27.6)) < 1.5)
        let frozen = a.gainDb
        for _ in 0..<(10 * 375) { _ = a.process(db: -70, open: false, dt: dt, adaptation: 2) }
        #expect(a.gainDb == frozen, "closed gate: nothing learnt, gain kept")
    }

    @Test func gainIsLimited() {
        var a = AutoGain()
        for _ in 0..<(20 * 375) { _ = a.process(db: -95, open: true, dt: dt, adaptation: 1) }
        #expect(abs(a.gainDb - AutoGain.maxGainDb) < 0.5)
        for _ in 0..<(20 * 375) { _ = a.process(db: 25, open: true, dt: dt, adaptation: 1) }
        #expect(abs(a.gainDb - AutoGain.minGainDb) < 0.5)
    }
}

@Suite struct OnsetDetectorTests {
    let dt: Float = 128.0 / 48000
    var tuning: OnsetTuning {
        var s = AudioTuning()
        s.refractory = 50
        s.transientDecay = 100
        return OnsetTuning(settings: s, hopSeconds: 128.0 / 48000)
    }

    @Test func firesOnceOnTheUpwardCrossingThenDecays() {
        var d = OnsetDetector(windowHops: 280)
        var fired: [Int] = []
        let flux: [Float] = Array(repeating: 0.2, count: 300) + [12, 15, 14, 10, 8] + Array(repeating: 0.2, count: 200)
        var after: [Float] = []
        for (i, f) in flux.enumerated() {
            if d.process(flux: f, allowed: true, dt: dt, tuning: tuning) { fired.append(i) }
            if i >= 300 { after.append(d.transient) }
        }
        #expect(fired == [300])
        #expect(after[0] > 0.7, "jumps to the hit strength")
        let peak = after.max()!
        let idx = after.firstIndex(of: peak)!
        // 100 ms decay: after 100 ms (37.5 hops) it is at 36.8 % of its peak.
        let at = after[idx + 37]
        #expect(abs(at / peak - 0.368) < 0.03)
    }

    @Test func refractoryBlocksASecondHitTooSoon() {
        var d = OnsetDetector(windowHops: 280)
        var fired: [Int] = []
        var flux = [Float](repeating: 0.2, count: 600)
        for start in [300, 306, 330] { for k in 0..<2 { flux[start + k] = 12 } } // 16 ms, then 80 ms later
        for (i, f) in flux.enumerated() where d.process(flux: f, allowed: true, dt: dt, tuning: tuning) { fired.append(i) }
        #expect(fired == [300, 330])
    }

    @Test func blockedWhileNotAllowedAndTriggerable() {
        var d = OnsetDetector(windowHops: 280)
        for _ in 0..<300 { _ = d.process(flux: 0.2, allowed: true, dt: dt, tuning: tuning) }
        let blocked = d.process(flux: 12, allowed: false, dt: dt, tuning: tuning)
        #expect(!blocked)
        #expect(d.transient == 0)
        let opened = d.process(flux: 12, allowed: true, dt: dt, tuning: tuning)
        #expect(opened, "a crossing the gate held back fires when it opens")
        for _ in 0..<100 { _ = d.process(flux: 0.2, allowed: true, dt: dt, tuning: tuning) }
        let triggered = d.process(flux: 0.2, allowed: true, dt: dt, tuning: tuning, trigger: 0.4)
        #expect(triggered)
        #expect(d.transient >= 0.4)
    }
}

@Suite struct AudioTuningTests {
    @Test func defaultsAreValidAndProblemsNameTheField() {
        #expect(AudioTuning().problems().isEmpty)
        var s = AudioTuning()
        s.attack = -1
        s.gateLow = 20
        s.gateHigh = 10
        s.bandEdges = [20, 60, 50, 500, 2000, 4000, 6000, 16000]
        let p = s.problems()
        #expect(p.contains { $0.hasPrefix("attack:") })
        #expect(p.contains { $0.hasPrefix("gateLow:") })
        #expect(p.contains { $0.hasPrefix("bands[2]:") })
    }

    @Test func settingsRoundTripThroughTheConfigJSON() throws {
        var c = AudioConfig(name: "t")
        for (i, f) in AudioTuning.fields.enumerated() {
            c.tuning[field: f] = f.range.lowerBound + Double(i + 1) / 20 * (f.range.upperBound - f.range.lowerBound)
        }
        c.tuning.autoGain = false
        c.tuning.bands = [25, 70, 200, 600, 1800, 3500, 7000, 15000]
        #expect(c.tuning.problems().isEmpty)
        let back = try AudioConfig.decode(data: Data(c.jsonText.utf8)).config
        #expect(back.tuning == c.tuning)
        for f in AudioTuning.fields { #expect(back.tuning[field: f] == c.tuning[field: f], "\(f.key)") }
    }
}
