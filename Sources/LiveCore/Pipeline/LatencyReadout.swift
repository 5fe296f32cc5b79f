/// The path from sound to picture as measured parts (seconds), for the
/// panels and `--stats` (docs/live-control.md "Latency"). Every part is
/// measured on the running app, most of them per onset — the frame that
/// shows an onset knows when its hit began, when its hop was decided and
/// queued, when the frame took it and when the frame was presented:
///
/// - `capture`: what the sound server reports for the capture stream (the
///   source's latency plus the stream's buffer), plus the wait of the onset's
///   decision sample for the rest of the batch the capture delivered it in;
/// - `analysis`: from the hit's first sample to the end of the hop whose
///   features carry the onset (the actual decision, on the sample clock);
/// - `queue`: from that hop being queued to the frame taking it (the
///   post-chain latch just before the render, or the frame start);
/// - `frame`: from the frame taking the features to its present (the swap);
/// - `offset`: the visual offset the user dialled in (delays the modulation).
///
/// `total` is their sum. Until onsets are seen, `analysis` is the layout's
/// shortest decision (`analysisWindow`), `queue` the mean age of the hops
/// each frame takes and `frame` every frame's latch-to-present. Parts are
/// running means over about the last 8 onsets (before the first, over about
/// 60 frames). `frame` is the onsets' own: a hop that arrives after a frame's
/// late latch is taken at the next frame's start, and that onset's frame part
/// holds the whole frame (simulation included), not only the post chain and
/// the present that follow the late latch — the mean over every frame read
/// 11 ms where the onsets' own was 19 ms, and the total 6 ms under what a
/// camera on the screen measures (scripts/latency-probe).
public struct LatencyReadout: Equatable, Sendable {
    /// The server's capture latency (source + stream buffer), seconds; nil when it does not say.
    public var server: Double?
    public var offset = 0.0
    public private(set) var batchTail = 0.0
    public private(set) var decision: Double
    public private(set) var queue = 0.0
    /// Every frame's latch-to-present; the onsets' own frame part.
    private var everyFrame = 0.0, onsetFrame = 0.0
    public var frame: Double { onsets == 0 ? everyFrame : onsetFrame }
    /// Onsets measured so far.
    public private(set) var onsets = 0
    private var frames = 0

    /// A readout whose analysis part starts at `analysisWindow` seconds.
    public init(analysisWindow: Double) {
        decision = analysisWindow
    }

    public var capture: Double { (server ?? 0) + batchTail }
    public var analysis: Double { decision }
    /// Sum of the parts.
    public var total: Double { capture + analysis + queue + frame + offset }

    /// One frame: from taking the features to the present, and (until onsets
    /// are measured) the mean age of the hops it took.
    public mutating func addFrame(latchToPresent d: Double, hopAge q: Double?) {
        frames += 1
        let a = frames < 60 ? 1 / Double(frames) : 1.0 / 60
        if d.isFinite, d >= 0 { everyFrame += a * (d - everyFrame) }
        if onsets == 0, let q, q.isFinite, q >= 0 { queue += a * (q - queue) }
    }

    /// One onset shown on screen, its parts measured; returns them with the total.
    @discardableResult
    public mutating func addOnset(batchTail tail: Double, decision dec: Double, queue q: Double,
                                  frame f: Double) -> MeasuredOnset {
        onsets += 1
        let a = onsets < 8 ? 1 / Double(onsets) : 1.0 / 8
        if tail.isFinite, tail >= 0 { batchTail += a * (tail - batchTail) }
        if dec.isFinite, dec >= 0 { decision += a * (dec - decision) }
        if q.isFinite, q >= 0 { queue += a * (q - queue) }
        if f.isFinite, f >= 0 { onsetFrame += a * (f - onsetFrame) }
        return MeasuredOnset(capture: (server ?? 0) + tail, analysis: dec, queue: q, frame: f, offset: offset)
    }

    /// "capture 1.2 + analysis 4.0 + queue 3.1 + frame 6.0 + offset 0 = 14.3 ms (12 onsets measured)".
    public var summary: String {
        func ms(_ s: Double) -> String { String(format: "%.1f", s * 1000) }
        let c = server == nil && onsets == 0 ? "?" : ms(capture)
        let n = onsets == 0 ? "no onset measured yet" : "\(onsets) onsets measured"
        return "capture \(c) + analysis \(ms(analysis)) + queue \(ms(queue)) + frame \(ms(frame)) + offset \(ms(offset)) "
            + "= \(ms(total)) ms (\(n))"
    }
}

/// One onset's path from sound to picture, seconds.
public struct MeasuredOnset: Equatable, Sendable {
    public var capture: Double, analysis: Double, queue: Double, frame: Double, offset: Double
    public var total: Double { capture + analysis + queue + frame + offset }
}
