import Synchronization

/// A fixed ring of preallocated frame buffers from one producer (the frame
/// loop) to one consumer (the encoder thread). Wait-free on both sides:
/// `push` copies into a free slot or returns false at once when all are taken;
/// nothing is allocated after init. A slot holds a frame of any size up to
/// `frameBytes`, with its width and height.
///
/// Invariant (why it is `@unchecked Sendable`): a slot's bytes, size and repeat
/// count are written only by the producer while the slot is free
/// (`tail − head < capacity`) and read only by the consumer while it is filled
/// (`head < tail`); ownership passes through the release/acquire stores and
/// loads of `tail` and `head`. One producer thread and one consumer thread.
final class FrameRing: @unchecked Sendable {
    let capacity: Int
    let frameBytes: Int
    private let storage: UnsafeMutableRawPointer
    private let repeats: UnsafeMutablePointer<Int>
    private let sizes: UnsafeMutablePointer<(width: Int, height: Int)>
    /// Next slot to consume (written by the consumer).
    private let head = Atomic<Int>(0)
    /// Next slot to fill (written by the producer).
    private let tail = Atomic<Int>(0)

    /// Allocates `capacity` buffers of `frameBytes` (zero-filled, so the pages exist before the first frame).
    init(capacity: Int, frameBytes: Int) {
        precondition(capacity > 0 && frameBytes > 0)
        self.capacity = capacity
        self.frameBytes = frameBytes
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity * frameBytes, alignment: 64)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: capacity * frameBytes)
        repeats = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        repeats.initialize(repeating: 0, count: capacity)
        sizes = UnsafeMutablePointer<(width: Int, height: Int)>.allocate(capacity: capacity)
        sizes.initialize(repeating: (0, 0), count: capacity)
    }

    deinit {
        storage.deallocate()
        repeats.deallocate()
        sizes.deallocate()
    }

    /// A filled slot as the consumer sees it.
    struct Slot {
        /// The frame's RGBA bytes (`width × height × 4`).
        var bytes: UnsafeRawBufferPointer
        var width: Int
        var height: Int
        /// How many times to write it.
        var repeats: Int
    }

    /// Producer: copies a `width × height` RGBA `frame` (at most `frameBytes`)
    /// into a free slot, to be written `count` times. False (nothing copied)
    /// when every slot is taken.
    func push(_ frame: UnsafeRawBufferPointer, width: Int, height: Int, count: Int) -> Bool {
        let bytes = width * height * 4
        precondition(bytes <= frameBytes && frame.count >= bytes, "frame larger than the ring's slots, or short")
        let t = tail.load(ordering: .relaxed)
        guard t - head.load(ordering: .acquiring) < capacity else { return false }
        let slot = t % capacity
        (storage + slot * frameBytes).copyMemory(from: frame.baseAddress!, byteCount: bytes)
        repeats[slot] = count
        sizes[slot] = (width, height)
        tail.store(t + 1, ordering: .releasing)
        return true
    }

    private func slot(_ i: Int) -> Slot {
        let (w, h) = sizes[i]
        return Slot(bytes: UnsafeRawBufferPointer(start: storage + i * frameBytes, count: w * h * 4), width: w, height: h, repeats: repeats[i])
    }

    /// Consumer: runs `body` on the oldest filled slot, then frees it. False
    /// when the ring is empty.
    func consume(_ body: (Slot) -> Void) -> Bool {
        let h = head.load(ordering: .relaxed)
        guard h < tail.load(ordering: .acquiring) else { return false }
        body(slot(h % capacity))
        head.store(h + 1, ordering: .releasing)
        return true
    }

    /// Consumer, once the producer has stopped for good: runs `body` on the
    /// bytes of the most recently consumed slot (still intact, since no push
    /// can overwrite it any more). False when nothing was ever consumed.
    /// The caller must have observed the producer's stop through an
    /// acquire load of a flag the producer stored with release after its last push.
    func withLastConsumed(_ body: (Slot) -> Void) -> Bool {
        let h = head.load(ordering: .relaxed)
        guard h > 0 else { return false }
        body(slot((h - 1) % capacity))
        return true
    }

    /// Filled slots right now (a snapshot; either thread).
    var count: Int { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) }
}
