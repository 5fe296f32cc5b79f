import Testing
@testable import Engine

/// Same seed + params + steps ⇒ bit-identical field and agents for any thread count.
@Suite struct DeterminismTests {
    static func busyLook() -> PresetParams {
        PresetParams().setting([.agents: 60_000, .chaosInterval: 7, .chaosStrength: 0.3, .rhythm: 0.6, .diffusion: 2,
                                .fade: 0.01, .trailCap: 20, .matrix(0, 1): -0.8, .matrix(1, 2): 0.7])
    }

    static func run(threads: Int, steps: Int = 40) -> (UInt64, UInt64, Int) {
        let p = busyLook()
        let sim = Simulation(width: 240, height: 160, params: p, seed: 42, threads: threads)
        sim.resetThreadStats()
        sim.step(p, count: steps)
        return (sim.checksum(), sim.agentChecksum(), sim.distinctWorkerThreads)
    }

    @Test func checksumIdenticalFor1_2_4ThreadsRepeated() {
        let reference = Self.run(threads: 1)
        #expect(reference.2 == 1)
        for threads in [1, 2, 4] {
            for _ in 0..<5 {
                let r = Self.run(threads: threads)
                #expect(r.0 == reference.0, "field differs with \(threads) threads")
                #expect(r.1 == reference.1, "agents differ with \(threads) threads")
                #expect(r.2 == threads, "\(threads) threads requested, \(r.2) ran chunks")
            }
        }
    }

    @Test func differentSeedsDiffer() {
        let p = Self.busyLook()
        let a = Simulation(width: 128, height: 96, params: p, seed: 1, threads: 2)
        let b = Simulation(width: 128, height: 96, params: p, seed: 2, threads: 2)
        a.step(p, count: 10)
        b.step(p, count: 10)
        #expect(a.checksum() != b.checksum())
    }

    @Test func resetRestartsExactly() {
        let p = Self.busyLook()
        let sim = Simulation(width: 128, height: 96, params: p, seed: 3, threads: 2)
        sim.step(p, count: 30)
        let first = sim.checksum()
        sim.reset()
        sim.step(p, count: 30)
        #expect(sim.checksum() == first)
    }
}
