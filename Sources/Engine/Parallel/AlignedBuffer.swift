/// A fixed-size, 64-byte-aligned, zero-initialised buffer of trivial values,
/// owned by a class so hot loops can hoist its base pointer. The pointer is
/// only handed out inside Engine (never in public API).
///
/// Thread safety: none of its own. Passes write disjoint ranges from worker
/// threads under `WorkerPool.run`, which orders them with the caller.
final class AlignedBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    let count: Int
    let base: UnsafeMutablePointer<Element>

    init(count: Int) {
        precondition(count >= 0)
        self.count = count
        let bytes = max(1, count * MemoryLayout<Element>.stride)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        base = raw.bindMemory(to: Element.self, capacity: max(1, count))
    }

    deinit { UnsafeMutableRawPointer(base).deallocate() }

    /// The whole buffer as a mutable buffer pointer.
    var buffer: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }

    /// Sets every element to zero bits.
    func zero() {
        UnsafeMutableRawPointer(base).initializeMemory(as: UInt8.self, repeating: 0, count: count * MemoryLayout<Element>.stride)
    }

    @inline(__always) subscript(i: Int) -> Element {
        get { base[i] }
        set { base[i] = newValue }
    }

    /// A copy of the contents as an array.
    var array: [Element] { Array(buffer) }
}
