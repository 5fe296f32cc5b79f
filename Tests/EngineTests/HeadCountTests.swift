import Testing
@testable import Engine

/// The head counts the simulation records while merging deposits (what the
/// head glow shows) are the agents on each pixel, like a fresh stamp of the
/// agents' positions, and do not depend on the thread count.
@Suite struct HeadCountTests {
    /// min(agents of each species on each pixel, 255), packed like `heads`,
    /// from the agents' stored positions (floor).
    static func stamp(_ sim: Simulation) -> (counts: [UInt32], boundary: Set<Int>) {
        var n = [[Int]](repeating: [Int](repeating: 0, count: sim.width * sim.height), count: 3)
        var boundary = Set<Int>()
        for s in 0..<3 {
            for a in sim.agentStates(species: s) {
                let i = Int(a.y) * sim.width + Int(a.x)
                n[s][i] += 1
                // Agents exactly on a pixel edge may be counted one pixel lower
                // by the deposit rounding: remember the pixels around them.
                if a.x == a.x.rounded() || a.y == a.y.rounded() {
                    for dy in -1...0 { for dx in -1...0 {
                        let x = (Int(a.x) + dx + sim.width) % sim.width, y = (Int(a.y) + dy + sim.height) % sim.height
                        boundary.insert(y * sim.width + x)
                    } }
                }
            }
        }
        let packed = (0..<(sim.width * sim.height)).map { i in
            UInt32(min(n[0][i], 255)) | UInt32(min(n[1][i], 255)) << 8 | UInt32(min(n[2][i], 255)) << 16
        }
        return (packed, boundary)
    }

    static func heads(_ sim: Simulation) -> [UInt32]? {
        sim.heads.map { Array(UnsafeBufferPointer(start: $0, count: sim.width * sim.height)) }
    }

    @Test(arguments: [false, true])
    func headCountsAreTheAgentsOnEachPixel(blurEveryStep: Bool) throws {
        var p = PresetParams()
        p[.agents] = 60_000
        p[.diffusion] = blurEveryStep ? 1 : 3
        let sim = Simulation(width: 160, height: 96, params: p, seed: 7, threads: 2)
        sim.step(p, count: 5)
        #expect(Self.heads(sim) == nil, "not recorded unless asked")
        sim.recordsHeads = true
        sim.step(p, count: 41)
        let heads = try #require(Self.heads(sim))
        let (expected, boundary) = Self.stamp(sim)
        let differing = (0..<heads.count).filter { heads[$0] != expected[$0] }
        #expect(differing.allSatisfy(boundary.contains), "\(differing.count) pixels differ away from pixel edges")
        #expect(differing.count <= boundary.count)
        #expect(heads.contains { $0 & 0xFF > 1 } && heads.contains { $0 >> 16 > 0 }, "trails gather agents")
        sim.reset()
        #expect(Self.heads(sim) == nil, "a reset invalidates the counts")
    }

    @Test func headCountsDoNotDependOnTheThreadCount() throws {
        var p = PresetParams()
        p[.agents] = 40_000
        var runs: [[UInt32]] = []
        for threads in [1, 2, 4] {
            let sim = Simulation(width: 128, height: 80, params: p, seed: 3, threads: threads)
            sim.recordsHeads = true
            sim.step(p, count: 30)
            runs.append(try #require(Self.heads(sim)))
        }
        #expect(runs[0] == runs[1] && runs[1] == runs[2])
    }
}
