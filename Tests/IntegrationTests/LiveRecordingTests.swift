import Foundation
import Testing
import TestSupport

/// Recording from the real window (issue 8): the real `physarum` binary on
/// Xvfb, R pressed with xdotool, the real ffmpeg, the video checked with
/// ffprobe, and the live frame rate read from `--stats` before, during and
/// after the recording.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool")
                             && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")
                             && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe"),
                             "needs xdotool and ffmpeg (scripts/test installs them)"))
struct LiveRecordingTests {
    /// One `--stats` line as this test reads it: the loop's own fields and
    /// its `recording` object (lines without a complete one are skipped).
    struct StatsLine {
        private let line: [String: Any], recording: [String: Any]

        init?(_ line: [String: Any]) {
            guard let r = line["recording"] as? [String: Any],
                  ["active", "phase", "framesWritten", "dropped", "offered", "offerSeconds", "taking"].allSatisfy({ r[$0] != nil })
            else { return nil }
            self.line = line
            recording = r
        }

        private static func number(_ v: Any?) -> Double { (v as? NSNumber)?.doubleValue ?? -1 }
        var t: Double { Self.number(line["t"]) }
        var frames: Int { Int(Self.number(line["frames"])) }
        /// 1000 / mean frame work time (the loop's own `fps`; above the
        /// presented rate when the loop waits for its 60 Hz timer).
        var workFPS: Double { Self.number(line["fps"]) }
        var active: Bool { recording["active"] as? Bool == true }
        var phase: String { recording["phase"] as? String ?? "" }
        var framesWritten: Int { Int(Self.number(recording["framesWritten"])) }
        var dropped: Int { Int(Self.number(recording["dropped"])) }
        /// Frames handed to the recorder, and the loop's seconds spent handing them over.
        var offered: Int { Int(Self.number(recording["offered"])) }
        var offerSeconds: Double { Self.number(recording["offerSeconds"]) }
        /// Frames are being taken (between R and R; the encoder may finish later).
        var taking: Bool { recording["taking"] as? Bool == true }
    }

    static func statsLines(_ url: URL) -> [StatsLine] { LiveAudioWindowTests.statsLines(url).compactMap(StatsLine.init) }

    /// Frames presented per second between two stats lines.
    static func rate(_ lines: ArraySlice<StatsLine>) -> (frames: Int, seconds: Double) {
        guard let a = lines.first, let b = lines.last else { return (0, 0) }
        return (b.frames - a.frames, b.t - a.t)
    }


    /// Runs a tool to completion; its stdout.
    @discardableResult
    static func run(_ tool: String, _ args: [String], env: [String: String] = [:]) throws -> String {
        try PhysarumProcess.run(tool: tool, args, environment: env).stdout
    }

    /// Records 5 s with R … R while the live window runs, then checks what a
    /// VJ would: the live loop never waited for the encoder (every frame shown
    /// was handed over, and handing over took a negligible share of the
    /// loop's time), the video plays and lasts as long as the recording did,
    /// and the dropped frames are reported. The frame rates before, during and
    /// after are printed; comparing them is scripts/live-bench's job (they
    /// depend on what else the machine runs).
    @Test func recordingFiveSecondsNeverBlocksTheLiveLoopAndGivesAPlayableVideo() throws {
        // A display of its own: other window tests press keys on the shared one.
        let home = try WindowTestHome("live-recording", ownDisplay: true)
        let display = home.display
        let stats = home.file("stats.jsonl")
        let videos = home.file("videos")
        // A modest size on 2 shared cores; no governor, so a slower loop shows
        // up as a lower frame rate rather than as fewer agents.
        let app = try AppProcess(["--no-session", "--no-audio", "--no-governor", "--size", "640x360", "--field", "640x360",
                                  "--agents", "60000", "--stats", stats.path],
                                 environment: home.environment(["XDG_VIDEOS_DIR": videos.path]))
        defer { app.stop() }
        let env = ["DISPLAY": display]
        try #require(poll(seconds: 60) { !Self.statsLines(stats).isEmpty || !app.isRunning } && app.isRunning,
                     "the app runs on \(display): \(app.stderr)")
        var window: String?
        #expect(poll(seconds: 20) {
            window = try? Self.run("/usr/bin/xdotool", ["search", "--name", "^Physarum Live$"], env: env)
                .split(separator: "\n").first.map(String.init)
            return window != nil
        })
        let wid = try #require(window, "xdotool finds the window on \(display): \(app.stderr)")
        // The pointer over the window gives it the keyboard (no window manager).
        _ = try Self.run("/usr/bin/xdotool", ["mousemove", "--window", wid, "600", "300"], env: env)
        func pressR() throws -> Date {
            _ = try Self.run("/usr/bin/xdotool", ["key", "--clearmodifiers", "r"], env: env)
            return Date()
        }

        // Warm-up (2 s) plus 3 s without recording.
        #expect(poll(seconds: 60) { Self.statsLines(stats).count >= 5 }, "the app runs: \(app.stderr)")
        let started = try pressR()
        #expect(poll(seconds: 10) { Self.statsLines(stats).last?.active == true }, "R starts a recording: \(app.stderr)")
        // Record 5 s of wall-clock time (the length of the recording is the thing measured).
        #expect(poll(seconds: 20) { Date().timeIntervalSince(started) >= 5 && Self.statsLines(stats).last?.active == true })
        let stopped = try pressR()
        let recorded = stopped.timeIntervalSince(started)
        #expect(poll(seconds: 30) { app.stderr.contains("Recording saved: ") }, "R again saves the video: \(app.stderr)")
        // 3 s without recording after it (the second with the stop left out).
        #expect(poll(seconds: 30) {
            let lines = Self.statsLines(stats)
            return lines.lastIndex { $0.active }.map { lines.count >= $0 + 6 } ?? false
        })
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0, "quit exits 0: \(app.stderr)")

        // Frame rates: the seconds fully before, during and after the recording.
        let lines = Self.statsLines(stats)
        let firstActive = try #require(lines.firstIndex { $0.active }, "stats show the recording")
        let lastActive = try #require(lines.lastIndex { $0.active })
        #expect(firstActive >= 3 && lastActive - firstActive >= 3, "\(lines.map(\.active))")
        let before = Self.rate(lines[2..<firstActive])
        let during = Self.rate(lines[firstActive...lastActive])
        let after = Self.rate(lines[min(lastActive + 2, lines.count - 1)...])
        // The rate without recording: all the seconds before and after it
        // together (so a load that drifts over the test affects both sides alike).
        let withoutRate = Double(before.frames + after.frames) / (before.seconds + after.seconds)
        let duringRate = Double(during.frames) / during.seconds
        let final = try #require(lines.last)
        let workFPS = { (s: ArraySlice<StatsLine>) in s.map(\.workFPS).reduce(0, +) / Double(max(1, s.count)) }
        print(String(format: "live recording: %.1f fps without recording (%.1f before, %.1f after), %.1f fps while recording "
                     + "(ratio %.3f); loop work rate %.0f / %.0f fps; recorded %.2f s wall clock, %d frames written, %d dropped",
                     withoutRate, Double(before.frames) / before.seconds, Double(after.frames) / max(0.001, after.seconds),
                     duringRate, duringRate / withoutRate, workFPS(lines[2..<firstActive]), workFPS(lines[firstActive...lastActive]),
                     recorded, final.framesWritten, final.dropped))
        // Never waiting for the encoder: every frame shown while recording was
        // handed over (copied into the ring), and the copies took a small share
        // of the loop's wall-clock time however busy the machine is.
        let firstTaking = try #require(lines.firstIndex { $0.taking }), lastTaking = try #require(lines.lastIndex { $0.taking })
        let shownWhileRecording = lines[lastTaking].frames - lines[firstTaking].frames
        #expect(final.offered >= shownWhileRecording, "\(final.offered) frames handed over, \(shownWhileRecording) shown while recording")
        let offerShare = final.offerSeconds / recorded
        print(String(format: "live recording: %d frames handed over in %.1f ms (%.2f %% of the recording's wall time)",
                     final.offered, final.offerSeconds * 1000, offerShare * 100))
        #expect(offerShare <= 0.05, "the loop spent \(offerShare * 100) % of the recording handing frames over")
        // The dropped-frame counter is reported: in the stats and in the saved notice.
        #expect(final.phase == "idle" && !final.active)
        let notice = try #require(app.stderr.split(separator: "\n").first { $0.contains("Recording saved: ") }.map(String.init))
        #expect(notice.hasSuffix(String(format: "(%.1f s, %d dropped)", Double(final.framesWritten) / 30, final.dropped)), "\(notice)")

        // The video: H.264, every frame decodes, as long as the recording was.
        let files = try FileManager.default.contentsOfDirectory(atPath: videos.path + "/physarum").filter { $0.hasSuffix(".mp4") }
        #expect(files.count == 1, "\(files)")
        let path = videos.path + "/physarum/" + (files.first ?? "")
        #expect(notice.contains(path))
        let info = try RecorderTests.probe(path)
        print(String(format: "live recording: ffprobe %@ %@, %.3f s, %d frames decoded", info.codec, info.pixFmt, info.duration, info.frames))
        #expect(info.codec == "h264" && info.pixFmt == "yuv420p")
        #expect(info.frames == final.framesWritten && info.frames > 0, "decoded \(info.frames) of \(final.framesWritten) written")
        #expect(abs(info.duration - recorded) <= 0.5, "video \(info.duration) s for \(recorded) s recorded")
        #expect(abs(info.duration - 5) <= 0.5, "video \(info.duration) s for a 5 s recording")
    }
}
