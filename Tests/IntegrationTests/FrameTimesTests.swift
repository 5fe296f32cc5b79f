import Foundation
import Testing
import TestSupport

/// `--frame-times` and `--max-fps` in the real window (Xvfb): every frame is
/// logged, and a timer-paced loop never starts a frame early.
@Suite struct FrameTimesTests {
    @Test func framesAreLoggedAndPacedByMaxFPS() throws {
        let display = try #require(TestDisplay.display, "Xvfb is needed (scripts/test installs it)")
        let home = makeTempDir("frame-times")
        defer { try? FileManager.default.removeItem(at: home) }
        let log = home.appendingPathComponent("frames.jsonl")
        let fps = 40.0
        let app = try AppProcess(["--no-audio", "--no-session", "--agents", "2000", "--size", "320x200", "--field", "320x200",
                                  "--max-fps", "40", "--frame-times", log.path, "--quit-after", "3"],
                                 environment: ["DISPLAY": display, "XDG_STATE_HOME": home.path, "XDG_CONFIG_HOME": home.path,
                                               "XDG_DATA_HOME": home.path])
        defer { app.stop() }
        #expect(app.wait(seconds: 90) == 0, "\(app.stderr)")
        let text = try String(contentsOf: log, encoding: .utf8)
        let frames = text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(frames.count == text.split(separator: "\n").count, "every line is a JSON object")
        #expect(frames.count >= 10, "the window ran for 3 s: \(frames.count) frames")
        var previous = -1.0
        for (k, f) in frames.enumerated() {
            let t = try #require(f["t"] as? Double)
            #expect(t > previous, "frame \(k) starts after frame \(k - 1)")
            previous = t
            #expect((f["ms"] as? Double ?? -1) >= 0 && (f["steps"] as? Int ?? -1) >= 0, "frame \(k): \(f)")
            if k > 0 {
                // Pacing sleeps out the rest of each 1/40 s: load can only make a frame later.
                let interval = try #require(f["intervalMs"] as? Double)
                #expect(interval >= 1000 / fps - 0.5, "frame \(k) started \(interval) ms after the previous")
            }
        }
    }
}
