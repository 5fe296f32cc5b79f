/// Folds the analysis hops that arrived since the last rendered frame into
/// the one `AudioFeatures` the Modulator uses for that frame (DESIGN.md's
/// frame rule): each source's `level` and `gate` are their values at the last
/// hop, its `transient` is the maximum over the frame's hops (so a hit is
/// never lost between frames), `onset` is set when any hop had one, and
/// `time` is the last hop's; the beat pulses are their maxima and `beat`/`bar`
/// are set when any hop had one (tempo and phase: the last hop's). A frame with no new hop repeats the last hop's
/// values. A pure value; owned by the render thread.
public struct FrameFeatureAccumulator: Sendable {
    private var last = AudioFeatures.silent
    private var peak = InlineArray<8, Float>(repeating: 0)
    private var onset = false
    private var beat = BeatFeatures()
    private var hops = 0

    public init() {}

    /// Hops added since the last `takeFrame()`.
    public var pendingHops: Int { hops }

    /// Adds one hop (in time order).
    public mutating func add(_ hop: AudioFeatures) {
        for i in 0..<AudioSourceID.count {
            peak[i] = hops == 0 ? hop.sources[i].transient : max(peak[i], hop.sources[i].transient)
        }
        onset = onset || hop.onset
        let b = hop.beat
        if hops == 0 { beat = b } else {
            beat.beatPulse = max(beat.beatPulse, b.beatPulse)
            beat.barPulse = max(beat.barPulse, b.barPulse)
            beat.beat = beat.beat || b.beat
            beat.bar = beat.bar || b.bar
        }
        last = hop
        hops += 1
    }

    /// The features for the frame being rendered; starts the next frame.
    public mutating func takeFrame() -> AudioFeatures {
        var f = last
        if hops > 0 {
            for i in 0..<AudioSourceID.count { f.sources[i].transient = peak[i] }
            f.onset = onset
            let b = f.beat
            f.beat = beat
            f.beat.tempo = b.tempo; f.beat.phase = b.phase; f.beat.confidence = b.confidence; f.beat.beatInBar = b.beatInBar
        } else {
            f.onset = false
            f.beat.beat = false
            f.beat.bar = false
        }
        hops = 0
        onset = false
        return f
    }

    /// What `takeFrame()` would return now, without starting the next frame.
    public func peekFrame() -> AudioFeatures {
        var copy = self
        return copy.takeFrame()
    }

    /// Forgets everything (e.g. when the audio source changes).
    public mutating func reset() { self = FrameFeatureAccumulator() }
}
