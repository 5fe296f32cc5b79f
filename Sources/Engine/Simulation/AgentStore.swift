/// Agents in structure-of-arrays form, grouped by species: species s owns the
/// contiguous index range `ranges[s]`, so its parameters are loop-invariant.
/// Heading is a unit vector (hx, hy); `phase` is the agent's rhythm phase
/// bucket (0..<64).
///
/// Thread safety: mutated only inside `Simulation` passes (disjoint ranges).
final class AgentStore: @unchecked Sendable {
    let x: AlignedBuffer<Float>
    let y: AlignedBuffer<Float>
    let hx: AlignedBuffer<Float>
    let hy: AlignedBuffer<Float>
    let phase: AlignedBuffer<UInt8>
    /// Agent index range of each species.
    let ranges: [Range<Int>]

    var count: Int { ranges.last?.upperBound ?? 0 }

    /// Number of rhythm phase buckets.
    static let phaseBuckets = 64

    init(counts: [Int]) {
        let total = counts.reduce(0, +)
        x = AlignedBuffer(count: total)
        y = AlignedBuffer(count: total)
        hx = AlignedBuffer(count: total)
        hy = AlignedBuffer(count: total)
        phase = AlignedBuffer(count: total)
        ranges = Self.ranges(for: counts)
    }

    static func ranges(for counts: [Int]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for c in counts {
            out.append(start..<(start + c))
            start += c
        }
        return out
    }

    /// Copies agent `i` of `src` into slot `j` of self.
    @inline(__always)
    func copyAgent(from src: AgentStore, _ i: Int, to j: Int) {
        x[j] = src.x[i]; y[j] = src.y[i]; hx[j] = src.hx[i]; hy[j] = src.hy[i]; phase[j] = src.phase[i]
    }

    /// Sets slot j.
    @inline(__always)
    func set(_ j: Int, x px: Float, y py: Float, hx dx: Float, hy dy: Float, phase p: UInt8) {
        x[j] = px; y[j] = py; hx[j] = dx; hy[j] = dy; phase[j] = p
    }
}
