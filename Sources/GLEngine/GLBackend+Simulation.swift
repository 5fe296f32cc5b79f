import CGL
import Engine

/// The simulation passes: spawning (on the CPU, as the CPU engine spawns),
/// agent-count changes, the agent pass and the diffusion pass.
extension GLBackend {
    /// Agent start index of each species (and the total last).
    var speciesStarts: [Int] {
        var out = [0]
        for c in speciesCounts { out.append(out.last! + c) }
        return out
    }

    /// Spawns every agent afresh from `seed` and `params`.
    func spawnAll() {
        let want = params.speciesCounts
        let total = want.reduce(0, +)
        speciesCounts = want
        agents = GLBuffer(bytes: total * 16, zeroed: false)
        phases = GLBuffer(bytes: total * 4, zeroed: false)
        var start = 0
        for s in 0..<want.count {
            upload(species: s, count: want[s], at: start)
            start += want[s]
        }
    }

    /// Spawns `count` new agents of species `s` and writes them at slot `at`.
    func upload(species s: Int, count: Int, at: Int) {
        guard count > 0 else { return }
        var xyhh = [Float](repeating: 0, count: count * 4)
        var ph = [UInt32](repeating: 0, count: count)
        Simulation.spawn(pattern: params.spawnPattern, seed: seed, width: fieldWidth, height: fieldHeight, species: s,
                         count: count, firstID: spawned) { n, x, y, hx, hy, phase in
            xyhh[4 * n] = x; xyhh[4 * n + 1] = y; xyhh[4 * n + 2] = hx; xyhh[4 * n + 3] = hy
            ph[n] = UInt32(phase)
        }
        spawned &+= UInt32(truncatingIfNeeded: count)
        xyhh.withUnsafeBytes { agents.write($0.baseAddress!, offset: at * 16, count: $0.count) }
        ph.withUnsafeBytes { phases.write($0.baseAddress!, offset: at * 4, count: $0.count) }
    }

    /// Adapts the agents to the counts `p` asks for, as the CPU engine does:
    /// shrinking species keep an evenly strided subset, growing ones keep all
    /// and spawn the rest (with `p`'s spawn settings).
    func reconcile(_ p: PresetParams) {
        let want = limited(p).speciesCounts
        guard want != speciesCounts else { return }
        let oldStarts = speciesStarts, oldCounts = speciesCounts
        let newAgents = GLBuffer(bytes: want.reduce(0, +) * 16, zeroed: false)
        let newPhases = GLBuffer(bytes: want.reduce(0, +) * 4, zeroed: false)
        let prog = shaders.use("reconcile")
        agents.bind(0); phases.bind(1); newAgents.bind(2); newPhases.bind(3)
        var start = 0
        var keeps: [Int] = []
        for s in 0..<want.count {
            let keep = min(oldCounts[s], want[s])
            keeps.append(keep)
            if keep > 0 {
                glUniform1ui(shaders.loc(prog, "uOldStart"), GLuint(oldStarts[s]))
                glUniform1ui(shaders.loc(prog, "uOldCount"), GLuint(oldCounts[s]))
                glUniform1ui(shaders.loc(prog, "uNewStart"), GLuint(start))
                glUniform1ui(shaders.loc(prog, "uKeep"), GLuint(keep))
                glDispatchCompute(Self.groups1D(keep), 1, 1)
            }
            start += want[s]
        }
        Self.barrier()
        agents = newAgents
        phases = newPhases
        let saved = params
        params = p  // new agents follow the new spawn settings
        start = 0
        for s in 0..<want.count {
            if want[s] > keeps[s] { upload(species: s, count: want[s] - keeps[s], at: start + keeps[s]) }
            start += want[s]
        }
        params = saved
        speciesCounts = want
    }

    /// Sense, turn, move and deposit for every agent.
    func moveAgents(_ p: PresetParams) {
        let k = stepIndex
        let steps = (0..<3).map { Simulation.speciesStep(p, $0, step: k, width: fieldWidth, height: fieldHeight) }
        let (chaos, chaosRot) = Simulation.chaosTable(p, step: k)
        var table = [Float](repeating: 0, count: (192 + 256) * 2)
        for s in 0..<3 where steps[s].rhythm {
            for i in 0..<128 { table[s * 128 + i] = steps[s].rhythmRot[i] }
        }
        if chaos { for i in 0..<512 { table[384 + i] = chaosRot[i] } }
        table.withUnsafeBytes { tables.write($0.baseAddress!, offset: 0, count: $0.count) }

        let prog = shaders.use("agents")
        agents.bind(0); phases.bind(1); counts.bind(2); tables.bind(3)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), sense.name)
        glUniform1i(shaders.loc(prog, "uSense"), 0)
        glUniform2i(shaders.loc(prog, "uField"), GLint(fieldWidth), GLint(fieldHeight))
        let starts = speciesStarts.map { GLuint($0) }
        glUniform1uiv(shaders.loc(prog, "uStart"), 4, starts)
        let sensor: [Float] = steps.flatMap { [$0.sensorCos, $0.sensorSin, $0.sensorDist, Float(0)] }
        let turn: [Float] = steps.flatMap { [$0.turnCos, $0.turnSin, $0.speed, Float($0.rhythm ? 1 : 0)] }
        glUniform4fv(shaders.loc(prog, "uSensor"), 3, sensor)
        glUniform4fv(shaders.loc(prog, "uTurn"), 3, turn)
        glUniform1ui(shaders.loc(prog, "uSeed"), Simulation.hashSeed(seed))
        glUniform1ui(shaders.loc(prog, "uStep"), GLuint(truncatingIfNeeded: k))
        glUniform1i(shaders.loc(prog, "uChaos"), chaos ? 1 : 0)
        // The CPU engine renormalises the headings in its tile sort, after every 16th step.
        glUniform1i(shaders.loc(prog, "uRenormalise"), (k + 1) % 16 == 0 ? 1 : 0)
        glDispatchCompute(Self.groups1D(agentCount), 1, 1)
        Self.barrier()
    }

    /// Zeroes `buffer` with a compute pass (glClearBufferData is a slow copy on NVIDIA).
    func zero(_ buffer: GLBuffer) {
        let prog = shaders.use("clear")
        buffer.bind(0)
        let words = buffer.bytes / 4
        glUniform1ui(shaders.loc(prog, "uCount"), GLuint(words))
        glDispatchCompute(Self.groups1D(words), 1, 1)
        Self.barrier()
    }

    /// Merges, blurs, decays, fades and caps; refreshes the sensing planes.
    func diffuse(_ p: PresetParams) {
        let d = Simulation.diffuseSettings(p, step: stepIndex)
        let prog = shaders.use("diffuse")
        trails.bind(0); scratch.bind(1); counts.bind(2)
        sense.bindImage(0, access: GL_WRITE_ONLY, format: GL_R16F)
        glUniform2i(shaders.loc(prog, "uField"), GLint(fieldWidth), GLint(fieldHeight))
        glUniform3f(shaders.loc(prog, "uDeposit"), d.deposit.0, d.deposit.1, d.deposit.2)
        glUniform1f(shaders.loc(prog, "uScale"), d.scale)
        glUniform1f(shaders.loc(prog, "uFade"), d.fade)
        glUniform1f(shaders.loc(prog, "uCap"), d.cap)
        glUniform1i(shaders.loc(prog, "uBlur"), d.blur ? 1 : 0)
        glUniform1fv(shaders.loc(prog, "uM"), 9, d.matrix)
        Self.dispatch2D(fieldWidth, fieldHeight)
        Self.barrier()
        swap(&trails, &scratch)
    }

    /// Counting sort of each species' agents by 32×32 tile (row-major tiles),
    /// so neighbouring invocations of the agent pass read neighbouring
    /// texels and add into neighbouring counts (count runs, scan, place runs).
    func tileSort() {
        let total = agentCount
        guard total > 0 else { return }
        let tilesX = (fieldWidth + 31) / 32, tiles = tilesX * ((fieldHeight + 31) / 32)
        if sortBuffers == nil || sortBuffers!.agents.bytes < total * 16 {
            sortBuffers = (GLBuffer(bytes: total * 4, zeroed: false), GLBuffer(bytes: 3 * tiles * 4),
                           GLBuffer(bytes: total * 16, zeroed: false), GLBuffer(bytes: total * 4, zeroed: false))
        }
        let b = sortBuffers!
        zero(b.buckets)
        let prog = shaders.use("sort_tiles")
        agents.bind(0); b.keys.bind(1); b.buckets.bind(2); phases.bind(3); b.agents.bind(4); b.phases.bind(5)
        glUniform1uiv(shaders.loc(prog, "uStart"), 4, speciesStarts.map { GLuint($0) })
        glUniform1i(shaders.loc(prog, "uTilesX"), GLint(tilesX))
        glUniform1i(shaders.loc(prog, "uTiles"), GLint(tiles))
        glUniform1i(shaders.loc(prog, "uPass"), 0)
        glDispatchCompute(Self.groups1D(total), 1, 1)
        Self.barrier()
        let scan = shaders.use("sort_scan")
        glUniform1i(shaders.loc(scan, "uKeys"), GLint(3 * tiles))
        glDispatchCompute(1, 1, 1)
        Self.barrier()
        _ = shaders.use("sort_tiles")
        glUniform1i(shaders.loc(prog, "uPass"), 1)
        glDispatchCompute(Self.groups1D(total), 1, 1)
        Self.barrier()
        let sorted = (b.agents, b.phases)
        sortBuffers = (b.keys, b.buckets, agents, phases)
        (agents, phases) = sorted
    }

    // MARK: - Reading state (tests, parity checks)

    /// Agent positions and headings of species `s`, in storage order (a read-back).
    public func agentStates(species s: Int) -> [(x: Float, y: Float, hx: Float, hy: Float)] {
        let start = speciesStarts[s], n = speciesCounts[s]
        var buf = [Float](repeating: 0, count: n * 4)
        buf.withUnsafeMutableBytes { agents.read(into: $0.baseAddress!, offset: start * 16, count: $0.count) }
        return (0..<n).map { (buf[4 * $0], buf[4 * $0 + 1], buf[4 * $0 + 2], buf[4 * $0 + 3]) }
    }

    /// A copy of species `s`'s trail plane (row-major; a read-back).
    public func trail(species s: Int) -> [Float] {
        let n = fieldWidth * fieldHeight
        var buf = [Float](repeating: 0, count: n)
        buf.withUnsafeMutableBytes { trails.read(into: $0.baseAddress!, offset: s * n * 4, count: $0.count) }
        return buf
    }
}
