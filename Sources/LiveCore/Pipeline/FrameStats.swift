/// Frame timing over a sliding window: frames shown per second (from the
/// presents' timestamps), p50/p99 of the work time per frame and its split
/// into simulation, render, upload/present and UI. Pure value type; the
/// loop feeds it one `FrameTiming` per frame and the time of each present.
public struct FrameStats: Sendable {
    /// Milliseconds spent in each part of one frame.
    public struct FrameTiming: Sendable {
        public var total = 0.0
        public var sim = 0.0
        public var render = 0.0
        public var present = 0.0
        public var ui = 0.0

        /// A value with these members (defaults as declared).
        public init(total: Double = 0.0, sim: Double = 0.0, render: Double = 0.0, present: Double = 0.0, ui: Double = 0.0) {
            self.total = total
            self.sim = sim
            self.render = render
            self.present = present
            self.ui = ui
        }
    }

    private var ring: [FrameTiming]
    private var next = 0
    public private(set) var count = 0
    /// Times (seconds, any monotonic origin) of the recent presents, oldest first.
    private var presents: [Double] = []
    /// How far back `fps` looks.
    public static let fpsWindow = 1.0

    public init(window: Int = 240) {
        ring = Array(repeating: FrameTiming(), count: max(1, window))
    }

    /// A frame was shown at `time` (seconds).
    public mutating func presented(at time: Double) {
        presents.append(time)
        let cutoff = time - Self.fpsWindow
        if let first = presents.firstIndex(where: { $0 >= cutoff }), first > 1 { presents.removeFirst(first - 1) }
    }

    public mutating func add(_ t: FrameTiming) {
        ring[next] = t
        next = (next + 1) % ring.count
        count = min(count + 1, ring.count)
    }

    private var recent: ArraySlice<FrameTiming> {
        count < ring.count ? ring[0..<count] : ring[...]
    }

    /// Percentile (0…100) of total frame time in ms.
    public func percentile(_ p: Double) -> Double {
        let xs = recent.map(\.total).sorted()
        guard !xs.isEmpty else { return 0 }
        let i = min(xs.count - 1, max(0, Int((p / 100 * Double(xs.count - 1)).rounded())))
        return xs[i]
    }

    /// Mean of each part in ms.
    public var meanSplit: FrameTiming {
        var m = FrameTiming()
        let r = recent
        guard !r.isEmpty else { return m }
        for t in r {
            m.total += t.total; m.sim += t.sim; m.render += t.render; m.present += t.present; m.ui += t.ui
        }
        let n = Double(r.count)
        m.total /= n; m.sim /= n; m.render /= n; m.present /= n; m.ui /= n
        return m
    }

    /// Frames shown per second: presents over the last second (the
    /// intervals between them, so a paced loop reads its pace, not 1000 ÷
    /// its work time); 0 before two presents.
    public var fps: Double {
        guard let last = presents.last, presents.count >= 2 else { return 0 }
        let first = presents[0]
        return last > first ? Double(presents.count - 1) / (last - first) : 0
    }
}
