import Engine
import Foundation

/// A deterministic endless signal: the synthetic source's sound.
public protocol SignalGenerator: Sendable {
    /// Samples per second.
    var sampleRate: Double { get }
    /// The next sample (mono, nominally −1 … 1).
    mutating func next() -> Float
}

extension SignalGenerator {
    /// The next `count` samples.
    public mutating func render(count: Int) -> [Float] {
        var out = [Float](repeating: 0, count: count)
        for i in 0..<count { out[i] = next() }
        return out
    }

    /// Writes the next `count` samples to `buffer[0..<count]`.
    public mutating func render(into buffer: inout [Float], count: Int) {
        precondition(count <= buffer.count)
        for i in 0..<count { buffer[i] = next() }
    }
}

/// A sine tone at `frequency` Hz and `dBFS` (a 0 dBFS sine has peak 1).
public struct Tone: SignalGenerator {
    public let sampleRate: Double
    /// Frequency in Hz.
    public var frequency: Double
    /// Peak amplitude.
    public var amplitude: Float
    private var phase = 0.0

    /// A tone; `dBFS` sets its level.
    public init(frequency: Double, dBFS: Double = -6, sampleRate: Double = 48000) {
        self.frequency = frequency
        self.sampleRate = sampleRate
        amplitude = AudioReactive.amplitude(dB: dBFS)
    }

    /// The next sample.
    public mutating func next() -> Float {
        let y = Float(sin(phase)) * amplitude
        phase += 2 * Double.pi * frequency / sampleRate
        if phase > 2 * Double.pi { phase -= 2 * Double.pi }
        return y
    }
}

/// White or pink noise at an RMS level in dBFS (RMS relative to full scale 1.0).
public struct Noise: SignalGenerator {
    /// Spectral colour.
    public enum Colour: String, Sendable { case white, pink }
    public let sampleRate: Double
    private let colour: Colour
    private let scale: Float
    private var white: SeededRandom
    private var pink: PinkNoise

    /// Noise of `colour` with RMS `rmsDBFS`.
    public init(_ colour: Colour, rmsDBFS: Double, seed: UInt64 = 7, sampleRate: Double = 48000) {
        self.colour = colour
        self.sampleRate = sampleRate
        white = SeededRandom(seed: seed)
        pink = PinkNoise(seed: seed)
        // Uniform −1…1 has RMS 1/√3; the pink generator's RMS is measured once.
        let unitRMS: Float = colour == .white ? 1 / 3.0.squareRoot().float : Self.pinkRMS
        scale = amplitude(dB: rmsDBFS) / unitRMS
    }

    /// RMS of `PinkNoise.next()` (measured over 2^20 samples of a fixed seed).
    static let pinkRMS: Float = {
        var p = PinkNoise(seed: 99)
        var sum = 0.0
        let n = 1 << 20
        for _ in 0..<n { let v = Double(p.next()); sum += v * v }
        return Float((sum / Double(n)).squareRoot())
    }()

    /// The next sample.
    public mutating func next() -> Float {
        (colour == .white ? white.bipolar() : pink.next()) * scale
    }
}

/// Short broadband clicks (3 ms decaying noise bursts) every `interval` seconds.
public struct Clicks: SignalGenerator {
    public let sampleRate: Double
    private let period: Int
    private let offset: Int
    private let amplitude: Float
    private var index = 0
    private var rng = SeededRandom(seed: 11)

    /// A click every `interval` s starting at `start` s, peak `dBFS`.
    public init(interval: Double, start: Double = 0, dBFS: Double = -6, sampleRate: Double = 48000) {
        self.sampleRate = sampleRate
        period = max(1, Int(interval * sampleRate))
        offset = Int(start * sampleRate)
        amplitude = AudioReactive.amplitude(dB: dBFS)
    }

    /// The next sample.
    public mutating func next() -> Float {
        defer { index += 1 }
        guard index >= offset else { return 0 }
        let age = (index - offset) % period
        let t = Double(age) / sampleRate
        guard t < 0.012 else { return 0 }
        // Sign-alternating start so the burst is broadband from its first sample.
        let v = age == 0 ? 1 : rng.bipolar()
        return v * amplitude * Float(exp(-t / 0.003))
    }
}

extension Double {
    var float: Float { Float(self) }
}
