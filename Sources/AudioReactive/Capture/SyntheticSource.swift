import Foundation

/// A synthetic signal as an offline `AudioSource`: as fast as it is read,
/// for `duration` seconds (nil = endless).
public final class SyntheticSource: AudioSource {
    public let sampleRate: Double
    public let label: String
    private var generator: any SignalGenerator
    private var remaining: Int?

    /// Reads `generator` for `duration` seconds (nil = forever).
    public init(_ generator: any SignalGenerator, duration: Double?, label: String = "synthetic") {
        self.generator = generator
        sampleRate = generator.sampleRate
        remaining = duration.map { Int(($0 * generator.sampleRate).rounded()) }
        self.label = label
    }

    /// Generates the next samples.
    public func read(into buffer: inout [Float]) throws(AudioSourceError) -> AudioRead {
        let n = min(buffer.count, remaining ?? buffer.count)
        generator.render(into: &buffer, count: n)
        if let r = remaining { remaining = r - n }
        return AudioRead(count: n, isEnd: remaining == 0)
    }

    /// Parses a signal spec for `--synth`: `groove`, `drums[:BPM]`,
    /// `dnb[:BPM]`, `tone:HZ[:DBFS]`, `clicks:SECONDS[:DBFS]`,
    /// `noise:DBFS`, `pink:DBFS`, `pads`, `silence`.
    public static func generator(spec: String, seed: UInt64 = 1,
                                 sampleRate: Double = 48000) throws(AudioSourceError) -> any SignalGenerator {
        let parts = spec.split(separator: ":").map(String.init)
        func number(_ i: Int, _ fallback: Double, _ range: ClosedRange<Double>) throws(AudioSourceError) -> Double {
            guard i < parts.count else { return fallback }
            guard let v = Double(parts[i]), v.isFinite, range.contains(v) else {
                throw AudioSourceError("synthetic signal '\(spec)': '\(parts[i])' must be a number in \(range.lowerBound)...\(range.upperBound)")
            }
            return v
        }
        switch parts.first ?? "" {
        case "groove": return Groove(seed: seed, sampleRate: sampleRate)
        case "drums": return DrumMachine(pattern: .house(bpm: try number(1, 128, 40...300)), seed: seed, sampleRate: sampleRate)
        case "dnb": return DrumMachine(pattern: .drumAndBass(bpm: try number(1, 174, 40...300)), seed: seed, sampleRate: sampleRate)
        case "tone": return Tone(frequency: try number(1, 440, 1...(sampleRate / 2)), dBFS: try number(2, -6, -200...0), sampleRate: sampleRate)
        case "clicks": return Clicks(interval: try number(1, 0.5, 0.02...60), dBFS: try number(2, -6, -200...0), sampleRate: sampleRate)
        case "noise": return Noise(.white, rmsDBFS: try number(1, -30, -200...0), seed: seed, sampleRate: sampleRate)
        case "pink": return Noise(.pink, rmsDBFS: try number(1, -30, -200...0), seed: seed, sampleRate: sampleRate)
        case "pads": return PadProgression(seed: seed, sampleRate: sampleRate)
        case "silence": return Tone(frequency: 1, dBFS: -200, sampleRate: sampleRate)
        default:
            throw AudioSourceError("unknown synthetic signal '\(spec)' (known: groove, drums[:BPM], dnb[:BPM], tone:HZ[:DBFS], clicks:SECONDS[:DBFS], noise:DBFS, pink:DBFS, pads, silence)")
        }
    }
}
