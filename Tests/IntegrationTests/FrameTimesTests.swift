import Foundation
import Testing
import TestSupport

/// `--frame-times` and `--max-fps` in the real window (Xvfb): every frame is
/// logged, and a timer-paced loop keeps its frames on a 1/fps grid: never
/// faster than the cap, a late frame caught up by at most one period.
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
        var starts: [Double] = []
        for (k, f) in frames.enumerated() {
            let t = try #require(f["t"] as? Double)
            #expect(t > (starts.last ?? -1), "frame \(k) starts after frame \(k - 1)")
            starts.append(t)
            #expect((f["ms"] as? Double ?? -1) >= 0 && (f["steps"] as? Int ?? -1) >= 0, "frame \(k): \(f)")
            #expect(k == 0 || f["intervalMs"] is Double, "frame \(k) has its interval: \(f)")
        }
        // Each frame is due one period after the last was due: load makes a frame
        // late and the next one then waits less, so any four intervals span at
        // least three periods (times in the log are seconds; 2 ms slack for a preemption between the schedule and the stamp).
        let period = 1 / fps
        for k in 4..<max(4, starts.count) {
            #expect(starts[k] - starts[k - 4] >= 3 * period - 0.002,
                    "frames \(k - 4)…\(k) came faster than the cap: \(starts[(k - 4)...k].map { ($0 * 1000).rounded() }) ms")
        }
        if let first = starts.first, let last = starts.last, last > first {
            let rate = Double(starts.count - 1) / (last - first)
            #expect(rate <= fps * 1.02, "\(rate) fps over the run, capped at \(fps)")
        }
    }
}
