import Foundation
import Storage
import Testing
@testable import Engine

@Suite struct ParamRegistryTests {
    @Test func fortyFiveScalarsWithHelpAndUniqueIDs() {
        let specs = ParamRegistry.scalars
        #expect(specs.count == 45)
        #expect(Set(specs.map(\.id)).count == specs.count)
        for s in specs {
            #expect(s.help.count >= 40, "help of \(s.id) is too short")
            #expect(s.min < s.max, "\(s.id) has an empty range")
            #expect(s.defaultValue >= s.min && s.defaultValue <= s.max, "\(s.id) default out of range")
            if s.scale == .log { #expect(s.min > 0, "\(s.id) log scale needs min > 0") }
        }
        for o in ParamRegistry.others { #expect(!o.help.isEmpty) }
    }

    @Test func sectionsHaveTheDesignedCounts() {
        let bySection = Dictionary(grouping: ParamRegistry.scalars, by: \.section).mapValues(\.count)
        #expect(bySection[.global] == 3)
        #expect(bySection[.species] == 18)
        #expect(bySection[.matrix] == 9)
        #expect(bySection[.pheromone] == 4)
        #expect(bySection[.dynamics] == 3)
        #expect(bySection[.effects] == 8)
    }

    @Test func keysMatchIDs() {
        #expect(ParamKey.exposure.id == "global.exposure")
        #expect(ParamKey.species(1, .moveSpeed).id == "species.1.moveSpeed")
        #expect(ParamKey.matrix(0, 2).id == "matrix.0.2")
        #expect(ParamKey.decay.id == "pheromone.decay")
        #expect(ParamKey.bloom.id == "effects.bloom")
        #expect(ParamKey.contrast.id == "effects.contrast")
        for (i, s) in ParamRegistry.scalars.enumerated() {
            #expect(ParamRegistry.key(id: s.id)?.index == i)
        }
    }

    @Test func respawnAndSimSpeedAreNotModulatable() {
        let blocked = ParamRegistry.scalars.filter { !$0.isModulatable }.map(\.id).sorted()
        #expect(blocked == ["global.agents", "global.simSpeed", "species.0.population", "species.1.population", "species.2.population"])
    }

    @Test func jsonRoundTripIsExact() throws {
        var rng = SeededRandom(state: 7)
        for _ in 0..<50 {
            var p = PresetParams()
            for (i, s) in ParamRegistry.scalars.enumerated() {
                p[ParamKey(index: i)] = s.min + rng.unit() * s.span
            }
            p.spawnPattern = SpawnPattern.allCases[Int(rng.unit() * 7) % 7]
            p.blendMode = rng.unit() < 0.5 ? .paint : .additive
            p.background = RGBColor(r: UInt8(rng.unit() * 255), g: 3, b: 200)
            p.setColor(RGBColor(r: 1, g: 2, b: UInt8(rng.unit() * 255)), species: 2)
            let back = try PresetParams(strict: StrictJSON.parse(text: JSONWriter.compact(p.jsonNode)))
            #expect(back == p)
            #expect(back.scalars.map(\.bitPattern) == p.scalars.map(\.bitPattern))
        }
    }

    @Test func decodingRejectsUnknownIDsAndOutOfRange() {
        let bad = [#"{"global.nope": 1}"#, #"{"global.exposure": 99}"#, #"{"pheromone.diffusion": 2.5}"#,
                   #"{"render.background": "red"}"#, #"{"spawn.pattern": "square"}"#]
        for text in bad {
            #expect(throws: (any Error).self, "\(text)") { try PresetParams(strict: StrictJSON.parse(text: text)) }
        }
    }

    @Test func nonFiniteValuesNeverGetIn() {
        var p = PresetParams()
        p[.exposure] = .nan
        #expect(p[.exposure] == ParamKey.exposure.spec.defaultValue)
        p[.exposure] = .infinity
        #expect(p[.exposure] == ParamKey.exposure.spec.max)
        p[.diffusion] = 3.7
        #expect(p[.diffusion] == 4)
        p[.decay] = -5
        #expect(p[.decay] == 0)
    }

    @Test(arguments: ParamRegistry.scalars)
    func to01AndFrom01AreInverse(spec: ParamSpec) {
        for u in stride(from: 0.0, through: 1.0, by: 0.125) {
            let v = spec.from01(u)
            #expect(v >= spec.min && v <= spec.max)
            #expect(abs(spec.to01(v) - u) < 1e-9, "\(spec.id) at \(u)")
        }
        #expect(spec.from01(0) == spec.min && spec.from01(1) == spec.max)
    }

    @Test func speciesCountsFollowWeights() {
        var p = PresetParams()
        p[.agents] = 1000
        p[.species(0, .population)] = 1
        p[.species(1, .population)] = 0.5
        p[.species(2, .population)] = 0
        #expect(p.speciesCounts == [667, 333, 0])
        p[.species(0, .population)] = 0
        p[.species(1, .population)] = 0
        #expect(p.speciesCounts.reduce(0, +) == 1000)
        #expect(Set(p.speciesCounts).count <= 2)
    }

    @Test func colorsParseAndPrint() {
        #expect(RGBColor(hex: "#FF8800")?.hex == "#ff8800")
        #expect(RGBColor(hex: "ff8800") == nil)
        #expect(RGBColor(hex: "#ff88zz") == nil)
    }
}

