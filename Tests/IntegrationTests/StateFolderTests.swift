import Foundation
import Testing
import TestSupport

/// Two windows on one state folder, and `host --preset` given a file.
@Suite(.serialized) struct StateFolderTests {
    static func sessionPreset(_ home: WindowTestHome) -> String? {
        readJSON(home.file("physarum/session.json"))?["preset"] as? String
    }

    /// The first window autosaves; the second says the folder is taken and
    /// never writes the session, so the first one's look is what stays.
    @Test func aSecondWindowOnTheSameStateFolderSaysSoAndDoesNotAutosave() throws {
        let home = try WindowTestHome("state-lock")
        let args = ["--no-audio", "--no-midi", "--agents", "2000", "--size", "320x200", "--field", "320x200"]
        let first = try AppProcess(args + ["--preset", "aurora"], environment: home.environment())
        defer { first.stop() }
        #expect(poll(seconds: 90) { Self.sessionPreset(home) == "aurora" }, "the first window autosaves: \(first.stderr)")
        let stats = home.file("second-stats.jsonl")
        func frames() -> Int { AudioSourceSwitchTests.statsLines(stats).last?["frames"] as? Int ?? 0 }
        let second = try AppProcess(args + ["--preset", "frost", "--stats", stats.path], environment: home.environment())
        defer { second.stop() }
        #expect(poll(seconds: 90) { frames() >= 10 }, "the second window runs: \(second.stderr)")
        #expect(second.stderr.contains("Another Physarum Live window (process \(first.pid)) uses the state folder \(home.file("physarum").path): "
                                       + "this one does not autosave its session"), "\(second.stderr)")
        // Well past the autosave interval of the second window.
        let seen = frames()
        #expect(poll(seconds: 60) { frames() >= seen + 60 })
        #expect(Self.sessionPreset(home) == "aurora", "the second window did not overwrite the first one's session")
        second.signal(SIGTERM)
        #expect(second.wait(seconds: 30) == 0)
        #expect(Self.sessionPreset(home) == "aurora", "not at its quit either")
        first.signal(SIGTERM)
        #expect(first.wait(seconds: 30) == 0)
        // The lock went with the first window: the next one owns the folder, quietly.
        let third = try AppProcess(args + ["--preset", "frost", "--quit-after", "3"], environment: home.environment())
        defer { third.stop() }
        #expect(third.wait(seconds: 90) == 0)
        #expect(!third.stderr.contains("Another Physarum Live window"), "\(third.stderr)")
        #expect(Self.sessionPreset(home) == "frost")
    }

    /// `host --preset` takes a preset file like the window does; a path that
    /// is not a .json file is named as a path, not as a missing preset name.
    @Test func hostPresetTakesAFileAndNamesABadPathAsAPath() throws {
        let fx = try RemoteFixture()
        let file = fx.file("mine.json")
        try #"{"format":1,"name":"Mine","tags":[],"params":{"global.agents":5000,"global.exposure":2.75}}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let host = try fx.startHost(extra: ["--preset", file.path])
        defer { host.process.stop() }
        #expect(poll(seconds: 30) { ((host.state?["params"] as? [String: Any])?["global.exposure"] as? NSNumber)?.doubleValue == 2.75 },
                "the file's look runs: \(host.process.stderr)")
        #expect(!host.process.stderr.contains("There is no preset"), "\(host.process.stderr)")
        host.process.signal(SIGTERM)
        _ = host.process.wait(seconds: 30)

        let bad = fx.dir.appendingPathComponent("looks/mine.txt").path
        let other = try fx.startHost("other", extra: ["--preset", bad])
        defer { other.process.stop() }
        #expect(poll(seconds: 30) { other.process.stderr.contains("--preset \(bad): a preset file must be a .json file, and this is not a preset name") },
                "\(other.process.stderr)")
    }
}
