import Testing
@testable import Engine

/// What a user would see of the simulation: networks form, species interact,
/// decay and chaos do what their help texts say.
@Suite struct SimulationBehaviourTests {
    static let width = 256, height = 192

    /// Look with trails forming: default species, given agents.
    static func look(agents: Int = 40_000) -> PresetParams {
        var p = PresetParams()
        p[.agents] = Double(agents)
        p[.decay] = 0.9
        return p
    }

    /// Share of total trail mass held by the brightest 5 % of pixels.
    static func topShare(_ sim: Simulation) -> Double {
        let n = sim.width * sim.height
        var total = [Double](repeating: 0, count: n)
        for s in 0..<3 {
            let t = sim.trail(species: s)
            for i in 0..<n { total[i] += Double(t[i]) }
        }
        let sum = total.reduce(0, +)
        let top = total.sorted(by: >).prefix(n / 20).reduce(0, +)
        return sum > 0 ? top / sum : 0
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func trailsFormNetworks(seed: UInt64) {
        let p = Self.look()
        let sim = Simulation(width: Self.width, height: Self.height, params: p, seed: seed)
        sim.step(p, count: 500)
        var control = p
        for s in 0..<3 { control[.species(s, .turnSpeed)] = 0 }
        let walk = Simulation(width: Self.width, height: Self.height, params: control, seed: seed)
        walk.step(control, count: 500)
        let formed = Self.topShare(sim), random = Self.topShare(walk)
        #expect(formed >= 2 * random, "top-5% share \(formed) vs random walk \(random)")
    }

    /// Pearson correlation of two species' channels.
    static func correlation(_ a: [Float], _ b: [Float]) -> Double {
        let n = Double(a.count)
        let ma = a.reduce(0.0) { $0 + Double($1) } / n, mb = b.reduce(0.0) { $0 + Double($1) } / n
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for i in 0..<a.count {
            let x = Double(a[i]) - ma, y = Double(b[i]) - mb
            sab += x * y; saa += x * x; sbb += y * y
        }
        return sab / (saa * sbb).squareRoot()
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func repellingSpeciesSeparate(seed: UInt64) {
        func run(_ offDiagonal: Double) -> Double {
            var p = Self.look()
            p[.species(2, .population)] = 0
            for r in 0..<3 { for c in 0..<3 { p[.matrix(r, c)] = r == c ? 1 : offDiagonal } }
            let sim = Simulation(width: Self.width, height: Self.height, params: p, seed: seed)
            sim.step(p, count: 500)
            return Self.correlation(sim.trail(species: 0), sim.trail(species: 1))
        }
        let repel = run(-1), attract = run(1)
        #expect(attract > 0.2, "attracting species should overlap (r = \(attract))")
        #expect(repel <= 0.5 * attract, "repel r = \(repel), attract r = \(attract)")
    }

    @Test func decayZeroEmptiesTheFieldInOneStep() {
        var p = Self.look(agents: 10_000)
        let sim = Simulation(width: 128, height: 96, params: p, seed: 4)
        sim.step(p, count: 20)
        #expect((0..<3).map { sim.field.mass(species: $0) }.reduce(0, +) > 0)
        p[.decay] = 0
        sim.step(p)
        for s in 0..<3 { #expect(sim.trail(species: s).allSatisfy { $0 == 0 }) }
    }

    /// Sorted headings, so the check does not depend on storage order (agents
    /// are tile-sorted every few steps).
    static func headingSet(_ sim: Simulation) -> [[Float]] {
        (0..<3).flatMap { sim.agentStates(species: $0) }.map { [$0.hx, $0.hy] }
            .sorted { $0[0] != $1[0] ? $0[0] < $1[0] : $0[1] < $1[1] }
    }

    @Test(arguments: [3, 5, 16])
    func chaosKicksHappenExactlyAtTheInterval(interval: Int) {
        var p = Self.look(agents: 3_000)
        for s in 0..<3 { p[.species(s, .turnSpeed)] = 0 }
        p[.rhythm] = 0
        p[.chaosInterval] = Double(interval)
        p[.chaosStrength] = 0.5
        let sim = Simulation(width: 128, height: 96, params: p, seed: 9)
        var before = Self.headingSet(sim)
        for k in 0..<(3 * interval + 2) {
            sim.step(p)
            let after = Self.headingSet(sim)
            let kicked = (k + 1) % interval == 0
            #expect((after != before) == kicked, "step \(k + 1): changed \(after != before), expected \(kicked)")
            before = after
        }
    }

    @Test func sensorsSteerAgentsOntoTrails() {
        // With turning on, agents end up on brighter pixels than they would by chance.
        let p = Self.look(agents: 20_000)
        let sim = Simulation(width: Self.width, height: Self.height, params: p, seed: 11)
        sim.step(p, count: 200)
        let t = sim.trail(species: 0)
        let onTrail = sim.agentStates(species: 0).map { Double(t[Int($0.y) * Self.width + Int($0.x)]) }
        let meanOn = onTrail.reduce(0, +) / Double(onTrail.count)
        let meanField = t.reduce(0.0) { $0 + Double($1) } / Double(t.count)
        #expect(meanOn > 2 * meanField)
    }

    @Test func changingPopulationsRespawnsOnlyWhatMust() {
        var p = Self.look(agents: 9_000)
        let sim = Simulation(width: 128, height: 96, params: p, seed: 2)
        sim.step(p, count: 20)
        let before = (0..<3).map { s in sim.agentStates(species: s).map { [$0.x, $0.y, $0.hx, $0.hy] } }
        // Species 2 grows from 3000 to 6000; species 0 and 1 keep 3000 each.
        p[.agents] = 12_000
        p[.species(0, .population)] = 0.5
        p[.species(1, .population)] = 0.5
        p[.species(2, .population)] = 1
        sim.reconcile(p)
        #expect(sim.speciesCounts == [3000, 3000, 6000])
        let after = (0..<3).map { s in sim.agentStates(species: s).map { [$0.x, $0.y, $0.hx, $0.hy] } }
        #expect(after[0] == before[0], "species 0 was untouched")
        #expect(after[1] == before[1], "species 1 was untouched")
        #expect(Array(after[2].prefix(3000)) == before[2], "species 2 kept its agents and gained new ones")
        // Everyone shrinks: an evenly strided subset remains, still spanning the field.
        var q = p
        q[.agents] = 6_000
        sim.reconcile(q)
        #expect(sim.speciesCounts == [1500, 1500, 3000])
        let xs = sim.agentStates(species: 0).map(\.x)
        #expect(xs.min()! < 20 && xs.max()! > 108)
        sim.step(q)
        #expect(sim.params == q)
    }

    @Test func fieldSizeIsIndependentAndAgentsStayInside() {
        let p = Self.look(agents: 5_000)
        for (w, h) in [(64, 64), (300, 17), (17, 300)] {
            let sim = Simulation(width: w, height: h, params: p, seed: 1)
            sim.step(p, count: 50)
            for s in 0..<3 {
                for a in sim.agentStates(species: s) {
                    #expect(a.x >= 0 && a.x < Float(w) && a.y >= 0 && a.y < Float(h))
                }
            }
        }
    }

    @Test(arguments: SpawnPattern.allCases)
    func everySpawnPatternPlacesAgentsInside(pattern: SpawnPattern) {
        var p = Self.look(agents: 3_000)
        p.spawnPattern = pattern
        let sim = Simulation(width: 160, height: 90, params: p, seed: 5)
        let all = (0..<3).flatMap { sim.agentStates(species: $0) }
        #expect(all.count == 3_000)
        for a in all {
            #expect(a.x >= 0 && a.x < 160 && a.y >= 0 && a.y < 90)
            #expect(abs(a.hx * a.hx + a.hy * a.hy - 1) < 1e-4)
        }
        sim.step(p, count: 10)
        #expect((0..<3).map { sim.field.mass(species: $0) }.reduce(0, +) > 0)
    }
}
