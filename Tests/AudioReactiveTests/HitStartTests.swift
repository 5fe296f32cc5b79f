import Testing
@testable import AudioReactive

/// Where a hit began, found in the samples before an onset's decision (the
/// latency readout's analysis part is measured from it).
@Suite struct HitStartTests {
    /// `count` samples of a decaying 2 kHz burst of `amplitude` from `at`, over `background` noise.
    static func stream(count: Int, hitAt at: Int, amplitude: Float, background: Float) -> [Float] {
        var x: UInt32 = 1
        return (0..<count).map { i in
            x = x &* 1_664_525 &+ 1_013_904_223
            var s = background * (Float(x >> 8) / Float(1 << 24) * 2 - 1)
            if i >= at {
                let t = Float(i - at)
                s += amplitude * (Int(t / 12) % 2 == 0 ? 1 : -1) * max(0, 1 - t / 2400)
            }
            return s
        }
    }

    static func recent(_ samples: [Float]) -> HitStart {
        var h = HitStart()
        samples.withUnsafeBufferPointer { h.append($0) }
        return h
    }

    @Test func aClickAfterSilenceStartsAtItsFirstSample() {
        let h = Self.recent(Self.stream(count: 7000, hitAt: 5000, amplitude: 0.5, background: 0))
        #expect(h.start(before: 5000 + 300) == 5000)
        #expect(h.start(before: 5000 + 1500) == 5000, "decided later, the hit still began at the same sample")
    }

    @Test func aHitOverOtherSoundStartsWhereItRisesAboveIt() throws {
        let h = Self.recent(Self.stream(count: 6000, hitAt: 4200, amplitude: 0.5, background: 0.05))
        let s = try #require(h.start(before: 4200 + 400))
        #expect(abs(s - 4200) <= 48, "started at \(s)")
    }

    @Test func silenceOrSamplesNoLongerKeptGiveNothing() {
        #expect(Self.recent([Float](repeating: 0, count: 4000)).start(before: 3000) == nil)
        let h = Self.recent(Self.stream(count: 12000, hitAt: 1000, amplitude: 0.5, background: 0))
        #expect(h.start(before: 1200) == nil, "overwritten by 10000 later samples")
        var skipped = h
        skipped.skip(100)
        #expect(skipped.written == 12100)
    }
}
