/// DESIGN.md's frame rule for offline renders: frame N is shown at
/// t_N = N ÷ fps on the sample clock; its features are, per source, the
/// `level` (and `gate`) of the last hop with time ≤ t_N and the maximum
/// `transient` over the hops with time in (t_{N−1}, t_N] — a hop exactly at
/// t_N belongs to frame N, not N + 1. Frame 0 takes every hop ≤ t_0 = 0.
/// A frame with no hop in its interval repeats the last hop's values
/// (`FrameFeatureAccumulator`), as the live loop does when no hop arrived.
///
/// Hops come from a pull function (e.g. `OfflineAnalysis.nextHop`) in time
/// order; one hop past the frame is held back for the next frame. A pure
/// value; owned by one thread.
public struct FrameFeatureFeed: Sendable {
    /// Frames per second of the render.
    public let fps: Double
    /// The index of the frame the next `next` call returns.
    public private(set) var frame = 0
    private var accumulator = FrameFeatureAccumulator()
    private var held: AudioFeatures?
    private var exhausted = false

    /// A feed for a render at `fps` frames per second (> 0).
    public init(fps: Double) {
        precondition(fps > 0 && fps.isFinite, "fps must be positive")
        self.fps = fps
    }

    /// The sample-clock time of frame `n` at `fps`: n ÷ fps seconds.
    public static func time(ofFrame n: Int, fps: Double) -> Double { Double(n) / fps }

    /// Frames needed to show `samples` samples at `sampleRate` (the frames
    /// whose times lie before the end of the audio; at least 1).
    public static func frameCount(samples: Int64, sampleRate: Double, fps: Double) -> Int {
        let exact = Double(samples) * fps / sampleRate
        return Swift.max(1, Int(exact.rounded(.up)))
    }

    /// The features of frame `frame` (then the next frame), pulling hops from
    /// `nextHop` until one is later than the frame's time (or nil = no more hops).
    public mutating func next<E: Error>(pulling nextHop: () throws(E) -> AudioFeatures?) throws(E) -> AudioFeatures {
        let t = Self.time(ofFrame: frame, fps: fps)
        frame += 1
        if let h = held {
            guard h.time <= t else { return accumulator.takeFrame() }
            accumulator.add(h)
            held = nil
        }
        while !exhausted {
            guard let h = try nextHop() else {
                exhausted = true
                break
            }
            if h.time <= t {
                accumulator.add(h)
            } else {
                held = h
                break
            }
        }
        return accumulator.takeFrame()
    }
}
