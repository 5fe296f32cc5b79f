import Engine
import Foundation

/// A band-limited sawtooth (polyBLEP-corrected), phase 0…1.
struct SawOscillator: Sendable {
    var phase: Double
    var frequency: Double

    init(frequency: Double, phase: Double = 0) {
        self.frequency = frequency
        self.phase = phase
    }

    mutating func next(sampleRate: Double) -> Float {
        let dt = frequency / sampleRate
        let t = phase
        var y = 2 * t - 1
        // Smooth the wrap over one sample on each side (polynomial band-limited step).
        if t < dt {
            let x = t / dt
            y -= x + x - x * x - 1
        } else if t > 1 - dt {
            let x = (t - 1) / dt
            y -= x * x + x + x + 1
        }
        phase += dt
        if phase >= 1 { phase -= 1 }
        return Float(y)
    }
}

/// Sustained pad chords changing legato (each chord fades in while the
/// previous fades out over `crossfade` seconds, raised-cosine), two detuned
/// saws per note through a low-pass, with gentle vibrato and swell; plus an
/// optional legato lead line that glides between notes without re-attack.
/// Soft-attack material with no onsets (the negative control of the onset
/// tests, and the pad of the demo groove).
public struct PadProgression: SignalGenerator {
    public let sampleRate: Double
    private let chords: [[Double]]
    private let chordSamples: Int
    private let fadeSamples: Int
    private let level: Float
    private let withLead: Bool
    private var index = 0
    private var layers: [[SawOscillator]] = [[], []]
    private var layerChord = [-1, -1]
    private var filter: Biquad
    private var filter2: Biquad
    // Lead line.
    private var rng: SeededRandom
    private var leadPhase = 0.0
    private var leadPitch = 69.0
    private var leadTarget = 69.0
    private var leadDegree = 0

    /// A minor-key progression (Am7 – Fmaj7 – C – G).
    public static let minorProgression: [[Double]] = [[57, 60, 64, 67], [53, 57, 60, 64], [55, 60, 64, 67], [55, 59, 62, 67]]

    /// Chords of MIDI notes, each held `chordSeconds`; overall RMS roughly `dBFS`.
    public init(chords: [[Double]] = PadProgression.minorProgression, chordSeconds: Double = 2, crossfade: Double = 0.25,
                dBFS: Double = -14, lead: Bool = true, seed: UInt64 = 5, sampleRate: Double = 48000) {
        self.sampleRate = sampleRate
        self.chords = chords
        chordSamples = Int(chordSeconds * sampleRate)
        fadeSamples = max(1, Int(crossfade * sampleRate))
        level = amplitude(dB: dBFS)
        withLead = lead
        rng = SeededRandom(seed: seed)
        filter = Biquad(.lowPass, frequency: 1600, sampleRate: sampleRate)
        filter2 = Biquad(.lowPass, frequency: 2400, sampleRate: sampleRate)
    }

    /// The next sample.
    public mutating func next() -> Float {
        let t = Double(index) / sampleRate
        let k = index / chordSamples
        let within = index - k * chordSamples
        let layer = k % 2
        if layerChord[layer] != k { startChord(k, layer: layer) }
        // Raised-cosine crossfade; the very first chord swells in over 1 s.
        let fadeIn = k == 0 ? Int(sampleRate) : fadeSamples
        let gNew = within < fadeIn ? 0.5 - 0.5 * cos(Double.pi * Double(within) / Double(fadeIn)) : 1
        let gOld = k > 0 && within < fadeSamples ? 1 - gNew : 0
        let vibrato = 1 + 0.004 * sin(2 * Double.pi * 5 * t)
        let sum = layerSample(layer, gNew, vibrato) + layerSample(1 - layer, gOld, vibrato)
        let swell = Float(1 + 0.15 * sin(2 * Double.pi * 0.25 * t))
        var y = filter2.process(filter.process(sum * 0.12)) * swell
        if withLead { y += leadSample(t) }
        index += 1
        return y * level * 2
    }

    private mutating func layerSample(_ l: Int, _ g: Double, _ vibrato: Double) -> Float {
        guard g > 0 else { return 0 }
        var s: Float = 0
        for i in layers[l].indices {
            let base = layers[l][i].frequency
            layers[l][i].frequency = base * vibrato
            s += layers[l][i].next(sampleRate: sampleRate)
            layers[l][i].frequency = base
        }
        return s * Float(g)
    }

    private mutating func startChord(_ k: Int, layer: Int) {
        let notes = chords[k % chords.count]
        layers[layer] = notes.flatMap { n in
            [SawOscillator(frequency: noteFrequency(n - 0.07), phase: 0.13 * n.truncatingRemainder(dividingBy: 1) + 0.3),
             SawOscillator(frequency: noteFrequency(n + 0.07), phase: 0.71)]
        }
        layerChord[layer] = k
    }

    private static let minorScale: [Double] = [0, 2, 3, 5, 7, 8, 10]

    /// A sine-ish lead walking the A-minor scale every 0.5 s, gliding 60 ms.
    private mutating func leadSample(_ t: Double) -> Float {
        let step = Int(0.5 * sampleRate)
        if index % step == 0 && index > 0 {
            leadDegree = max(-3, min(7, leadDegree + Int(rng.next() % 5) - 2))
            let octave = Double(leadDegree >= 0 ? leadDegree / 7 : (leadDegree - 6) / 7)
            let deg = ((leadDegree % 7) + 7) % 7
            leadTarget = 69 + 12 * octave + Self.minorScale[deg]
        }
        leadPitch += (leadTarget - leadPitch) * (1 - exp(-1 / (0.02 * sampleRate)))
        leadPhase += 2 * Double.pi * noteFrequency(leadPitch) / sampleRate
        if leadPhase > 2 * Double.pi { leadPhase -= 2 * Double.pi }
        let swellIn = min(1, t / 1.0)
        return Float((sin(leadPhase) + 0.2 * sin(2 * leadPhase)) * 0.12 * swellIn)
    }
}
