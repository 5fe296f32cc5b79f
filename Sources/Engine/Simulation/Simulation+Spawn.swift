extension Simulation {
    /// Spawns every agent afresh (counts from `params`).
    func spawnAll() {
        for s in 0..<agents.ranges.count {
            spawn(into: agents, species: s, slots: agents.ranges[s])
        }
    }

    /// Places new agents into `slots` of `store` following the spawn pattern.
    /// Each new agent gets a fresh spawn id, so its randomness is its own.
    func spawn(into store: AgentStore, species s: Int, slots: Range<Int>) {
        Self.spawn(pattern: params.spawnPattern, seed: seed, width: width, height: height, species: s,
                   count: slots.count, firstID: spawned) { n, x, y, hx, hy, phase in
            store.set(slots.lowerBound + n, x: x, y: y, hx: hx, hy: hy, phase: phase)
        }
        spawned &+= UInt32(truncatingIfNeeded: slots.count)
    }

    /// `count` new agents of species `s` with spawn ids `firstID`, `firstID + 1`, …,
    /// placed by `pattern` on a `width × height` field: `body(n, x, y, hx, hy, phase)`
    /// for each (n = 0..<count). A pure function of its inputs (a GPU backend
    /// spawns through it too).
    public static func spawn(pattern: SpawnPattern, seed: UInt64, width: Int, height: Int, species s: Int,
                             count slotCount: Int, firstID: UInt32,
                             _ body: (Int, Float, Float, Float, Float, UInt8) -> Void) {
        let seed32 = UInt32(truncatingIfNeeded: seed ^ (seed >> 32))
        let W = Double(width), H = Double(height)
        let cx = W / 2, cy = H / 2
        let rMin = min(W, H)
        let nSpecies = Double(ParamKey.speciesCount)
        let count = Double(max(1, slotCount))
        for n in 0..<slotCount {
            let id = firstID &+ UInt32(truncatingIfNeeded: n)
            @inline(__always) func u(_ salt: UInt32) -> Double { CounterHash.unitDouble(seed32, id, 0x5EED, salt) }
            var x: Double, y: Double, angle: Double
            switch pattern {
            case .random:
                x = u(1) * W; y = u(2) * H; angle = u(3) * 2 * .pi
            case .disc:
                let r = 0.3 * rMin * u(1).squareRoot(), a = u(2) * 2 * .pi
                x = cx + r * Foundation_cos(a); y = cy + r * Foundation_sin(a); angle = u(3) * 2 * .pi
            case .ring:
                let r = rMin * (0.35 + 0.02 * (u(1) - 0.5)), a = u(2) * 2 * .pi
                x = cx + r * Foundation_cos(a); y = cy + r * Foundation_sin(a); angle = a + .pi
            case .centerBurst:
                let r = 0.03 * rMin * u(1).squareRoot(), a = u(2) * 2 * .pi
                x = cx + r * Foundation_cos(a); y = cy + r * Foundation_sin(a); angle = a
            case .spiral:
                let t = (Double(n) + u(1)) / count
                let a = Double(s) / nSpecies * 2 * .pi + t * 3 * 2 * .pi
                let r = rMin * (0.04 + 0.42 * t) + (u(2) - 0.5) * 0.02 * rMin
                x = cx + r * Foundation_cos(a); y = cy + r * Foundation_sin(a); angle = a + .pi / 2
            case .sectors:
                let a = (Double(s) + u(1)) / nSpecies * 2 * .pi
                let r = 0.47 * rMin * u(2).squareRoot()
                x = cx + r * Foundation_cos(a); y = cy + r * Foundation_sin(a); angle = u(3) * 2 * .pi
            case .clusters:
                let k = UInt32(u(1) * 12)
                let ccx = CounterHash.unitDouble(seed32, k, 0xC1, 1) * W
                let ccy = CounterHash.unitDouble(seed32, k, 0xC1, 2) * H
                let r = 0.06 * rMin * u(2).squareRoot(), a = u(3) * 2 * .pi
                x = ccx + r * Foundation_cos(a); y = ccy + r * Foundation_sin(a); angle = u(4) * 2 * .pi
            }
            x = x.truncatingRemainder(dividingBy: W); if x < 0 { x += W }
            y = y.truncatingRemainder(dividingBy: H); if y < 0 { y += H }
            var fx = Float(x), fy = Float(y)
            if fx >= Float(W) { fx = 0 }
            if fy >= Float(H) { fy = 0 }
            body(n, fx, fy, Float(Foundation_cos(angle)), Float(Foundation_sin(angle)),
                 UInt8(truncatingIfNeeded: CounterHash.hash(seed32, id, 0x5EED, 9) % UInt32(AgentStore.phaseBuckets)))
        }
    }

    /// Adapts the agents to the counts `p` asks for: species that shrink keep an
    /// evenly strided subset (so no region empties), species that grow keep all
    /// their agents and spawn the rest. Unchanged species are untouched.
    func reconcile(_ p: PresetParams) {
        let want = p.speciesCounts
        let have = speciesCounts
        guard want != have else { return }
        let old = agents
        let n = AgentStore(counts: want)
        let saved = params
        params = p  // new agents follow the new spawn settings
        for s in 0..<want.count {
            let src = old.ranges[s], dst = n.ranges[s]
            let keep = min(src.count, dst.count)
            for k in 0..<keep {
                // Even stride through the old agents when shrinking.
                let i = src.lowerBound + (keep == src.count ? k : Int(Double(k) * Double(src.count) / Double(keep)))
                n.copyAgent(from: old, i, to: dst.lowerBound + k)
            }
            if dst.count > keep {
                spawn(into: n, species: s, slots: (dst.lowerBound + keep)..<dst.upperBound)
            }
        }
        params = saved
        agents = n
        spare = AgentStore(counts: want)
    }

    /// Counting sort of each species' agents by 32×32 tile (row-major tiles), so
    /// neighbouring agents sit together in memory and their field reads hit the
    /// cache. Stable and deterministic. Also renormalises drifting headings.
    ///
    /// Parallel and balanced: each species is cut into `sortParts` fixed parts
    /// (independent of the thread count); the parts count their tiles at once,
    /// a short serial prefix sum gives every (part, tile) its first slot — tile
    /// major, part minor, which is exactly where a sequential stable sort puts
    /// them — and the parts scatter at once.
    func tileSort() {
        let tile = 32
        let tilesX = (width + tile - 1) / tile, tilesY = (height + tile - 1) / tile
        let tiles = tilesX * tilesY
        let src = agents, dst = spare
        let SX = src.x.base, SY = src.y.base, SHX = src.hx.base, SHY = src.hy.base, SP = src.phase.base
        let DX = dst.x.base, DY = dst.y.base, DHX = dst.hx.base, DHY = dst.hy.base, DP = dst.phase.base
        let parts = Self.sortParts
        // (species, part) jobs with their agent ranges.
        var jobs: [Range<Int>] = []
        for r in src.ranges {
            for k in 0..<parts {
                jobs.append((r.lowerBound + r.count * k / parts)..<(r.lowerBound + r.count * (k + 1) / parts))
            }
        }
        if sortKeys.count < src.count { sortKeys = AlignedBuffer(count: src.count) }
        let keys = sortKeys.base
        // counts[job * tiles + t], then first slots in place.
        let slots = AlignedBuffer<Int>(count: jobs.count * tiles)
        slots.zero()
        let S = slots.base
        pool.run(chunks: jobs.count) { j, _ in
            let h = S + j * tiles
            for i in jobs[j] {
                let t = (Int(SY[i]) / tile) * tilesX + Int(SX[i]) / tile
                keys[i] = Int32(t)
                h[t] += 1
            }
        }
        for (s, r) in src.ranges.enumerated() {
            var next = r.lowerBound
            for t in 0..<tiles {
                for k in 0..<parts {
                    let c = S + (s * parts + k) * tiles + t
                    let n = c.pointee
                    c.pointee = next
                    next += n
                }
            }
        }
        pool.run(chunks: jobs.count) { j, _ in
            let h = S + j * tiles
            for i in jobs[j] {
                let t = Int(keys[i])
                let d = h[t]
                h[t] = d + 1
                var hx = SHX[i], hy = SHY[i]
                let n2 = hx * hx + hy * hy
                if abs(n2 - 1) > 1e-5 {
                    let inv = 1 / n2.squareRoot()
                    hx *= inv; hy *= inv
                }
                DX[d] = SX[i]; DY[d] = SY[i]; DHX[d] = hx; DHY[d] = hy; DP[d] = SP[i]
            }
        }
        agents = dst
        spare = src
    }
}
