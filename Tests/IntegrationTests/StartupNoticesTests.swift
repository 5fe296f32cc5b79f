import Foundation
import Testing
import TestSupport

/// Problems found at start-up reach the user, however many there are: the
/// real window under Xvfb with a presets folder of broken files.
@Suite(.serialized) struct StartupNoticesTests {
    static var repoConfigs: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("configs")
    }

    /// A configs folder with `broken` preset files beside one good preset.
    static func brokenPresets(in home: WindowTestHome, count broken: Int) throws -> URL {
        let configs = home.file("configs")
        let presets = configs.appendingPathComponent("presets")
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repoConfigs.appendingPathComponent("audio"), to: configs.appendingPathComponent("audio"))
        try FileManager.default.copyItem(at: Self.repoConfigs.appendingPathComponent("presets/aurora.json"), to: presets.appendingPathComponent("aurora.json"))
        for i in 1...broken {
            let text = i % 2 == 0 ? "{ not json \(i)" : #"{"format": 1, "id": "b\#(i)", "name": 5}"#
            try Data(text.utf8).write(to: presets.appendingPathComponent(String(format: "broken-%02d.json", i)))
        }
        return configs
    }

    @Test func twentyNineBrokenPresetFilesGiveTwentyNineNotices() throws {
        let home = try WindowTestHome("notices")
        let configs = try Self.brokenPresets(in: home, count: 29)
        let state = home.file("state.json")
        let app = try AppProcess(["--no-session", "--no-audio", "--agents", "20000", "--state-file", state.path],
                                 environment: home.environment(["PHYSARUM_CONFIG_DIR": configs.path]))
        defer { app.stop() }
        var notices: [String: Any] = [:]
        #expect(poll(seconds: 60) {
            guard let d = try? Data(contentsOf: state), let o = try? JSONSerialization.jsonObject(with: d) as? [String: Any],
                  let n = o["notices"] as? [String: Any] else { return false }
            notices = n
            return true
        }, "the app writes its state: \(app.stderr)")
        let history = notices["history"] as? [[String: Any]] ?? []
        let skipped = history.filter { ($0["text"] as? String)?.hasPrefix("Preset skipped: broken-") == true }
        #expect(skipped.count == 29, "every problem is in the notices history: \(history.count)")
        let shown = (notices["shown"] as? [Any])?.count ?? 0, hidden = notices["hidden"] as? Int ?? -1
        #expect(shown > 0 && shown + hidden >= 29, "the strip shows some and says how many more: \(shown) + \(hidden)")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
        let lines = app.stderr.split(separator: "\n").filter { $0.contains("Preset skipped: broken-") }
        #expect(lines.count == 29, "every problem on stderr, once: \(app.stderr)")
        for i in 1...29 { #expect(lines.contains { $0.contains(String(format: "broken-%02d.json", i)) }) }
    }

    /// The reader of the app's standard error goes away (a closed terminal,
    /// `physarum 2>&1 | head -1`, a launcher that stopped reading): its notices
    /// are lost, the set goes on. (It used to crash on the first notice:
    /// FileHandle's write traps on EPIPE.)
    @Test func aClosedStandardErrorLosesTheNoticesNotTheWindow() throws {
        let home = try WindowTestHome("closed-stderr")
        let configs = try Self.brokenPresets(in: home, count: 5)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AppProcess.binary)
        p.arguments = ["--no-session", "--no-audio", "--agents", "20000", "--quit-after", "4"]
        var env = ProcessInfo.processInfo.environment
        for (k, v) in home.environment(["PHYSARUM_CONFIG_DIR": configs.path]) { env[k] = v }
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        try err.fileHandleForReading.close()  // nobody reads it any more
        #expect(poll(seconds: 120) { !p.isRunning }, "the window quits after 4 s")
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 0,
                "ran to its end: \(p.terminationReason == .exit ? "exit" : "signal") \(p.terminationStatus)")
    }
}
