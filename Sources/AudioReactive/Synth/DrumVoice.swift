import Engine
import Foundation

/// The drum sounds of the built-in synthesiser.
public enum DrumKind: String, CaseIterable, Sendable, Codable {
    case kick, snare, clap, closedHat, openHat, rim
}

/// One sounding drum hit: a small synthesis recipe per kind (sine sweeps,
/// filtered noise bursts, exponential envelopes), calibrated so its peak
/// amplitude ≈ `gain`.
/// Starts with a 0.3 ms ramp (no click from a jump), ends with a 10 ms fade.
struct DrumVoice: Sendable {
    let kind: DrumKind
    let gain: Float
    private(set) var age = 0
    let length: Int
    private let rate: Double
    private var rng: SeededRandom
    private var phase = 0.0
    private var filterA: Biquad
    private var filterB: Biquad

    /// Envelope decay time constant per kind, seconds.
    static func decay(_ k: DrumKind) -> Double {
        switch k {
        case .kick: 0.2
        case .snare: 0.05
        case .clap: 0.09
        case .closedHat: 0.022
        case .openHat: 0.22
        case .rim: 0.015
        }
    }

    /// Median peak of each kind at gain 1 before calibration (over 15 noise
    /// seeds, 48 kHz), so that `gain` is the voice's typical peak amplitude.
    static let rawPeak: [DrumKind: Float] = {
        var out: [DrumKind: Float] = [:]
        for k in DrumKind.allCases {
            var peaks: [Float] = []
            for seed in 1...15 {
                var v = DrumVoice(kind: k, gain: 1, seed: UInt64(seed), sampleRate: 48000, calibrated: false)
                var p: Float = 0
                for _ in 0..<min(v.length, 9600) { p = max(p, abs(v.next())) }
                peaks.append(p)
            }
            out[k] = peaks.sorted()[peaks.count / 2]
        }
        return out
    }()

    init(kind: DrumKind, gain: Float, seed: UInt64, sampleRate: Double, calibrated: Bool = true) {
        self.kind = kind
        self.gain = calibrated ? gain / (Self.rawPeak[kind] ?? 1) : gain
        rate = sampleRate
        rng = SeededRandom(seed: seed)
        // Until the envelope is 80 dB down (plus the clap's late bursts).
        length = Int((Self.decay(kind) * 9.2 + (kind == .clap ? 0.02 : 0)) * sampleRate)
        switch kind {
        case .kick:
            filterA = Biquad(.highPass, frequency: 1500, sampleRate: sampleRate)
            filterB = Biquad(.lowPass, frequency: 8000, sampleRate: sampleRate)
        case .snare:
            filterA = Biquad(.highPass, frequency: 900, sampleRate: sampleRate)
            filterB = Biquad(.lowPass, frequency: 9000, sampleRate: sampleRate)
        case .clap:
            filterA = Biquad(.bandPass, frequency: 1200, q: 1.2, sampleRate: sampleRate)
            filterB = Biquad(.highPass, frequency: 500, sampleRate: sampleRate)
        case .closedHat, .openHat:
            filterA = Biquad(.highPass, frequency: 3000, q: 0.7, sampleRate: sampleRate)
            filterB = Biquad(.highPass, frequency: 2000, sampleRate: sampleRate)
        case .rim:
            filterA = Biquad(.bandPass, frequency: 2500, q: 3, sampleRate: sampleRate)
            filterB = Biquad(.highPass, frequency: 300, sampleRate: sampleRate)
        }
    }

    /// True when the voice has finished sounding.
    var finished: Bool { age >= length }

    /// The next sample.
    mutating func next() -> Float {
        let t = Double(age) / rate
        let ramp = Float(min(1, t / 0.0003))
        let fade = Float(min(1, Double(length - age) / (0.01 * rate)))
        age += 1
        let tau = Self.decay(kind)
        let env = Float(exp(-t / tau))
        var y: Float
        switch kind {
        case .kick:
            let f = 48 + 130 * exp(-t / 0.03)
            phase += 2 * Double.pi * f / rate
            let click = filterA.process(rng.bipolar()) * Float(exp(-t / 0.0012)) * 0.6
            let body = Float(sin(phase)) * env
            y = Float(tanh(1.3 * Double(body + click)) / tanh(1.3))
        case .snare:
            let body = (0.55 * sin(2 * Double.pi * 185 * t) + 0.3 * sin(2 * Double.pi * 330 * t)) * exp(-t / 0.045)
            let noise = filterB.process(filterA.process(rng.bipolar())) * env * 1.1
            y = Float(body) + noise
        case .clap:
            var e = exp(-t / 0.006)
            if t >= 0.009 { e += exp(-(t - 0.009) / 0.006) }
            if t >= 0.018 { e += exp(-(t - 0.018) / 0.006) + 0.5 * exp(-(t - 0.018) / tau) }
            y = filterB.process(filterA.process(rng.bipolar())) * Float(e) * 2.2
        case .closedHat, .openHat:
            y = filterB.process(filterA.process(rng.bipolar())) * env * 1.3
        case .rim:
            let tone = sin(2 * Double.pi * 820 * t) * exp(-t / 0.012)
            y = Float(tone) * 0.6 + filterB.process(filterA.process(rng.bipolar())) * env * 1.5
        }
        return y * gain * ramp * fade
    }
}

/// A set of sounding drum voices mixed together (at most `maxVoices`; the
/// oldest is cut when more are triggered).
struct DrumRack: Sendable {
    static let maxVoices = 48
    private var voices: [DrumVoice] = []
    let sampleRate: Double

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        voices.reserveCapacity(Self.maxVoices)
    }

    /// Starts a hit now.
    mutating func trigger(_ kind: DrumKind, gain: Float, seed: UInt64) {
        if voices.count >= Self.maxVoices { voices.remove(at: 0) }
        // A closed hat chokes a ringing open hat, as on a real kit.
        if kind == .closedHat { voices.removeAll { $0.kind == .openHat } }
        voices.append(DrumVoice(kind: kind, gain: gain, seed: seed, sampleRate: sampleRate))
    }

    /// The next mixed sample.
    mutating func next() -> Float {
        var sum: Float = 0
        var i = 0
        while i < voices.count {
            sum += voices[i].next()
            if voices[i].finished { voices.remove(at: i) } else { i += 1 }
        }
        return sum
    }
}
