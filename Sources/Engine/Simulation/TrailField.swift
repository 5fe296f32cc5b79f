/// The pheromone field: one trail plane per species (Float, row-major,
/// width × height), the pre-combined sensing planes the agents read
/// (F_s = Σ_c M[s,c]·T_c, refreshed by every diffusion pass), and one
/// integer deposit-count buffer per worker thread (UInt8 per species per
/// pixel, saturating), merged and cleared by the diffusion pass.
///
/// Thread safety: mutated only inside `Simulation.step` passes.
final class TrailField: @unchecked Sendable {
    let width: Int
    let height: Int
    var pixelCount: Int { width * height }
    let species: Int

    /// Current trail planes (read by the renderer).
    private(set) var trails: [AlignedBuffer<Float>]
    /// Diffusion writes here, then swaps with `trails`.
    private(set) var scratch: [AlignedBuffer<Float>]
    /// Sensing planes, one per species, in half precision: the agents' random
    /// reads touch half the memory (the sensing decision only compares
    /// neighbouring values, for which 11 bits of mantissa are plenty).
    let sense: [AlignedBuffer<Float16>]
    /// Deposit counts: `counts[worker][species]`, saturating at 255. The
    /// merge takes min(Σ workers, 255), which equals min(true count, 255)
    /// however the agents were split between workers (a worker saturates only
    /// when the true count is ≥ 255 anyway), so results stay independent of
    /// the thread count. One byte instead of two halves the counts' share of
    /// the agent pass's cache footprint and of the diffusion pass's traffic.
    let counts: [[AlignedBuffer<UInt8>]]

    /// Head counts of the last step that recorded them: per pixel, bytes 0–2
    /// are min(deposits of species 0–2, 255) (one deposit per agent, at its
    /// new position). Allocated on first use.
    private(set) lazy var heads = AlignedBuffer<UInt32>(count: width * height)
    /// Whether `heads` describes the agents' current positions.
    var headsValid = false

    init(width: Int, height: Int, species: Int, workers: Int) {
        precondition(width >= 16 && height >= 16)
        self.width = width
        self.height = height
        self.species = species
        let n = width * height
        trails = (0..<species).map { _ in AlignedBuffer(count: n) }
        scratch = (0..<species).map { _ in AlignedBuffer(count: n) }
        sense = (0..<species).map { _ in AlignedBuffer(count: n) }
        counts = (0..<workers).map { _ in (0..<species).map { _ in AlignedBuffer(count: n) } }
    }

    /// Swaps trail and scratch planes after a diffusion pass.
    func swapPlanes() { swap(&trails, &scratch) }

    /// Clears trails, sensing planes and counts.
    func clear() {
        for b in trails { b.zero() }
        for b in scratch { b.zero() }
        for b in sense { b.zero() }
        for w in counts { for b in w { b.zero() } }
    }

    /// Sum of all trail values of one species (Double accumulation).
    func mass(species s: Int) -> Double {
        var total = 0.0
        let p = trails[s].base
        for i in 0..<pixelCount { total += Double(p[i]) }
        return total
    }
}
