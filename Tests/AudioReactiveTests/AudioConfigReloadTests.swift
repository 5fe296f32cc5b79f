import Foundation
import Testing
@testable import AudioReactive
import Engine
import Storage
import TestSupport

@Suite struct ChangeDebouncerTests {
    @Test func releasesOnlyAfterAQuietPeriod() {
        var d = ChangeDebouncer(interval: 0.15)
        #expect(d.release(at: 0) == nil)
        d.note(["a.json"], at: 1.0)
        d.note([".a.json.swp"], at: 1.1)
        #expect(d.release(at: 1.2) == nil)
        #expect(abs((d.timeUntilRelease(at: 1.2) ?? 0) - 0.05) < 1e-9)
        #expect(d.release(at: 1.25) == ["a.json", ".a.json.swp"])
        #expect(d.release(at: 2) == nil)
        #expect(d.timeUntilRelease(at: 2) == nil)
    }
}

/// Live reload with real files and inotify: an edited config takes effect; an
/// invalid edit keeps the last good config and reports the error.
@Suite struct AudioConfigReloadTests {
    private func config(routes: [Route]) -> AudioConfig {
        var c = AudioConfig(name: "Live")
        c.routes = routes
        return c
    }

    /// Writes `text` the way many editors save: a new file renamed over the old one.
    private func saveLikeAnEditor(_ text: String, to url: URL) throws {
        let temp = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".swp")
        try Data(text.utf8).write(to: temp)
        #expect(rename(temp.path, url.path) == 0)
    }

    @Test func editedConfigTakesEffectAndInvalidTextKeepsTheLastGood() throws {
        let dir = try ConfigTestDir()
        let bloom = Route(source: .bass, target: .parameter(.bloom), depth: 0.5)
        let url = try dir.write("live.json", config(routes: [bloom]).jsonText)
        // What the app does with the watcher's updates: a reload replaces the
        // config in use, a failure only reports its errors.
        var inUse = try AudioConfig.load(contentsOf: url).config
        var lastErrors: [JSONError] = []
        func take(_ update: AudioConfigWatcher.Update) {
            switch update {
            case .reloaded(let loaded, _):
                inUse = loaded.config
                lastErrors = []
            case .failed(let errors, _):
                lastErrors = errors.errors
            }
        }
        let watcher = try AudioConfigWatcher(file: url)
        defer { watcher.stop() }
        var modulator = Modulator()
        inUse.configure(&modulator)

        let base = PresetParams()
        var loud = AudioFeatures(time: 1)
        loud[.bass].level = 1
        #expect(modulator.process(base: base, features: loud)[.vignette] == base[.vignette])

        // The user adds a route in a text editor and saves.
        let vignette = Route(source: .bass, target: .parameter(.vignette), depth: 0.4)
        try saveLikeAnEditor(config(routes: [bloom, vignette]).jsonText, to: url)
        let start = Date()
        let reloaded = poll(seconds: 1) {
            if let u = watcher.poll() { take(u) }
            return inUse.routes.count == 2
        }
        #expect(reloaded, "new route not applied within 1 s")
        let latency = Date().timeIntervalSince(start)
        inUse.configure(&modulator)
        loud.time = 2
        #expect(modulator.process(base: base, features: loud)[.vignette] > base[.vignette])
        #expect(lastErrors.isEmpty)
        print("config reload latency: \(Int(latency * 1000)) ms")

        // Now a broken save (in place this time): the previous config stays, the error is reported.
        let good = inUse
        try Data("{\"format\": 1, \"name\": \"Live\", \"routes\": [".utf8).write(to: url)
        let reported = poll(seconds: 2) {
            if let u = watcher.poll() { take(u) }
            return !lastErrors.isEmpty
        }
        #expect(reported, "error not reported")
        #expect(inUse == good)
        #expect(lastErrors.first?.description.hasPrefix(url.path + ":1:") == true)
        #expect(lastErrors.first?.reason.contains("end of input") == true)
        // And the broken file was not rewritten.
        #expect(try String(contentsOf: url, encoding: .utf8) == "{\"format\": 1, \"name\": \"Live\", \"routes\": [")

        // Fixing it applies again.
        try saveLikeAnEditor(config(routes: [vignette]).jsonText, to: url)
        let fixed = poll(seconds: 2) {
            if let u = watcher.poll() { take(u) }
            return inUse.routes == [vignette]
        }
        #expect(fixed && lastErrors.isEmpty)
    }

    @Test func followedFileIsReloadedAmongOtherChanges() throws {
        let dir = try ConfigTestDir()
        let url = try dir.write("live.json", config(routes: []).jsonText)
        let watcher = try AudioConfigWatcher(file: url, debounce: 0.05)
        defer { watcher.stop() }
        try dir.write("other.json", "not json")
        // A broken neighbour does not matter: the followed file is what gets reloaded.
        try dir.write("live.json", config(routes: [DefaultWiring.routes[0]]).jsonText)
        var update: AudioConfigWatcher.Update?
        _ = poll(seconds: 2) {
            update = watcher.poll()
            return update != nil
        }
        guard case .reloaded(let loaded, _)? = update else {
            Issue.record("expected a reload, got \(String(describing: update))")
            return
        }
        #expect(loaded.config.routes.count == 1)
    }
}
