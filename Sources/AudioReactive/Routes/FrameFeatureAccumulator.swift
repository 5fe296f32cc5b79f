/// Folds the analysis hops that arrived since the last rendered frame into
/// the one `AudioFeatures` the Modulator uses for that frame (DESIGN.md's
/// frame rule): each source's `level` and `gate` are their values at the last
/// hop, its `transient` is the maximum over the frame's hops (so a hit is
/// never lost between frames), `onset` is set when any hop had one, and
/// `time` is the last hop's. A frame with no new hop repeats the last hop's
/// values. A pure value; owned by the render thread.
public struct FrameFeatureAccumulator: Sendable {
    private var last = AudioFeatures.silent
    private var peak = InlineArray<8, Float>(repeating: 0)
    private var onset = false
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
        last = hop
        hops += 1
    }

    /// The features for the frame being rendered; starts the next frame.
    public mutating func takeFrame() -> AudioFeatures {
        var f = last
        if hops > 0 {
            for i in 0..<AudioSourceID.count { f.sources[i].transient = peak[i] }
            f.onset = onset
        } else {
            f.onset = false
        }
        hops = 0
        onset = false
        return f
    }

    /// Forgets everything (e.g. when the audio source changes).
    public mutating func reset() { self = FrameFeatureAccumulator() }
}
