import Foundation
import Testing
@testable import AudioReactive

/// The beat tracker on the pinned drum generator (default settings): the
/// tempo within ±2 % (an octave off counts as wrong) from 8 s on, a tempo
/// change followed within 4 s, beats within 25 ms (median) of the pattern's
/// quarter notes (also on a break whose kicks fall between the beats), and
/// user commands (×2, ÷2, lock, taps).
@Suite(.serialized) struct BeatTrackerTests {
    static func beats(_ a: Analysis, from t0: Double) -> [Double] {
        a.features.filter { $0.beat.beat && $0.time >= t0 }.map(\.time)
    }

    /// Tempo reports from `t0` to `t1`, as ratios to `bpm`.
    static func ratios(_ a: Analysis, _ t0: Double, _ t1: Double, bpm: Double) -> [Double] {
        a.features.filter { $0.time >= t0 && $0.time < t1 }.map { Double($0.beat.tempo) / bpm }
    }

    @Test(arguments: [(DrumPattern.house(bpm: 128), 128.0), (.house(bpm: 100), 100.0)])
    func tempoAndBeatsOnDrums(pattern: DrumPattern, bpm: Double) {
        let bars = Int(20 * bpm / 240)
        let (dry, _) = pattern.render(bars: bars, seed: 7)
        let a = Analysis(Signals.mastered(dry))
        let r = Self.ratios(a, 8, 20, bpm: bpm)
        let off = r.filter { abs($0 - 1) > 0.02 }.count
        print("beat \(bpm): tempo from 8 s \(r.min() ?? 0)…\(r.max() ?? 0) × truth, \(off) of \(r.count) hops off")
        #expect(off == 0, "tempo within 2 % of \(bpm) from 8 s on")
        // The pattern's quarter notes: step 0 of each beat, from the render's start.
        let beat = 60 / bpm
        let errors = Self.beats(a, from: 8).map { t in abs(t - (t / beat).rounded() * beat) }.sorted()
        #expect(errors.count >= Int(10 / beat), "beats keep coming (\(errors.count))")
        let median = errors.isEmpty ? 1 : errors[errors.count / 2]
        print("beat \(bpm): \(errors.count) beats, median error \(median * 1000) ms")
        #expect(median <= 0.025)
    }

    /// A break whose kicks fall mostly between the beats (1, and the "and"
    /// of every beat) and whose snares keep the backbeat (2 and 4): on the
    /// flux alone the off-beats weigh more (four kicks against a kick and two
    /// snares a bar); the accent puts the beats on the snares.
    @Test func aBreakWithOffBeatKicksKeepsTheBeatOnTheSnares() {
        let bpm = 110.0
        let pattern = DrumPattern(bpm: bpm, lanes: [
            (.kick, "X.X...X...X...X."),
            (.snare, "....X.......X..."),
            (.closedHat, "g.g.g.g.g.g.g.g."),
        ])
        let (dry, _) = pattern.render(bars: Int(20 * bpm / 240), seed: 5)
        let a = Analysis(Signals.mastered(dry))
        let r = Self.ratios(a, 8, 20, bpm: bpm)
        #expect(!r.isEmpty && r.allSatisfy { abs($0 - 1) <= 0.02 }, "tempo within 2 % of \(bpm) from 8 s on")
        let beat = 60 / bpm
        let errors = Self.beats(a, from: 8).map { t in abs(t - (t / beat).rounded() * beat) }.sorted()
        let median = errors.isEmpty ? 1 : errors[errors.count / 2]
        print("beat on an off-beat break: \(errors.count) beats, median error \(median * 1000) ms")
        #expect(errors.count >= Int(10 / beat), "beats keep coming (\(errors.count))")
        #expect(median <= 0.025, "beats on the quarter notes, not half a beat off")
    }

    /// The tempo octave follows how busy the music is: a drum & bass break
    /// through a laptop microphone's band (150 Hz – 7 kHz, noise 30 dB down),
    /// where the eighth hats no longer hold up the fast beat, is heard at
    /// 172, not 86; a sparse groove (kick and snare, quarter hats) at 86 stays at 86.
    @Test(arguments: [(DrumPattern.drumAndBass(bpm: 172), 172.0),
                      (DrumPattern(bpm: 86, lanes: [(.kick, "X.......X.X....."), (.snare, "....X.......X..."),
                                                    (.closedHat, "g...g...g...g...")]), 86.0)])
    func theTempoOctaveFollowsHowBusyTheMusicIs(pattern: DrumPattern, bpm: Double) {
        let (dry, _) = pattern.render(bars: Int(24 * bpm / 240), seed: 11)
        let laptop = Signals.withNoise(Signals.bandLimited(Signals.mastered(dry), highPass: 150, lowPass: 7000), .pink, rmsDBFS: -46)
        let a = Analysis(laptop)
        let r = Self.ratios(a, 8, 24, bpm: bpm)
        print("beat octave \(bpm): tempo from 8 s \(r.min() ?? 0)…\(r.max() ?? 0) × truth")
        #expect(!r.isEmpty && r.allSatisfy { abs($0 - 1) <= 0.02 }, "tempo within 2 % of \(bpm) from 8 s on")
    }

    @Test func followsATempoChange() {
        let first = DrumPattern.house(bpm: 120).render(bars: 8, seed: 3, tail: 0).0
        let second = DrumPattern.house(bpm: 128).render(bars: 8, seed: 4).0
        let a = Analysis(Signals.mastered(first + second))
        let change = Double(first.count) / 48000
        let r = Self.ratios(a, change + 4, change + 14, bpm: 128)
        print("beat change: from 4 s after the change \(r.min() ?? 0)…\(r.max() ?? 0) × 128")
        #expect(!r.isEmpty && r.allSatisfy { abs($0 - 1) <= 0.02 }, "128 BPM within 4 s of the change")
        #expect(Self.ratios(a, 8, change, bpm: 120).allSatisfy { abs($0 - 1) <= 0.02 })
    }

    @Test func commandsMoveAndHoldTheTempo() {
        var t = BeatTracker(hopSeconds: 128.0 / 48000)
        let hop = 128.0 / 48000
        // Taps every 0.5 s: 120 BPM, a beat on the last tap.
        var hops = 0
        func run(seconds: Double, tapEvery: Double? = nil) {
            let n = Int(seconds / hop)
            for i in 0..<n {
                if let p = tapEvery, i % Int((p / hop).rounded()) == 0 { t.apply(.tap) }
                _ = t.process(flux: 0, music: true)
                hops += 1
            }
        }
        run(seconds: 2.1, tapEvery: 0.5)
        #expect(abs(Double(t.features.tempo) - 120) < 1.5, "taps set the tempo: \(t.features.tempo)")
        t.apply(.double)
        run(seconds: 0.1)
        #expect(abs(Double(t.features.tempo) - 240) < 3)
        t.apply(.half); t.apply(.half)
        run(seconds: 0.1)
        #expect(abs(Double(t.features.tempo) - 60) < 1)
        t.apply(.lock(true))
        #expect(t.locked)
        var beats = 0
        for _ in 0..<Int(4 / hop) { if t.process(flux: 0, music: true).beat { beats += 1 } }
        #expect(beats == 4, "a locked 60 BPM gives a beat a second: \(beats)")
    }
}
