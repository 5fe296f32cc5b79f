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
    // Word 0: time bits; words 1…12: (level, transient, gate) × 8 as Float pairs; word 13: onset;
    // words 14…16: the beat tracker (tempo|phase, confidence|beatPulse, barPulse|flags: beat, bar,
    // held, beat in bar).
    static var wordCount: Int { 17 }

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
        func pair(_ a: UInt32, _ b: UInt32) -> UInt64 { UInt64(a) | UInt64(b) << 32 }
        let flags = UInt32(beat.beat ? 1 : 0) | UInt32(beat.bar ? 2 : 0) | UInt32(beat.held ? 4 : 0)
            | UInt32(truncatingIfNeeded: beat.beatInBar & 0xFF) << 8
        words[14].store(pair(beat.tempo.bitPattern, beat.phase.bitPattern), ordering: .relaxed)
        words[15].store(pair(beat.confidence.bitPattern, beat.beatPulse.bitPattern), ordering: .relaxed)
        words[16].store(pair(beat.barPulse.bitPattern, flags), ordering: .relaxed)
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
        func halves(_ w: UInt64) -> (UInt32, UInt32) { (UInt32(truncatingIfNeeded: w), UInt32(truncatingIfNeeded: w >> 32)) }
        let (tempo, phase) = halves(words[14].load(ordering: .relaxed))
        let (confidence, beatPulse) = halves(words[15].load(ordering: .relaxed))
        let (barPulse, flags) = halves(words[16].load(ordering: .relaxed))
        beat.tempo = Float(bitPattern: tempo)
        beat.phase = Float(bitPattern: phase)
        beat.confidence = Float(bitPattern: confidence)
        beat.beatPulse = Float(bitPattern: beatPulse)
        beat.barPulse = Float(bitPattern: barPulse)
        beat.beat = flags & 1 != 0
        beat.bar = flags & 2 != 0
        beat.held = flags & 4 != 0
        beat.beatInBar = Int(flags >> 8 & 0xFF)
    }
}
