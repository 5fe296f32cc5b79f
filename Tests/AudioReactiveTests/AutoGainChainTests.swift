import Foundation
import Testing
@testable import AudioReactive

/// Auto-gain through the whole chain on steady music-like input (the demo
/// groove's first 12 bars: drums, bass, pad chords; deterministic), with
/// drops of −20 and −30 dB, then pure noise.
@Suite(.serialized) struct AutoGainChainTests {
    static func music(seconds: Double) -> [Float] {
        precondition(seconds <= 12 * 4 * 60 / 124, "the groove's first breakdown starts at bar 12")
        return Signals.take(Groove(seed: 3), seconds: seconds)
    }

    static let bar = 4 * 60 / 124.0

    /// Median `full` and `mid` level over [from, to) seconds.
    static func medianLevel(_ a: Analysis, _ id: AudioSourceID, _ from: Double, _ to: Double) -> Float {
        let v = a.features.filter { $0.time >= from && $0.time < to }.map { $0[id].level }.sorted()
        return v[v.count / 2]
    }

    /// After a −20 dB and (separately) a −30 dB drop, every source's level
    /// returns to within 6 dB (0.1 on the 60 dB level scale) of what it was
    /// before, in at most 8 s. Levels are medians over two bars (the pattern's period):
    /// before the drop, its first bar, and from 8 s on.
    @Test(arguments: [-20.0, -30.0]) func levelRecoversAfterADrop(drop: Double) {
        let at = 4 * Self.bar
        let m = Self.music(seconds: 20)
        let cut = Int(at * 48000)
        let x = Array(m[0..<cut]) + m[cut...].map { $0 * amplitude(dB: drop) }
        let a = Analysis(x, keepMeters: true)
        for id in AudioSourceID.allCases {
            let gainBefore = a.meters.last { $0.time < at }![id].autoGainDb
            let gainAfter = a.meters.last!.bands[id.index].autoGainDb
            let before = Self.medianLevel(a, id, at - 2 * Self.bar, at)
            let right = Self.medianLevel(a, id, at, at + Self.bar)
            let recovered = Self.medianLevel(a, id, at + 8, at + 8 + 2 * Self.bar)
            print(String(format: "auto-gain %@ %.0f dB drop: before %.3f (gain %+.1f dB), just after %.3f, 8-12 s after %.3f (gain %+.1f dB)",
                         id.rawValue, drop, before, gainBefore, right, recovered, gainAfter))
            #expect(before > 0.5)
            #expect(right < before - 0.2, "\(id): the drop is seen at first")
            #expect(abs(recovered - before) <= 0.1, "\(id): back within 6 dB 8 s after a \(drop) dB drop")
        }
    }

    /// Music, then pure pink noise at −50 dBFS: the noise is never raised
    /// above the gate — once the music's last hold and fade are over (1 s
    /// to learn the noise floor after the last onset, then the gate's hold),
    /// every gate is closed and every output 0. Auto-gain, which may have
    /// learnt from the noise for that second or two, stays within 10 dB.
    @Test func noiseAfterMusicStaysGated() {
        let x = Self.music(seconds: 10) + Signals.take(Noise(.pink, rmsDBFS: -50, seed: 12), seconds: 15)
        let a = Analysis(x, keepMeters: true)
        let gainAtEnd = a.meters.first { $0.time >= 10 }!
        for (i, f) in a.features.enumerated() where f.time >= 13 {
            for id in AudioSourceID.allCases {
                #expect(f[id].level == 0 && f[id].gate == 0 && f[id].transient == 0, "\(id) at \(f.time) s")
                #expect(a.meters[i][id].gate == .closed)
                #expect(abs(a.meters[i][id].autoGainDb - gainAtEnd[id].autoGainDb) < 10)
            }
            #expect(!f.onset)
        }
    }

    /// Noise alone from a cold start, up to 20 dB louder than the test
    /// above, with auto-gain on: auto-gain stays within 1 dB of unity and,
    /// once the floor is learnt (1 s), every output is 0.
    @Test(arguments: [-50.0, -40.0]) func roomNoiseIsNeverLifted(db: Double) {
        let a = Analysis(Signals.take(Noise(.pink, rmsDBFS: db, seed: 21), seconds: 15), keepMeters: true)
        for (i, f) in a.features.enumerated() {
            for id in AudioSourceID.allCases {
                #expect(abs(a.meters[i][id].autoGainDb) < 1)
                if f.time > 2 { #expect(f[id].level == 0 && f[id].gate == 0) }
            }
        }
    }
}
