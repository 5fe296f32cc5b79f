import Foundation
import Testing
@testable import AudioReactive
import TestSupport

@Suite struct SynthTests {
    @Test func generatorsAreDeterministicPerSeed() {
        var a = Groove(seed: 5), b = Groove(seed: 5), c = Groove(seed: 6)
        let x = a.render(count: 48000), y = b.render(count: 48000), z = c.render(count: 48000)
        #expect(x == y)
        #expect(x != z)
        let (d1, h1) = DrumPattern.drumAndBass().render(bars: 2, seed: 1)
        let (d2, h2) = DrumPattern.drumAndBass().render(bars: 2, seed: 1)
        #expect(d1 == d2 && h1 == h2)
    }

    /// The demo groove keeps playing: bounded, never silent for long, and
    /// different in its breakdown (bars 12–13 have no kick).
    @Test func grooveIsMusicalAndEndless() {
        var g = Groove(seed: 1)
        let bar = Int(4 * 60 / 124.0 * 48000)
        let x = g.render(count: 16 * bar)
        #expect(x.allSatisfy { $0.isFinite && abs($0) <= 1 })
        for b in 0..<16 {
            let seg = Array(x[(b * bar)..<((b + 1) * bar)])
            #expect(Signals.rms(seg) > amplitude(dB: -30), "bar \(b) is audible")
        }
        let full = Analysis(Array(x[(2 * bar)..<(4 * bar)]), keepMeters: true)
        let breakdown = Analysis(Array(x[(12 * bar)..<(14 * bar)]), keepMeters: true)
        func subEnergy(_ a: Analysis) -> Float { a.meters.suffix(300).map { $0[.sub].dbfs }.max()! }
        #expect(subEnergy(full) > subEnergy(breakdown) + 10, "the kick drops out in the breakdown")
    }

    @Test func patternsHaveGhostNotesAndHumanisation() {
        let p = DrumPattern.house(bpm: 128)
        let hits = (0..<8).flatMap { p.hits(bar: $0, seed: 3, sampleRate: 48000) }
        let step = p.barSeconds / 16 * 48000
        let offsets = hits.map { Double($0.sample).truncatingRemainder(dividingBy: step) }.map { min($0, step - $0) / 48 }
        #expect(offsets.max()! <= 5.01 && offsets.max()! > 2, "±5 ms humanisation")
        #expect(hits.contains { $0.gain < amplitude(dB: -18) } && hits.contains { $0.gain > amplitude(dB: -2) })
    }

    @Test func specsParseOrFailWithTheReason() throws {
        #expect(try SyntheticSource.generator(spec: "tone:220:-12") is Tone)
        #expect(try SyntheticSource.generator(spec: "dnb:170") is DrumMachine)
        #expect(throws: AudioSourceError.self) { try SyntheticSource.generator(spec: "tone:abc") }
        #expect(throws: AudioSourceError.self) { try SyntheticSource.generator(spec: "banjo") }
    }

    /// The real-time source delivers samples at the wall-clock rate.
    @Test func realtimeSourceKeepsTime() {
        let src = RealtimeSource(Tone(frequency: 100, dBFS: -20))
        let clock = ContinuousClock()
        let start = clock.now
        src.start()
        var buf = [Float](repeating: 0, count: 4096)
        var got = 0
        #expect(poll(seconds: 5) {
            while let r = try? src.read(into: &buf), r.count > 0 { got += r.count }
            return got >= 24000
        })
        let elapsed = start.duration(to: clock.now)
        src.stop()
        let secs = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        #expect(Double(got) / 48000 <= secs + 0.05, "never ahead of the clock: \(got) samples in \(secs) s")
    }
}
