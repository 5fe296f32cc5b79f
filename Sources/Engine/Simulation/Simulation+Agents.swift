/// Loop-invariant settings of one species for one step.
struct SpeciesStep {
    var sensorCos: Float, sensorSin: Float, sensorDist: Float
    var turnCos: Float, turnSin: Float
    var speed: Float
    var rhythm: Bool
    /// Rhythm rotation per phase bucket, (cos, sin) interleaved.
    var rhythmRot: [Float]
}

extension Simulation {
    /// Agents per chunk of the agent pass (fixed, independent of threads).
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

    /// Sense, turn, move and deposit for every agent (one parallel pass).
    func moveAgents(_ p: PresetParams) {
        let k = stepIndex
        let steps = (0..<field.species).map { speciesStep(p, $0, step: k) }
        let chunks = agentChunks()
        let W = width, H = height
        let fW = Float(W), fH = Float(H)
        let seed32 = UInt32(truncatingIfNeeded: seed ^ (seed >> 32))
        let step32 = UInt32(truncatingIfNeeded: k)
        let chaos = Self.isChaosStep(k, interval: Int(p[.chaosInterval])) && p[.chaosStrength] > 0
        // Chaos rotation table: 256 angles evenly over ±strength·π.
        var chaosRot = [Float](repeating: 0, count: 512)
        if chaos {
            let strength = p[.chaosStrength]
            for i in 0..<256 {
                let th = (Double(i) / 255 * 2 - 1) * strength * .pi
                chaosRot[2 * i] = Float(Foundation_cos(th))
                chaosRot[2 * i + 1] = Float(Foundation_sin(th))
            }
        }
        let X = agents.x.base, Y = agents.y.base, HX = agents.hx.base, HY = agents.hy.base
        let PH = agents.phase.base
        let sense = field.sense.map(\.base)
        let counts = field.counts.map { $0.map(\.base) }

        pool.run(chunks: chunks.count) { ci, worker in
            let (s, range) = chunks[ci]
            let st = steps[s]
            let F = sense[s]
            let cnt = counts[worker][s]
            let ca = st.sensorCos, sa = st.sensorSin, d = st.sensorDist
            let ct = st.turnCos, sn = st.turnSin, v = st.speed

            @inline(__always) func wrap(_ a: Float, _ size: Float) -> Float {
                var r = a
                if r < 0 { r += size }
                if r >= size { r -= size }
                return r
            }
            @inline(__always) func cell(_ px: Float, _ py: Float) -> Int {
                let ix = min(Int(wrap(px, fW)), W - 1)
                let iy = min(Int(wrap(py, fH)), H - 1)
                return iy * W + ix
            }

            st.rhythmRot.withUnsafeBufferPointer { rrot in
                chaosRot.withUnsafeBufferPointer { crot in
                    for i in range {
                        var hx = HX[i], hy = HY[i]
                        let px = X[i], py = Y[i]
                        let lx = hx * ca - hy * sa, ly = hx * sa + hy * ca
                        let rx = hx * ca + hy * sa, ry = hy * ca - hx * sa
                        let c = F[cell(px + hx * d, py + hy * d)]
                        let l = F[cell(px + lx * d, py + ly * d)]
                        let r = F[cell(px + rx * d, py + ry * d)]
                        // +1 turns toward the left sensor, −1 toward the right, 0 keeps straight.
                        var dir: Float = 0
                        if c > l && c > r {
                            dir = 0
                        } else if c < l && c < r {
                            let h = CounterHash.hash(seed32, UInt32(truncatingIfNeeded: i), step32, 1)
                            dir = (h & 1) == 0 ? 1 : -1
                        } else if l > r {
                            dir = 1
                        } else if r > l {
                            dir = -1
                        }
                        if dir != 0 {
                            let s2 = dir * sn
                            let nx = hx * ct - hy * s2, ny = hx * s2 + hy * ct
                            hx = nx; hy = ny
                        }
                        if st.rhythm {
                            let b = Int(PH[i]) &* 2
                            let rc = rrot[b], rs = rrot[b + 1]
                            let nx = hx * rc - hy * rs, ny = hx * rs + hy * rc
                            hx = nx; hy = ny
                        }
                        if chaos {
                            let h = CounterHash.hash(seed32, UInt32(truncatingIfNeeded: i), step32, 2)
                            let b = Int(h >> 24) &* 2
                            let rc = crot[b], rs = crot[b + 1]
                            let nx = hx * rc - hy * rs, ny = hx * rs + hy * rc
                            hx = nx; hy = ny
                        }
                        let nxp = wrap(px + hx * v, fW), nyp = wrap(py + hy * v, fH)
                        X[i] = nxp; Y[i] = nyp; HX[i] = hx; HY[i] = hy
                        let cellIndex = min(Int(nyp), H - 1) * W + min(Int(nxp), W - 1)
                        let old = cnt[cellIndex]
                        cnt[cellIndex] = old &+ (old == UInt16.max ? 0 : 1)
                    }
                }
            }
        }
    }
}
