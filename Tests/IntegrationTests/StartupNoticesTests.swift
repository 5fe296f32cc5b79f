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

    @Test func twentyNineBrokenPresetFilesGiveTwentyNineNotices() throws {
        let home = try WindowTestHome("notices")
        let configs = home.file("configs")
        let presets = configs.appendingPathComponent("presets")
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repoConfigs.appendingPathComponent("audio"), to: configs.appendingPathComponent("audio"))
        try FileManager.default.copyItem(at: Self.repoConfigs.appendingPathComponent("presets/aurora.json"), to: presets.appendingPathComponent("aurora.json"))
        for i in 1...29 {
            let text = i % 2 == 0 ? "{ not json \(i)" : #"{"format": 1, "id": "b\#(i)", "name": 5}"#
            try Data(text.utf8).write(to: presets.appendingPathComponent(String(format: "broken-%02d.json", i)))
        }
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
}
