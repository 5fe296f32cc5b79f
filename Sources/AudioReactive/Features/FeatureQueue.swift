import Synchronization

/// Every hop's `AudioFeatures` from the analysis thread to the render thread
/// (DESIGN.md: a queue, not just the latest snapshot, so no hit is lost
/// between frames). Wait-free; if the reader stalls for longer than the
/// capacity (≈ 2.7 s at 48 kHz), the oldest features are dropped.
///
/// Thread-safety: `push` from one producer thread, `drain` from one consumer thread.
public final class FeatureQueue: Sendable {
    private let ring: SPSCRing<AudioFeatures>

    /// A queue holding at least `capacity` hops.
    public init(capacity: Int = 1024) {
        ring = SPSCRing(capacity: capacity)
    }

    /// Producer: appends one hop's features. Never blocks or allocates.
    public func push(_ features: AudioFeatures) {
        ring.write(features)
    }

    /// Consumer: calls `body` for every queued hop, oldest first; returns how
    /// many there were. Never blocks or allocates.
    @discardableResult
    public func drain(_ body: (AudioFeatures) -> Void) -> Int {
        var total = 0
        withUnsafeTemporaryAllocation(of: AudioFeatures.self, capacity: 32) { buf in
            while true {
                let r = ring.read(into: buf)
                for i in 0..<r.count { body(buf[i]) }
                total += r.count
                if r.count < buf.count { break }
            }
        }
        return total
    }

    /// Hops dropped because the consumer fell behind (any thread).
    public var dropped: Int { ring.droppedTotal }
    /// Hops ever pushed (any thread).
    public var pushed: Int { ring.written }
}

extension AudioFeatures: RingElement {
    // Word 0: time bits; words 1…12: (level, transient, gate) × 8 as Float pairs; word 13: onset.
    static var wordCount: Int { 14 }

    func store(to words: UnsafeMutablePointer<Atomic<UInt64>>) {
        words[0].store(time.bitPattern, ordering: .relaxed)
        var bits = InlineArray<24, UInt32>(repeating: 0)
        for s in 0..<AudioSourceID.count {
            bits[3 * s] = sources[s].level.bitPattern
            bits[3 * s + 1] = sources[s].transient.bitPattern
            bits[3 * s + 2] = sources[s].gate.bitPattern
        }
        for i in 0..<12 {
            words[1 + i].store(UInt64(bits[2 * i]) | UInt64(bits[2 * i + 1]) << 32, ordering: .relaxed)
        }
        words[13].store(onset ? 1 : 0, ordering: .relaxed)
    }

    init(loadingFrom words: UnsafeMutablePointer<Atomic<UInt64>>) {
        self.init(time: Double(bitPattern: words[0].load(ordering: .relaxed)))
        var floats = InlineArray<24, Float>(repeating: 0)
        for i in 0..<12 {
            let w = words[1 + i].load(ordering: .relaxed)
            floats[2 * i] = Float(bitPattern: UInt32(truncatingIfNeeded: w))
            floats[2 * i + 1] = Float(bitPattern: UInt32(truncatingIfNeeded: w >> 32))
        }
        for s in 0..<AudioSourceID.count {
            sources[s] = SourceFeatures(level: floats[3 * s], transient: floats[3 * s + 1], gate: floats[3 * s + 2])
        }
        onset = words[13].load(ordering: .relaxed) != 0
    }
}
