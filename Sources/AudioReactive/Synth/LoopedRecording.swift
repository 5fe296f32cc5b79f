/// A recording played over and over: the samples of an audio file (mono,
/// at the file's rate), so a recorded stream can drive the live analysis in
/// real time without a sound server (`physarum --play FILE`).
public struct LoopedRecording: SignalGenerator {
    public let sampleRate: Double
    /// The recording's samples (never empty).
    public let samples: [Float]
    private var index = 0

    /// Loops `samples` (at least one) at `sampleRate`.
    public init(samples: [Float], sampleRate: Double) {
        precondition(!samples.isEmpty, "a recording needs samples")
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Reads the whole file at `path` (WAV/FLAC/OGG, channels averaged).
    /// Throws, naming the file, when it cannot be read, holds no samples, or
    /// is longer than `maxSeconds` (the samples stay in memory).
    public init(path: String, maxSeconds: Double = 1200) throws(AudioSourceError) {
        let file = try FileSource(path: path)
        let seconds = Double(file.frames) / file.sampleRate
        guard seconds <= maxSeconds else {
            throw AudioSourceError("\(path): \(Int(seconds)) s long; at most \(Int(maxSeconds)) s can be looped")
        }
        var all: [Float] = []
        all.reserveCapacity(Int(file.frames))
        var block = [Float](repeating: 0, count: 65_536)
        while true {
            let r = try file.read(into: &block)
            all.append(contentsOf: block[0..<r.count])
            if r.isEnd || r.count == 0 { break }
        }
        guard !all.isEmpty else { throw AudioSourceError("\(path): the file holds no samples") }
        self.init(samples: all, sampleRate: file.sampleRate)
    }

    public mutating func next() -> Float {
        let s = samples[index]
        index = index + 1 == samples.count ? 0 : index + 1
        return s
    }
}
