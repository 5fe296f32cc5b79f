import Foundation
import Storage
import Testing
@testable import AudioReactive
import Engine

@Suite struct AudioConfigTests {
    private func shipped(_ name: String) throws -> LoadedAudioConfig {
        try AudioConfig.load(contentsOf: configRepoRoot.appendingPathComponent("configs/audio/\(name).json"))
    }

    @Test func shippedConfigsLoadWithoutWarnings() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: configRepoRoot.appendingPathComponent("configs/audio").path)
            .filter { $0.hasSuffix(".json") }
        #expect(names.count >= 4)
        for n in names {
            let loaded = try shipped(String(n.dropLast(5)))
            #expect(loaded.warnings.isEmpty, "\(n): \(loaded.warnings)")
            #expect(!loaded.config.routes.isEmpty, "\(n)")
        }
    }

    @Test func defaultConfigIsTheDefaultWiring() throws {
        #expect(try shipped("default").config == AudioConfig.builtInDefault)
    }

    @Test func microphoneProfileHasAHigherBassBandAndAStricterGate() throws {
        let mic = try shipped("microphone").config
        let def = try shipped("default").config
        let micBands = mic.tuning.bandEdges, defBands = def.tuning.bandEdges
        #expect(micBands[1] > defBands[1] && micBands[2] > defBands[2], "bass band edges")
        #expect(mic.tuning.gateLow > def.tuning.gateLow && mic.tuning.gateHigh > def.tuning.gateHigh)
        let ambient = try shipped("ambient").config, club = try shipped("club").config
        #expect(ambient.reactivity < def.reactivity && club.reactivity > def.reactivity)
        #expect(ambient.tuning.release > def.tuning.release && club.tuning.release < def.tuning.release)
    }

    @Test func roundTripsAndKeepsUnknownKeys() throws {
        let text = """
        {
          "format": 1, "name": "Mine", "enabled": false, "autoGain": false, "gain": -3.5, "reactivity": 1.25,
          "comment": {"by": "me", "tags": [1, 2]},
          "tuning": {"attack": 4, "release": 300, "gateLow": 2, "gateHigh": 5, "hold": 10, "autoGainAdaptation": 3,
                     "onsetSensitivity": 0.75, "refractory": 40, "transientDecay": 90, "futureKnob": 7},
          "bands": [30, 70, 260, 510, 2100, 4100, 6100, 19000],
          "routes": [
            {"source": "bass", "target": "species.*.moveSpeed", "depth": -0.5, "smoothing": 25, "curve": 2, "invert": true, "muted": true, "color": "red"},
            {"source": "full", "target": "pheromone.diffusion", "mode": "transient", "depth": 1}
          ],
          "zzz": null
        }
        """
        let loaded = try AudioConfig.decode(data: Data(text.utf8), file: "mine.json")
        let c = loaded.config
        #expect(c.name == "Mine" && !c.enabled && !c.tuning.autoGain && c.tuning.gain == -3.5 && c.reactivity == 1.25)
        #expect(c.tuning.attack == 4 && c.tuning.transientDecay == 90 && c.tuning.onsetSensitivity == 0.75)
        #expect(c.tuning.bands == [30, 70, 260, 510, 2100, 4100, 6100, 19000])
        #expect(c.routes.count == 2)
        #expect(c.routes[0].invert && c.routes[0].muted && c.routes[0].curve == 2 && c.routes[0].smoothing == 25)
        #expect(c.routes[1].mode == .transient && c.routes[1].target == .parameter(.diffusion))
        #expect(loaded.warnings.map(\.path.description) == ["tuning.futureKnob", "routes[0].color", "comment", "zzz"])
        #expect(loaded.warnings.first?.description == "mine.json:5:80: tuning.futureKnob: unknown key 'futureKnob' is ignored (kept when saved)")
        // Re-save: same config, the unknown keys still there, where they were.
        let again = try AudioConfig.decode(data: Data(c.jsonText.utf8))
        #expect(again.config == c)
        let tree = try StrictJSON.parse(text: c.jsonText)
        #expect(tree.object?["comment"]?.object?["tags"]?.array?.count == 2)
        #expect(tree.object?["tuning"]?.object?["futureKnob"]?.number == 7)
        #expect(tree.object?["routes"]?.array?.first?.object?["color"]?.string == "red")
        #expect(tree.object?.keys.last == "zzz")
    }

    @Test func minimalConfigTakesDefaults() throws {
        let c = try AudioConfig.decode(data: Data(#"{"format": 1, "name": "Bare"}"#.utf8)).config
        var expected = AudioConfig(name: "Bare")
        expected.routes = []
        #expect(c == expected)
        #expect(c.tuning.bandEdges == AudioBandEdges.standard)
    }

    @Test func configureSetsTheModulator() throws {
        var c = try shipped("club").config
        var m = Modulator()
        c.configure(&m)
        #expect(m.routes == c.routes && m.reactivity == c.reactivity && m.enabled)
        c.enabled = false
        c.configure(&m)
        #expect(!m.enabled)
    }

    @Test func publishedSchemaMatchesTheLoader() throws {
        let doc = try String(contentsOf: configRepoRoot.appendingPathComponent("docs/audio-config.schema.json"), encoding: .utf8)
        #expect(doc == AudioConfigSchema.text, "regenerate with: physarum config schema > docs/audio-config.schema.json")
        let schema = try StrictJSON.parse(text: doc)
        let targets = schema.object?["$defs"]?.object?["route"]?.object?["properties"]?.object?["target"]?.object?["enum"]?.array
        #expect(targets?.compactMap(\.string).contains("species.*.moveSpeed") == true)
        #expect(targets?.compactMap(\.string).contains("global.agents") == false)
    }
}
