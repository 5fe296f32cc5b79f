/// The path from sound to picture as parts (seconds), for the audio panel
/// and `--stats` (docs/live-control.md "Latency"):
///
/// - `capture`: what the sound server reports for the capture stream (the
///   source's own latency plus its buffering), nil when it does not say;
/// - `analysis`: the analysis decision delay — from a sound's first sample
///   to the hop whose features carry it (half the analysis window, where
///   the onset detector's spectrum has taken in half the hit, plus one hop),
///   then the wait in the feature queue until a frame drains it (measured:
///   the mean age of the hops a frame drains — the newest hop's age plus
///   half the span of the hops drained);
/// - `frame`: from the frame draining the features to its present (the
///   swap; measured);
/// - `offset`: the visual offset the user dialled in (delays the modulation).
///
/// `total` is their sum. The measured parts are exponential means over
/// about one second of frames.
public struct LatencyReadout: Equatable, Sendable {
    public var capture: Double?
    public var analysisWindow: Double
    public private(set) var queueWait = 0.0
    public private(set) var frame = 0.0
    public var offset = 0.0
    private var frames = 0

    /// A readout for an analysis whose decision delay is `analysisWindow` seconds.
    public init(analysisWindow: Double) {
        self.analysisWindow = analysisWindow
    }

    /// The analysis part: decision delay plus the queue wait.
    public var analysis: Double { analysisWindow + queueWait }

    /// Sum of the parts (capture counted as 0 when unknown).
    public var total: Double { (capture ?? 0) + analysis + frame + offset }

    /// One frame's measurements: the newest hop's age when the frame drained
    /// it (seconds; nil when no hop came) and drain → present.
    public mutating func add(queueWait q: Double?, drainToPresent d: Double) {
        frames += 1
        let a = frames < 60 ? 1 / Double(frames) : 1.0 / 60
        if let q, q.isFinite, q >= 0 { queueWait += a * (q - queueWait) }
        if d.isFinite, d >= 0 { frame += a * (d - frame) }
    }

    /// "capture 20.0 + analysis 13.1 + frame 9.5 + offset 0 = 42.6 ms".
    public var summary: String {
        func ms(_ s: Double) -> String { String(format: "%.1f", s * 1000) }
        let c = capture.map(ms) ?? "?"
        return "capture \(c) + analysis \(ms(analysis)) + frame \(ms(frame)) + offset \(ms(offset)) = \(ms(total)) ms"
    }
}
