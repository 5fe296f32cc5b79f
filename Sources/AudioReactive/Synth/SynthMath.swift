import Engine
import Foundation

/// A second-order IIR filter (direct form I) with the usual low-pass,
/// high-pass and band-pass designs from the bilinear transform.
public struct Biquad: Sendable {
    private var b0: Float = 1, b1: Float = 0, b2: Float = 0, a1: Float = 0, a2: Float = 0
    private var x1: Float = 0, x2: Float = 0, y1: Float = 0, y2: Float = 0

    /// Filter shapes.
    public enum Kind: Sendable { case lowPass, highPass, bandPass }

    /// A filter of `kind` at `frequency` Hz with quality `q` (0.7071 = Butterworth).
    public init(_ kind: Kind, frequency: Double, q: Double = 0.70710678, sampleRate: Double) {
        let w = 2 * Double.pi * min(frequency, sampleRate * 0.49) / sampleRate
        let alpha = sin(w) / (2 * q), c = cos(w)
        let a0 = 1 + alpha
        var nb0: Double, nb1: Double, nb2: Double
        switch kind {
        case .lowPass: nb0 = (1 - c) / 2; nb1 = 1 - c; nb2 = (1 - c) / 2
        case .highPass: nb0 = (1 + c) / 2; nb1 = -(1 + c); nb2 = (1 + c) / 2
        case .bandPass: nb0 = alpha; nb1 = 0; nb2 = -alpha
        }
        b0 = Float(nb0 / a0); b1 = Float(nb1 / a0); b2 = Float(nb2 / a0)
        a1 = Float(-2 * c / a0); a2 = Float((1 - alpha) / a0)
    }

    /// Filters one sample.
    public mutating func process(_ x: Float) -> Float {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1; x1 = x; y2 = y1; y1 = y
        return y
    }

    /// Filters a whole signal in place.
    public mutating func process(_ signal: inout [Float]) {
        for i in signal.indices { signal[i] = process(signal[i]) }
    }
}

/// Pink (1/f) noise: the sum of white-noise rows updated at octave-spaced
/// rates (the Voss–McCartney scheme), plus a white row; about −3 dB per octave.
public struct PinkNoise: Sendable {
    private var rng: SeededRandom
    private var rows = InlineArray<16, Float>(repeating: 0)
    private var total: Float = 0
    private var counter: UInt32 = 0

    /// Pink noise from `seed`.
    public init(seed: UInt64) {
        rng = SeededRandom(seed: seed)
        for i in 0..<16 {
            rows[i] = rng.bipolar()
            total += rows[i]
        }
    }

    /// The next sample, roughly −1 … 1 (RMS ≈ 0.14; scale as needed).
    public mutating func next() -> Float {
        counter &+= 1
        let row = min(15, counter.trailingZeroBitCount)
        total -= rows[row]
        rows[row] = rng.bipolar()
        total += rows[row]
        return (total + rng.bipolar()) / 17
    }
}

/// Decibels to linear amplitude.
@inlinable public func amplitude(dB: Double) -> Float { Float(pow(10, dB / 20)) }

/// Frequency in Hz of a MIDI note number (69 = A4 = 440 Hz).
@inlinable public func noteFrequency(_ midi: Double) -> Double { 440 * pow(2, (midi - 69) / 12) }
