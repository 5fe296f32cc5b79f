import Foundation

/// The multi-species Physarum simulation: agents sensing, turning, moving and
/// depositing into a wrap-around trail field, which is merged, blurred,
/// decayed and capped every step.
///
/// Deterministic: the same seed, parameters and step count give bit-identical
/// trails and agents for any number of worker threads.
///
/// Thread safety: not thread-safe; one owner thread calls `step` and reads the
/// results. Work inside a step runs on the simulation's own worker threads.
public final class Simulation: @unchecked Sendable {
    /// Field width in pixels (independent of any window).
    public let width: Int
    /// Field height in pixels.
    public let height: Int
    /// Worker threads (the calling thread included).
    public var threads: Int { pool.threads }
    /// The seed the agents were spawned from.
    public private(set) var seed: UInt64
    /// Steps simulated since the last reset.
    public private(set) var stepIndex: Int = 0
    /// The parameters of the last step (or of the reset).
    public internal(set) var params: PresetParams
    /// Steps between tile sorts of the agents (0 = never).
    public var sortInterval: Int = 16
    /// Seconds spent in each pass since the last `resetTimings()`.
    public private(set) var timings = PassTimings()
    /// Whether steps record the head counts (agents per pixel and species,
    /// capped at 255) for the renderer's head glow. The renderer turns this on
    /// while head glow is on; the counts come out of the diffusion pass's
    /// deposit merge at almost no cost, instead of a second scatter of every
    /// agent at render time.
    public var recordsHeads = false

    let pool: WorkerPool
    let field: TrailField
    var agents: AgentStore
    /// Second agent store of the same shape, the target of tile sorts.
    var spare: AgentStore
    /// Per worker: rows of scratch for the diffusion pass.
    let scratchRows: [AlignedBuffer<Float>]
    /// Number of agents ever spawned (their spawn ids).
    var spawned: UInt32 = 0
    /// Tile of each agent during a tile sort.
    var sortKeys = AlignedBuffer<Int32>(count: 0)
    /// Fixed parts per species of the parallel tile sort.
    static let sortParts = 8

    /// The default number of worker threads (one per core).
    public static var defaultThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Creates a simulation and spawns its agents.
    /// - Parameters:
    ///   - width, height: field size (16…8192 each).
    ///   - params: the look; `global.agents` and the population weights set the agents.
    ///   - seed: randomness seed.
    ///   - threads: worker threads (1…64), default one per core.
    public init(width: Int = 1280, height: Int = 720, params: PresetParams = .defaults,
                seed: UInt64 = 1, threads: Int = Simulation.defaultThreads) {
        precondition((16...8192).contains(width) && (16...8192).contains(height), "field size out of range")
        precondition((1...64).contains(threads), "threads out of range")
        self.width = width
        self.height = height
        self.seed = seed
        self.params = params
        pool = WorkerPool(threads: threads)
        field = TrailField(width: width, height: height, species: ParamKey.speciesCount, workers: threads)
        scratchRows = (0..<threads).map { _ in AlignedBuffer(count: 13 * width) }
        agents = AgentStore(counts: params.speciesCounts)
        spare = AgentStore(counts: params.speciesCounts)
        spawnAll()
    }

    /// Total agents.
    public var agentCount: Int { agents.count }

    /// Agents per species.
    public var speciesCounts: [Int] { agents.ranges.map(\.count) }

    /// Clears the field and respawns every agent from `seed` with the current
    /// parameters; the step counter restarts at 0.
    public func reset(seed newSeed: UInt64? = nil, params newParams: PresetParams? = nil) {
        if let newSeed { seed = newSeed }
        if let newParams { params = newParams }
        stepIndex = 0
        spawned = 0
        field.clear()
        field.headsValid = false
        agents = AgentStore(counts: params.speciesCounts)
        spare = AgentStore(counts: params.speciesCounts)
        spawnAll()
    }

    /// Advances the simulation `count` steps with `params` (typically the
    /// effective, modulated parameters). A change of agent count or
    /// populations respawns only the agents that must change.
    public func step(_ params: PresetParams, count: Int = 1) {
        for n in 0..<max(0, count) {
            reconcile(params)
            self.params = params
            let clock = ContinuousClock()
            let t0 = clock.now
            moveAgents(params)
            let t1 = clock.now
            var settings = diffuseSettings(params)
            settings.heads = recordsHeads && n == count - 1
            field.diffuse(settings, pool: pool, scratchRows: scratchRows)
            let t2 = clock.now
            stepIndex += 1
            if sortInterval > 0, stepIndex % sortInterval == 0 {
                tileSort()
            }
            timings.add(agents: t1 - t0, diffuse: t2 - t1, sort: clock.now - t2)
        }
    }

    func diffuseSettings(_ p: PresetParams) -> DiffuseSettings { Self.diffuseSettings(p, step: stepIndex) }

    /// The diffusion pass's settings for step `stepIndex` (0-based).
    public static func diffuseSettings(_ p: PresetParams, step stepIndex: Int) -> DiffuseSettings {
        let diffEvery = max(1, Int(p[.diffusion]))
        let m = (0..<9).map { Float(p[ParamKey(index: ParamKey.matrix(0, 0).index + $0)]) }
        return DiffuseSettings(
            deposit: (p.float(.species(0, .deposit)), p.float(.species(1, .deposit)), p.float(.species(2, .deposit))),
            decay: p.float(.decay),
            fade: p.float(.fade),
            cap: p.float(.trailCap),
            blur: stepIndex % diffEvery == diffEvery - 1,
            matrix: m)
    }

    /// Zeroes `timings`.
    public func resetTimings() { timings = PassTimings() }

    // MARK: - Reading results

    /// A 64-bit hash of the trail planes and every agent's state (bit patterns).
    public func checksum() -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        @inline(__always) func eat(_ p: UnsafeMutablePointer<Float>, _ n: Int) {
            let u = UnsafeMutableRawPointer(p).assumingMemoryBound(to: UInt32.self)
            for i in 0..<n {
                h = (h ^ UInt64(u[i])) &* 0x0000_0100_0000_01b3
            }
        }
        for s in 0..<field.species { eat(field.trails[s].base, field.pixelCount) }
        return h
    }

    /// A hash of the agents' state (positions, headings, phases) in storage order.
    public func agentChecksum() -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for buf in [agents.x, agents.y, agents.hx, agents.hy] {
            let u = UnsafeMutableRawPointer(buf.base).assumingMemoryBound(to: UInt32.self)
            for i in 0..<buf.count { h = (h ^ UInt64(u[i])) &* 0x0000_0100_0000_01b3 }
        }
        for i in 0..<agents.phase.count { h = (h ^ UInt64(agents.phase[i])) &* 0x0000_0100_0000_01b3 }
        return h
    }

    /// A copy of species `s`'s trail plane (row-major).
    public func trail(species s: Int) -> [Float] { field.trails[s].array }

    /// Calls `body` with the three trail planes (row-major, width × height).
    /// The buffers are valid only inside the call.
    func withTrails<R>(_ body: ([UnsafeBufferPointer<Float>]) throws -> R) rethrows -> R {
        try body(field.trails.map { UnsafeBufferPointer($0.buffer) })
    }

    /// The head counts of the last step, packed per pixel (species 0, 1, 2 in
    /// bytes 0, 1, 2; each min(agents on the pixel, 255)), or nil when the
    /// last step did not record them (`recordsHeads` off, or no step since a
    /// reset). Valid until the next step or reset.
    var heads: UnsafePointer<UInt32>? { field.headsValid ? UnsafePointer(field.heads.base) : nil }

    /// Agent positions and headings of species `s`, in storage order.
    public func agentStates(species s: Int) -> [(x: Float, y: Float, hx: Float, hy: Float)] {
        agents.ranges[s].map { (agents.x[$0], agents.y[$0], agents.hx[$0], agents.hy[$0]) }
    }

    /// How many distinct OS threads have run chunks of this simulation's
    /// passes since `resetThreadStats()` (or creation).
    public var distinctWorkerThreads: Int { pool.threadsSeen.count }
    /// Called on the stepping thread between the chunks it runs of each pass
    /// (every ~0.1–0.5 ms of work), while the other workers go on; work it
    /// returns runs at once with the other workers held (WorkerPool.callerHook).
    /// The live window reacts to a hit there (HitReaction). Neither may touch the simulation.
    public var betweenChunks: (() -> (() -> Void)?)? {
        get { pool.callerHook }
        set { pool.callerHook = newValue }
    }

    /// Restarts the count behind `distinctWorkerThreads`.
    public func resetThreadStats() { pool.resetThreadStats() }
}

/// Time spent in the simulation's passes.
public struct PassTimings: Sendable {
    public var steps = 0
    public var agentSeconds = 0.0
    public var diffuseSeconds = 0.0
    public var sortSeconds = 0.0

    mutating func add(agents: Duration, diffuse: Duration, sort: Duration) {
        steps += 1
        agentSeconds += agents.seconds
        diffuseSeconds += diffuse.seconds
        sortSeconds += sort.seconds
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
