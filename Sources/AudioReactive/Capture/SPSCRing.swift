import Synchronization

/// A value that can live in an `SPSCRing`: stored as a fixed number of
/// 64-bit words written and read with relaxed atomics (so a reader racing an
/// overwrite reads stale or new words, never undefined memory; the ring's
/// sequence check then discards it).
protocol RingElement {
    /// Words per element.
    static var wordCount: Int { get }
    /// Writes this value into `words[0..<wordCount]`.
    func store(to words: UnsafeMutablePointer<Atomic<UInt64>>)
    /// Reads a value from `words[0..<wordCount]`.
    init(loadingFrom words: UnsafeMutablePointer<Atomic<UInt64>>)
}

/// The result of one `SPSCRing.read`.
struct RingRead {
    /// Elements copied to the front of the destination.
    var count: Int
    /// Absolute index (elements ever written before it) of the first one copied.
    var firstIndex: Int
    /// Elements skipped since the previous read (overwritten before they were read).
    var dropped: Int
}

/// A wait-free single-producer / single-consumer ring that never blocks the
/// producer: when the consumer falls behind, the oldest elements are
/// overwritten (dropped) and the consumer skips them, so nothing queues up
/// (no latency creep) and absolute indices — the sample clock — keep counting.
///
/// Protocol (a sequence lock over indices): the producer announces
/// `reserved = head + n`, issues a release fence, stores the elements with
/// relaxed atomics, then publishes `head` with release. The consumer loads
/// `head` (acquire), copies, issues an acquire fence and reloads `reserved`:
/// an element at index i is intact iff i ≥ reserved − capacity.
///
/// Thread-safety: `write` from one producer thread, `read` from one consumer
/// thread, `written`/`droppedTotal` from any thread.
final class SPSCRing<Element: RingElement>: @unchecked Sendable {
    /// Slots (a power of two).
    let capacity: Int
    private let words: UnsafeMutablePointer<Atomic<UInt64>>
    private let head = Atomic<Int>(0)
    private let reserved = Atomic<Int>(0)
    private let dropCount = Atomic<Int>(0)
    /// Consumer-only: the next index to read.
    private var tail = 0

    /// A ring of at least `capacity` elements (rounded up to a power of two).
    init(capacity: Int) {
        var c = 1
        while c < max(2, capacity) { c <<= 1 }
        self.capacity = c
        let total = c * Element.wordCount
        words = .allocate(capacity: total)
        for i in 0..<total { (words + i).initialize(to: Atomic<UInt64>(0)) }
    }

    deinit {
        words.deinitialize(count: capacity * Element.wordCount)
        words.deallocate()
    }

    /// Elements ever written (any thread).
    var written: Int { head.load(ordering: .acquiring) }
    /// Elements ever dropped because the consumer fell behind (any thread).
    var droppedTotal: Int { dropCount.load(ordering: .relaxed) }

    /// Producer: appends `elements`. Never blocks, never allocates. If more
    /// than `capacity` are given, only the newest `capacity` are stored (the
    /// rest count as written and dropped).
    func write(_ elements: UnsafeBufferPointer<Element>) {
        let n = elements.count
        guard n > 0 else { return }
        let h = head.load(ordering: .relaxed)
        let end = h + n
        reserved.store(end, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        let keep = min(n, capacity)
        let w = Element.wordCount
        for j in (n - keep)..<n {
            let slot = (h + j) & (capacity - 1)
            elements[j].store(to: words + slot * w)
        }
        head.store(end, ordering: .releasing)
    }

    /// Producer: appends one element.
    func write(_ element: Element) {
        withUnsafePointer(to: element) { write(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// Consumer: copies the oldest unread elements (up to `destination.count`)
    /// to the front of `destination`, skipping any that were overwritten.
    func read(into destination: UnsafeMutableBufferPointer<Element>) -> RingRead {
        let h = head.load(ordering: .acquiring)
        var start = max(tail, h - capacity)
        let n = min(h - start, destination.count)
        guard n > 0 else {
            let dropped = start - tail
            tail = start
            if dropped > 0 { dropCount.add(dropped, ordering: .relaxed) }
            return RingRead(count: 0, firstIndex: start, dropped: dropped)
        }
        let w = Element.wordCount
        for j in 0..<n {
            let slot = (start + j) & (capacity - 1)
            destination[j] = Element(loadingFrom: words + slot * w)
        }
        atomicMemoryFence(ordering: .acquiring)
        let r = reserved.load(ordering: .relaxed)
        let intactFrom = r - capacity
        var count = n
        if intactFrom > start { // the oldest copies may be torn by a concurrent overwrite
            let torn = min(n, intactFrom - start)
            count = n - torn
            if count > 0 {
                for j in 0..<count { destination[j] = destination[j + torn] }
            }
            start += torn
        }
        let dropped = start - tail
        if dropped > 0 { dropCount.add(dropped, ordering: .relaxed) }
        tail = start + count
        return RingRead(count: count, firstIndex: start, dropped: dropped)
    }

    /// Consumer: elements written but not yet read (may exceed capacity when behind).
    var backlog: Int { head.load(ordering: .acquiring) - tail }
}

extension Float: RingElement {
    static var wordCount: Int { 1 }
    func store(to words: UnsafeMutablePointer<Atomic<UInt64>>) {
        words[0].store(UInt64(bitPattern), ordering: .relaxed)
    }
    init(loadingFrom words: UnsafeMutablePointer<Atomic<UInt64>>) {
        self.init(bitPattern: UInt32(truncatingIfNeeded: words[0].load(ordering: .relaxed)))
    }
}
