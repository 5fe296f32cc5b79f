/// The last `capacity` values of a series, kept both in arrival order and
/// sorted, so quantiles (median, quartiles) of a sliding window cost one
/// binary search and one memmove per new value. Allocates only in `init`.
struct SortedWindow {
    private var ring: [Float]
    private var sorted: [Float]
    private var next = 0
    let capacity: Int

    /// A window of `capacity` values, all `initial` to begin with.
    init(capacity: Int, initial: Float = 0) {
        precondition(capacity > 0)
        self.capacity = capacity
        ring = [Float](repeating: initial, count: capacity)
        sorted = ring
    }

    /// An empty window that fills up to `capacity` values before dropping any.
    init(emptyWithCapacity capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        ring = []
        ring.reserveCapacity(capacity)
        sorted = []
        sorted.reserveCapacity(capacity)
    }

    /// Number of values held (≤ capacity).
    var count: Int { sorted.count }

    /// Adds `x`, dropping the oldest value when full.
    mutating func add(_ x: Float) {
        if ring.count < capacity {
            ring.append(x)
        } else {
            let old = ring[next]
            ring[next] = x
            next = (next + 1) % capacity
            sorted.remove(at: Self.lowerBound(sorted, old))
        }
        sorted.insert(x, at: Self.lowerBound(sorted, x))
    }

    /// The q-quantile (0…1) by nearest rank, or 0 when empty.
    func quantile(_ q: Float) -> Float {
        guard !sorted.isEmpty else { return 0 }
        let i = Int((q * Float(sorted.count - 1)).rounded())
        return sorted[max(0, min(sorted.count - 1, i))]
    }


    private static func lowerBound(_ a: [Float], _ x: Float) -> Int {
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if a[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
