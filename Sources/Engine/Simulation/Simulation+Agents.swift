/// Loop-invariant settings of one species for one step (also what a GPU
/// backend feeds its agent shader).
public struct SpeciesStep: Sendable {
    public var sensorCos: Float, sensorSin: Float, sensorDist: Float
    public var turnCos: Float, turnSin: Float
    public var speed: Float
    public var rhythm: Bool
    /// Rhythm rotation per phase bucket, (cos, sin) interleaved.
    public var rhythmRot: [Float]
}

extension Simulation {
    /// Agents per chunk of the agent pass (fixed, independent of threads; a
    /// multiple of the vector width).
    static let agentsPerChunk = 16_384

    /// Radians of heading change per step at rhythm 1.
    static let rhythmMaxTurn = 0.35
    /// Steps per rhythm cycle.
    static let rhythmPeriod = 96.0

    /// Whether step `k` (0-based) applies a chaos kick: steps interval, 2·interval, … (1-based).
    static func isChaosStep(_ k: Int, interval: Int) -> Bool {
        interval > 0 && (k + 1) % interval == 0
    }

    func speciesStep(_ p: PresetParams, _ s: Int, step k: Int) -> SpeciesStep {
        Self.speciesStep(p, s, step: k, width: width, height: height)
    }

    /// Species `s`'s settings for step `k` on a `width × height` field.
    public static func speciesStep(_ p: PresetParams, _ s: Int, step k: Int, width: Int, height: Int) -> SpeciesStep {
        let a = p[.species(s, .sensorAngle)] * .pi / 180
        let t = p[.species(s, .turnSpeed)] * .pi / 180
        let maxDist = Double(min(width, height)) / 2 - 1
        let rhythm = p[.rhythm]
        var rot = [Float](repeating: 0, count: 2 * AgentStore.phaseBuckets)
        if rhythm > 0 {
            for b in 0..<AgentStore.phaseBuckets {
                let ph = Double(k) / Self.rhythmPeriod + Double(b) / Double(AgentStore.phaseBuckets)
                let theta = rhythm * Self.rhythmMaxTurn * Foundation_sin(2 * .pi * ph)
                rot[2 * b] = Float(Foundation_cos(theta))
                rot[2 * b + 1] = Float(Foundation_sin(theta))
            }
        }
        return SpeciesStep(
            sensorCos: Float(Foundation_cos(a)), sensorSin: Float(Foundation_sin(a)),
            sensorDist: Float(min(p[.species(s, .sensorDistance)], maxDist)),
            turnCos: Float(Foundation_cos(t)), turnSin: Float(Foundation_sin(t)),
            speed: p.float(.species(s, .moveSpeed)),
            rhythm: rhythm > 0, rhythmRot: rot)
    }

    /// The chunks of the agent pass: (species, index range), never crossing species.
    func agentChunks() -> [(Int, Range<Int>)] {
        var out: [(Int, Range<Int>)] = []
        for (s, r) in agents.ranges.enumerated() {
            var i = r.lowerBound
            while i < r.upperBound {
                let e = min(r.upperBound, i + Self.agentsPerChunk)
                out.append((s, i..<e))
                i = e
            }
        }
        return out
    }

    /// Whether step `k` kicks the headings, and the chaos rotation table:
    /// 256 angles evenly over ±strength·π, (cos, sin) interleaved.
    public static func chaosTable(_ p: PresetParams, step k: Int) -> (chaos: Bool, rotations: [Float]) {
        let chaos = Self.isChaosStep(k, interval: Int(p[.chaosInterval])) && p[.chaosStrength] > 0
        var chaosRot = [Float](repeating: 0, count: 512)
        if chaos {
            let strength = p[.chaosStrength]
            for i in 0..<256 {
                let th = (Double(i) / 255 * 2 - 1) * strength * .pi
                chaosRot[2 * i] = Float(Foundation_cos(th))
                chaosRot[2 * i + 1] = Float(Foundation_sin(th))
            }
        }
        return (chaos, chaosRot)
    }

    /// The 32-bit seed the agents' counter hash uses.
    public static func hashSeed(_ seed: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: seed ^ (seed >> 32)) }

    /// Sense, turn, move and deposit for every agent (one parallel pass).
    func moveAgents(_ p: PresetParams) {
        let k = stepIndex
        let steps = (0..<field.species).map { speciesStep(p, $0, step: k) }
        let chunks = agentChunks()
        let (chaos, chaosRot) = Self.chaosTable(p, step: k)
        let base = AgentKernel.Shared(
            x: agents.x.base, y: agents.y.base, hx: agents.hx.base, hy: agents.hy.base, phase: agents.phase.base,
            width: Int32(width), height: Int32(height),
            seed: UInt32(truncatingIfNeeded: seed ^ (seed >> 32)), step: UInt32(truncatingIfNeeded: k),
            chaos: chaos)
        let sense = field.sense.map(\.base)
        let counts = field.counts.map { $0.map(\.base) }

        chaosRot.withUnsafeBufferPointer { crot in
            pool.run(chunks: chunks.count) { ci, worker in
                let (s, range) = chunks[ci]
                steps[s].rhythmRot.withUnsafeBufferPointer { rrot in
                    var kernel = AgentKernel(shared: base, species: steps[s], sense: sense[s],
                                             counts: counts[worker][s], rhythmRot: rrot.baseAddress!,
                                             chaosRot: crot.baseAddress!)
                    kernel.run(range)
                }
            }
        }
    }
}
