import Foundation
import Testing
@testable import AudioReactive

/// Synthetic signals through the whole chain, read from the same per-hop
/// features `physarum analyze` prints (plus the meters for raw band energy).
@Suite(.serialized) struct ChainLevelTests {
    static let bands: [AudioSourceID] = Array(AudioSourceID.allCases.dropLast())

    /// A sine at each band's geometric centre: that band's energy is at least
    /// 10 dB above each neighbour's, and so is its level (10 dB = 1/6).
    @Test(arguments: ChainLevelTests.bands) func sineAtBandCentreLightsItsBand(band: AudioSourceID) {
        let e = AudioBandEdges.standard
        let centre = (e[band.index] * e[band.index + 1]).squareRoot()
        var s = AudioTuning()
        s.autoGain = false
        let a = Analysis(Signals.take(Tone(frequency: centre, dBFS: -12), seconds: 1.5), settings: s, keepMeters: true)
        let tail = a.meters.suffix(100)
        func meanDb(_ id: AudioSourceID) -> Float { tail.map { $0[id].dbfs }.reduce(0, +) / Float(tail.count) }
        func meanLevel(_ id: AudioSourceID) -> Float { a.features.suffix(100).map { $0[id].level }.reduce(0, +) / 100 }
        let own = meanDb(band)
        #expect(abs(own - -12) < 1.5, "a −12 dBFS sine reads ≈ −12 dBFS in its band, got \(own)")
        for n in [band.index - 1, band.index + 1] where n >= 0 && n < 7 {
            let neighbour = AudioSourceID.allCases[n]
            #expect(own - meanDb(neighbour) >= 10, "\(band) vs \(neighbour): \(own) vs \(meanDb(neighbour)) dBFS")
            #expect(meanLevel(band) - meanLevel(neighbour) >= 10.0 / 60, "\(band) vs \(neighbour) level")
        }
    }

    /// −60 dBFS noise alone (RMS re full scale, white and pink, auto-gain on
    /// and off): every gate stays closed and every output is 0 on every hop.
    @Test(arguments: [(Noise.Colour.white, true), (.pink, true), (.white, false), (.pink, false)])
    func quietNoiseAloneGivesStillness(colour: Noise.Colour, autoGain: Bool) {
        var s = AudioTuning()
        s.autoGain = autoGain
        let a = Analysis(Signals.take(Noise(colour, rmsDBFS: -60, seed: 4), seconds: 10), settings: s)
        var worst: Float = 0
        for f in a.features {
            for id in AudioSourceID.allCases { worst = max(worst, f[id].level, f[id].transient, f[id].gate) }
            #expect(!f.onset)
        }
        #expect(worst == 0, "largest output \(worst)")
    }

    /// The step response of the chain with envelope time constant T: fitted
    /// per hop against the same chain with the envelope bypassed (T = 0),
    /// the measured T is within 10 % of the setting for every T ≥ 2 hops;
    /// for T ≥ 10 hops the plain 63.2 % crossing time (minus the bypassed
    /// chain's, which is the window filling) is within 10 % as well.
    @Test(arguments: [2.0 * 128 / 48, 5.0 * 128 / 48, 20, 50, 200, 600])
    func attackAndReleaseMatchTheirSettings(ms: Double) {
        let tone = { (db: Double, sec: Double) in Signals.take(Tone(frequency: 1000, dBFS: db), seconds: sec) }
        let x = tone(-40, 2) + tone(-10, 3) + tone(-40, 3) // continuous phase is not needed: both runs share it
        func levels(attack: Double, release: Double) -> [Float] {
            var s = AudioTuning()
            s.autoGain = false
            s.gateLow = 0 // keep the gate open: only the envelope is measured
            s.gateHigh = 0
            s.attack = attack
            s.release = release
            return Analysis(x, settings: s).series(.mid, \.level)
        }
        let hop = 128.0 / 48000
        let raw = levels(attack: 0, release: 0)
        for rising in [true, false] {
            let y = rising ? levels(attack: ms, release: 0) : levels(attack: 0, release: ms)
            let stepHop = Int((rising ? 2.0 : 5.0) / hop)
            let range = stepHop..<(stepHop + Int(3 * ms / 1000 / hop) + 40)
            let low = raw[stepHop - 2], high = raw[range.upperBound - 1]
            // Per-hop fit: y[n] − y[n−1] = a (x[n] − y[n−1]).
            var estimates: [Double] = []
            for n in range where abs(raw[n] - y[n - 1]) > 0.05 * abs(high - low) {
                let a = Double((y[n] - y[n - 1]) / (raw[n] - y[n - 1]))
                if a > 0 && a < 1 { estimates.append(-hop / log(1 - a)) }
            }
            let fitted = estimates.sorted()[estimates.count / 2] * 1000
            #expect(abs(fitted - ms) <= 0.1 * ms, "\(rising ? "attack" : "release") \(ms) ms measured \(fitted) ms")
            if ms >= 10 * hop * 1000 {
                let target = low + 0.632 * (high - low)
                func crossing(_ s: [Float]) -> Double {
                    for n in range where rising ? s[n] >= target : s[n] <= target {
                        let f = Double((target - s[n - 1]) / (s[n] - s[n - 1]))
                        return (Double(n - 1) + f) * hop
                    }
                    return .infinity
                }
                let measured = (crossing(y) - crossing(raw)) * 1000
                #expect(abs(measured - ms) <= 0.1 * ms, "\(rising ? "attack" : "release") \(ms) ms: 63.2 % after \(measured) ms")
            }
        }
    }
}
