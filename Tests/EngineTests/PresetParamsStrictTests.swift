import Foundation
import Storage
import Testing
@testable import Engine

@Suite struct PresetParamsStrictTests {
    @Test func roundTripsThroughTheStrictReader() throws {
        var p = PresetParams()
        p[.exposure] = 2.5
        p[.diffusion] = 7
        p[.species(1, .moveSpeed)] = 3.25
        p.spawnPattern = .spiral
        p.blendMode = .paint
        p.background = RGBColor(r: 1, g: 2, b: 3)
        p.setColor(RGBColor(r: 0xaa, g: 0xbb, b: 0xcc), species: 2)
        let text = JSONWriter.pretty(p.jsonNode)
        let back = try PresetParams(strict: StrictJSON.parse(text: text))
        #expect(back == p)
        // The compact form reads back the same.
        #expect(try PresetParams(strict: StrictJSON.parse(text: JSONWriter.compact(p.jsonNode))) == p)
    }

    @Test func missingIdsKeepDefaults() throws {
        let p = try PresetParams(strict: StrictJSON.parse(text: #"{"effects.bloom": 1.5}"#))
        var expected = PresetParams()
        expected[.bloom] = 1.5
        #expect(p == expected)
    }

    @Test func reportsEveryBadValueWithPathAndPosition() throws {
        let text = """
        {"params": {
          "effects.bloom": 5,
          "pheromone.diffusion": 2.5,
          "foo.bar": 1,
          "spawn.pattern": "square",
          "species.0.color": "red",
          "global.exposure": "1"
        }}
        """
        let root = try StrictJSON.parse(text: text)
        let node = try #require(root.object?["params"])
        do {
            _ = try PresetParams(strict: node, path: JSONPath.root.appending("params"), file: "p.json")
            Issue.record("should fail")
        } catch {
            #expect(error.errors.map(\.description) == [
                "p.json:2:20: params.effects.bloom: must be within 0…2, got 5",
                "p.json:3:26: params.pheromone.diffusion: must be a whole number, got 2.5",
                "p.json:4:3: params.foo.bar: unknown parameter id 'foo.bar'",
                "p.json:5:20: params.spawn.pattern: unknown spawn pattern 'square' (expected one of: random, disc, ring, centerBurst, spiral, sectors, clusters)",
                ##"p.json:6:22: params.species.0.color: expected a colour like "#ff8800", got "red""##,
                "p.json:7:22: params.global.exposure: expected a number, got a string",
            ])
        }
        #expect(throws: JSONErrorList.self) { try PresetParams(strict: .array([]), file: nil) }
    }
}
