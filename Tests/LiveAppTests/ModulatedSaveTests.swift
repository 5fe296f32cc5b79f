import AudioReactive
import Engine
import Foundation
import TestSupport
import Testing
@testable import LiveCore
@testable import LiveApp

/// Saving a preset while routes are driving the look saves the base values
/// (what the user edited), never the modulated ones on screen — through the
/// real save path: app model → library action → `LiveSet` → I/O worker →
/// `LibraryStore` writing `library.json` in a temporary XDG data home.
@Suite struct ModulatedSaveTests {
    /// The live loop in miniature, as `LiveRunner` runs it: features → the
    /// frame pipeline (modulator → simulation steps → render) → `LiveSet` as
    /// its output.
    final class Loop {
        var model: AppModel
        let live: LiveSet
        let pipeline: FramePipeline
        var effective: PresetParams { pipeline.effective }
        var time = 0.0

        init(dir: LibraryTestDir, routes: [Route]) {
            let env = ["HOME": dir.path, "XDG_DATA_HOME": dir.path + "/data", "XDG_PICTURES_DIR": dir.path + "/pics",
                       "XDG_CONFIG_HOME": dir.path + "/config"]
            live = LiveSet(factory: testFactory, environment: env,
                           recorder: Recorder(fps: 30, directory: { dir.path + "/videos" }, makeSink: { _ in LiveSetTests.CountingSink() }))
            model = AppModel(library: live.initialLibrary)
            var p = model.base
            p[.agents] = 2000
            pipeline = FramePipeline(field: (64, 36), output: (64, 36), params: p, seed: 3, threads: 2)
            pipeline.modulator = Modulator(routes: routes)
            pipeline.add(live)
        }

        func apply(_ a: AppAction) {
            for e in model.handle(a) { for b in live.perform(e) { apply(b) } }
        }

        /// One frame with `features` (a loud synthetic band signal).
        func frame(_ features: AudioFeatures) {
            time += 1.0 / 60
            for a in live.tick(dt: 1.0 / 60, model: model) { apply(a) }
            pipeline.run(.init(base: model.base, features: features, brightness: live.brightness),
                         tick: FrameTick(index: pipeline.frameCount, time: time, dt: 1.0 / 60))
            for a in live.drainActions() { apply(a) }
        }
    }

    /// Loud bass and a hit on every hop, at `time`.
    static func loud(_ time: Double) -> AudioFeatures {
        var f = AudioFeatures(time: time)
        for id in AudioSourceID.allCases {
            f[id] = SourceFeatures(level: 1, transient: 1, gate: 1)
        }
        return f
    }

    @Test func savingWhileRoutesDriveTheLookSavesTheBase() throws {
        let dir = LibraryTestDir()
        let routes = [
            Route(source: .bass, target: .parameter(.exposure), mode: .level, depth: 1),
            Route(source: .full, target: .allSpecies(.moveSpeed), mode: .transient, depth: 1),
            Route(source: .brilliance, target: .parameter(.bloom), mode: .level, depth: 1),
        ]
        let loop = Loop(dir: dir, routes: routes)
        defer { loop.live.shutdown() }
        // The user's own edit of a routed parameter is part of the base.
        loop.apply(.setParam(.exposure, 0.7))
        for k in 0..<20 { loop.frame(Self.loud(Double(k) / 60)) }
        let base = loop.model.base
        let shown = loop.effective
        #expect(base[.exposure] == 0.7)
        #expect(shown[.exposure] > 7, "a depth-1 route on a loud band drives exposure to the top of its range")
        for s in 0..<3 { #expect(shown[.species(s, .moveSpeed)] > base[.species(s, .moveSpeed)]) }
        #expect(shown[.bloom] > base[.bloom])

        // Save while the music keeps playing, through the library action.
        loop.apply(.library(.saveToSlot(2, name: "Mid-drop")))
        for k in 20..<24 { loop.frame(Self.loud(Double(k) / 60)) }
        #expect(poll(seconds: 10) { loop.live.worker.isIdle })
        loop.frame(Self.loud(24.0 / 60))
        #expect(loop.model.base == base, "modulation never changes the base")

        // What is on disk, read back by a fresh store (as the next start would).
        #expect(FileManager.default.fileExists(atPath: dir.file("data/physarum/library.json")))
        let reloaded = LibraryStore(directory: URL(fileURLWithPath: dir.file("data/physarum"))).load()
        #expect(reloaded.problem == nil)
        let saved = try #require(reloaded.document.slots[2]?.preset)
        #expect(saved.name == "Mid-drop")
        #expect(saved.params == base, "the saved look is the base, not the modulated frame")
        #expect(saved.params[.exposure] == 0.7 && saved.params[.exposure] != shown[.exposure])
        for s in 0..<3 { #expect(saved.params[.species(s, .moveSpeed)] == base[.species(s, .moveSpeed)]) }
        #expect(saved.params[.bloom] == base[.bloom])
    }
}
