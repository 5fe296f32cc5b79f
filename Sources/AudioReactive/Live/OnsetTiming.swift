/// When a live onset was decided, measured rather than assumed: the latency
/// readout's analysis part is the time from the hit's first sample to the
/// end of the hop whose features carry the onset, and its queue part starts
/// when that hop was queued.
public struct OnsetTiming: Sendable, Equatable {
    /// Sample-clock time of the onset hop (its features' `time`).
    public var hopTime: Double
    /// From the hit's first sample to the end of the decision hop, seconds.
    public var decision: Double
    /// How long the decision hop's last sample waited for the rest of the
    /// batch the capture delivered it in (seconds of later samples in it).
    public var batchTail: Double
    /// When the hop was queued for the render thread (`DispatchTime` uptime ns).
    public var queuedUptime: UInt64

    public init(hopTime: Double, decision: Double, batchTail: Double, queuedUptime: UInt64) {
        self.hopTime = hopTime
        self.decision = decision
        self.batchTail = batchTail
        self.queuedUptime = queuedUptime
    }
}

/// The recent samples of a live stream, indexed by the sample clock, and
/// where in them the hit behind an onset began. The samples before the
/// decision (`lookBack`) are cut into 1 ms blocks (their peak amplitude);
/// from the loudest block it walks back while blocks stay above the floor —
/// 30 dB below the hit's peak (TESTING.md's onset time), or twice the
/// quietest block before it when the hit sits on other sound — and the
/// hit's first sample is the first one above the floor in the earliest
/// such block.
///
/// A pure value owned by the analysing thread.
public struct HitStart: Sendable {
    /// Samples kept (a power of two, ≥ `lookBack`).
    public static let capacity = 4096
    /// How far back from the decision a hit is sought (≈ 43 ms at 48 kHz).
    public static let lookBack = 2048
    /// Samples per block (1 ms at 48 kHz).
    public static let block = 48
    /// 30 dB below the peak, as an amplitude ratio.
    public static let floorRatio: Float = 0.031_622_78

    private var ring = [Float](repeating: 0, count: HitStart.capacity)
    /// Sample-clock index of the next sample to be written.
    public private(set) var written = 0

    public init() {}

    /// Appends samples (in stream order).
    public mutating func append(_ samples: UnsafeBufferPointer<Float>) {
        let mask = Self.capacity - 1
        for s in samples {
            ring[written & mask] = s
            written += 1
        }
    }

    /// Skips `count` samples (dropped by the capture: the sample clock goes on).
    public mutating func skip(_ count: Int) {
        let mask = Self.capacity - 1
        for i in 0..<min(count, Self.capacity) { ring[(written + i) & mask] = 0 }
        written += count
    }

    /// The sample-clock index of the hit's first sample, for an onset decided
    /// at the hop that ends just before sample `end`; nil when those samples
    /// are not kept or silent.
    public func start(before end: Int) -> Int? {
        let blocks = Self.lookBack / Self.block
        let first = end - blocks * Self.block
        guard first >= 0, end <= written, written - first <= Self.capacity else { return nil }
        let mask = Self.capacity - 1
        var level = InlineArray<64, Float>(repeating: 0)
        var peakBlock = 0
        for b in 0..<blocks {
            var m: Float = 0
            for i in (first + b * Self.block)..<(first + (b + 1) * Self.block) { m = max(m, abs(ring[i & mask])) }
            level[b] = m
            if m > level[peakBlock] { peakBlock = b }
        }
        let peak = level[peakBlock]
        guard peak > 0 else { return nil }
        var quietest = Float.infinity
        for b in 0..<peakBlock { quietest = min(quietest, level[b]) }
        let floor = max(peak * Self.floorRatio, quietest.isFinite ? 2 * quietest : 0)
        var b = peakBlock
        while b > 0 && level[b - 1] > floor { b -= 1 }
        let from = first + b * Self.block
        for i in from..<(from + Self.block) where abs(ring[i & mask]) > floor { return i }
        return from
    }
}
