/// Frame timing over a sliding window: fps, p50/p99 frame time and the
/// split into simulation, render, upload/present and UI. Pure value type; the
/// loop feeds it one `FrameTiming` per frame.
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

    public init(window: Int = 240) {
        ring = Array(repeating: FrameTiming(), count: max(1, window))
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

    /// Frames per second from the mean frame time.
    public var fps: Double {
        let m = meanSplit.total
        return m > 0 ? 1000 / m : 0
    }
}
