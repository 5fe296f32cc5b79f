import Foundation
@testable import AudioReactive

/// Signal helpers for the tests (generated in-process, nothing on disk).
enum Signals {
    static let rate = 48000.0

    /// Peak absolute amplitude.
    static func peak(_ x: [Float]) -> Float { x.reduce(0) { max($0, abs($1)) } }

    /// RMS.
    static func rms(_ x: [Float]) -> Float {
        guard !x.isEmpty else { return 0 }
        var s = 0.0
        for v in x { s += Double(v) * Double(v) }
        return Float((s / Double(x.count)).squareRoot())
    }

    /// A drum mix "mastered" like a release: scaled so single main hits (the
    /// synthesiser's voices peak at their gain) peak at −1 dBFS, then a
    /// memoryless soft limiter (transparent below 0.8) keeps overlapping hits
    /// under full scale.
    static func mastered(_ x: [Float]) -> [Float] {
        let g = amplitude(dB: -1)
        return x.map { v in
            let a = abs(v * g)
            let y = a <= 0.8 ? a : 0.8 + 0.2 * tanh((a - 0.8) / 0.2)
            return v < 0 ? -y : y
        }
    }

    /// `x` scaled so its peak is at `dBFS`.
    static func normalised(_ x: [Float], peakDBFS: Double) -> [Float] {
        let g = amplitude(dB: peakDBFS) / max(1e-12, peak(x))
        return x.map { $0 * g }
    }

    /// `x` through a 2-pole Butterworth high-pass at `hp` Hz and a 2-pole low-pass at `lp` Hz
    /// (12 dB/octave, like sox's `highpass`/`lowpass`).
    static func bandLimited(_ x: [Float], highPass hp: Double, lowPass lp: Double) -> [Float] {
        var out = x
        var filters = [Biquad(.highPass, frequency: hp, sampleRate: rate), Biquad(.lowPass, frequency: lp, sampleRate: rate)]
        for i in filters.indices { filters[i].process(&out) }
        return out
    }

    /// `x` plus noise of `colour` at RMS `dBFS`.
    static func withNoise(_ x: [Float], _ colour: Noise.Colour, rmsDBFS: Double, seed: UInt64 = 3) -> [Float] {
        var n = Noise(colour, rmsDBFS: rmsDBFS, seed: seed)
        return x.map { $0 + n.next() }
    }

    /// Concatenation of segments.
    static func concat(_ parts: [[Float]]) -> [Float] { parts.flatMap { $0 } }

    /// `seconds` of a generator.
    static func take(_ g: some SignalGenerator, seconds: Double) -> [Float] {
        var g = g
        return g.render(count: Int(seconds * g.sampleRate))
    }

    /// Silence.
    static func silence(seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * rate)) }
}

/// Runs the whole analysis chain offline, exactly as `physarum analyze` does.
struct Analysis {
    var features: [AudioFeatures] = []
    var meters: [AnalysisMeters] = []

    init(_ samples: [Float], settings: AudioTuning = AudioTuning(), keepMeters: Bool = false,
         network: OnsetNetworkWeights? = OnsetNetworkWeights.shipped, candidates: Double? = nil) {
        let analyzer = Analyzer(layout: .standard(sampleRate: Signals.rate), settings: settings, network: network,
                                candidates: candidates)
        var f: [AudioFeatures] = []
        var m: [AnalysisMeters] = []
        f.reserveCapacity(samples.count / analyzer.layout.hop + 1)
        let source = SyntheticSource(Replay(samples), duration: Double(samples.count) / Signals.rate)
        _ = try? analyzer.run(source) { feat, a in
            f.append(feat)
            if keepMeters { m.append(a.meters) }
        }
        features = f
        meters = m
    }

    /// Series of one source's field.
    func series(_ id: AudioSourceID, _ field: KeyPath<SourceFeatures, Float>) -> [Float] {
        features.map { $0[id][keyPath: field] }
    }

    /// Times of the hops at which `full` onsets fired.
    var onsetTimes: [Double] { features.filter(\.onset).map(\.time) }

    /// Times at which `id`'s transient jumped (its onsets).
    func onsetTimes(_ id: AudioSourceID) -> [Double] {
        var out: [Double] = []
        var prev: Float = 0
        for f in features {
            let v = f[id].transient
            if v > prev + 1e-6 && (prev == 0 || v > prev * 1.0001) && !(out.last.map { f.time - $0 < 0.02 } ?? false) {
                out.append(f.time)
            }
            prev = v
        }
        return out
    }
}

/// A recorded signal as a generator (so it can go through `SyntheticSource`).
struct Replay: SignalGenerator {
    let sampleRate = Signals.rate
    let samples: [Float]
    var index = 0
    init(_ s: [Float]) { samples = s }
    mutating func next() -> Float {
        defer { index += 1 }
        return index < samples.count ? samples[index] : 0
    }
}
