import Engine
import Testing

/// One agent limit per backend: the engine's own, or what the free memory
/// holds; counts over it are held to it with a notice naming it.
@Suite struct AgentLimitTests {
    @Test func theEngineLimitUnlessTheFreeMemoryHoldsFewer() {
        let plenty = AgentLimit.cpu(availableBytes: 64 << 30)
        #expect(plenty.count == CPUBackend.agentLimit && plenty.reason == "the CPU engine's limit")
        let unknown = AgentLimit.cpu(availableBytes: nil)
        #expect(unknown.count == CPUBackend.agentLimit)
        // 512 MB free: half of it at 38 bytes an agent (7.06 M, under the engine's 8 M).
        let tight = AgentLimit.cpu(availableBytes: 512 << 20)
        #expect(tight.count == (256 << 20) / AgentLimit.cpuBytesPerAgent)
        #expect(tight.reason == "what half of the 0.5 GB of free memory holds at 38 bytes an agent", "\(tight.reason)")
        #expect(AgentLimit.cpuBytesPerAgent == 38)
    }

    @Test func countsOverTheLimitAreHeldWithANoticeNamingIt() {
        let limit = AgentLimit.cpu(availableBytes: nil)
        var p = PresetParams.defaults
        p[.agents] = 128_000_000
        let (held, notice) = p.held(to: limit)
        #expect(held[.agents] == Double(CPUBackend.agentLimit))
        #expect(notice == "128 000 000 agents asked for; running 8 000 000 instead: the CPU engine's limit")
        p[.agents] = 500_000
        #expect(p.held(to: limit).notice == nil && p.held(to: limit).params == p, "counts within it are untouched")
        #expect(p.held(to: nil).params == p)
    }

    @Test func theCPUBackendNeverAllocatesOverItsLimit() {
        var p = PresetParams.defaults
        p[.agents] = 128_000_000
        // The engine's own guard (behind the model's): cut before the agent stores are made.
        // (A 16x16 field keeps the test light; the agents are what would cost 4.8 GB.)
        let b = CPUBackend(field: (16, 16), output: (16, 16), params: p, seed: 1, threads: 1)
        #expect(b.agentCount == CPUBackend.agentLimit)
    }
}
