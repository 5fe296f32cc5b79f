import Foundation
import Testing
import TestSupport

/// `--play FILE`: a recording looped through the live analysis drives the
/// window with no sound server; a file that cannot be played is named in one
/// line and the window keeps running without audio.
@Suite(.serialized) struct PlayFileTests {
    static func run(_ extra: [String], home: URL, stats: URL, display: String) throws -> AppProcess {
        try AppProcess(["--no-session", "--agents", "20000", "--size", "320x200", "--field", "320x200",
                        "--stats", stats.path] + extra,
                       environment: ["DISPLAY": display, "XDG_STATE_HOME": home.path, "XDG_DATA_HOME": home.path,
                                     "XDG_CONFIG_HOME": home.path, "PULSE_SERVER": "unix:/nonexistent"])
    }

    @Test func aPlayedFileDrivesTheWindowWithoutAServer() throws {
        let display = try #require(TestDisplay.display, "Xvfb is needed (scripts/test installs it)")
        let home = makeTempDir("play-file")
        defer { try? FileManager.default.removeItem(at: home) }
        let stats = home.appendingPathComponent("stats.jsonl")
        let clicks = try LiveAudioWindowTests.clickFile(count: 8, interval: 0.4)
        let app = try Self.run(["--play", clicks.path], home: home, stats: stats, display: display)
        defer { app.stop() }
        // The clicks repeat every 3.5 s; onsets keep arriving while the file loops.
        let heard = poll(seconds: 60) { (LiveAudioWindowTests.statsLines(stats).last?["onsets"] as? Int ?? 0) >= 10 }
        #expect(heard, "onsets from the looped file: \(LiveAudioWindowTests.statsLines(stats).last ?? [:]) \(app.stderr)")
        #expect(LiveAudioWindowTests.statsLines(stats).last?["audio"] as? String == "file: clicks.wav (looped)")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0, "a quit event exits 0")
    }

    @Test func aFileThatCannotBePlayedIsNamedAndTheWindowRuns() throws {
        let display = try #require(TestDisplay.display, "Xvfb is needed (scripts/test installs it)")
        let home = makeTempDir("play-missing")
        defer { try? FileManager.default.removeItem(at: home) }
        let stats = home.appendingPathComponent("stats.jsonl")
        let missing = home.appendingPathComponent("missing.wav").path
        let app = try Self.run(["--play", missing], home: home, stats: stats, display: display)
        defer { app.stop() }
        #expect(poll(seconds: 60) { LiveAudioWindowTests.statsLines(stats).count >= 2 }, "the window runs: \(app.stderr)")
        #expect(LiveAudioWindowTests.statsLines(stats).last?["audio"] as? String == "audio off")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
        let lines = app.stderr.split(separator: "\n").filter { $0.contains("--play") }
        #expect(lines.count == 1 && lines[0].contains(missing), "one line names the file: \(app.stderr)")
    }
}
