import AudioReactive
import Foundation
import Testing
import TestSupport

/// The real window with real audio: the private PulseAudio daemon scripts/test
/// starts (null sink, its monitor is the default source) and Xvfb.
@Suite(.serialized) struct LiveAudioWindowTests {
    static let env = ProcessInfo.processInfo.environment
    static var pulseAvailable: Bool { env["PULSE_SERVER"] != nil && env["PHYSARUM_TEST_SINK"] != nil }

    /// The JSON objects of a --stats file.
    static func statsLines(_ url: URL) -> [[String: Any]] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// A WAV of `count` 5 ms clicks, one every `interval` seconds, made with the
    /// library's own writer (no file committed).
    static func clickFile(count: Int, interval: Double) throws -> URL {
        let rate = 48000.0
        var samples = [Float](repeating: 0, count: Int(Double(count) * interval * rate) + 4800)
        for k in 0..<count {
            let start = Int((0.25 + Double(k) * interval) * rate)
            for i in 0..<240 where start + i < samples.count {
                samples[start + i] = 0.7 * Float(sin(2 * Double.pi * 1000 * Double(i) / rate)) * Float(1 - Double(i) / 240)
            }
        }
        let url = makeTempDir("clicks").appendingPathComponent("clicks.wav")
        try AudioFileWriter.write(samples, to: url.path)
        return url
    }

    @Test(.enabled(if: pulseAvailable, "needs the PulseAudio daemon scripts/test starts"))
    func clickTrackDrivesTheWindow() throws {
        let home = try WindowTestHome("live-audio")
        let display = home.display
        let stats = home.file("stats.jsonl")
        // --no-midi: this machine has no MIDI system, whose notice is not this test's subject (MidiControlTests).
        // --no-governor: on a loaded CI machine the governor rightly cuts agents below half with a notice
        // (GovernorTests); this test asserts that sound drives the window with no error output.
        // A daemon of its own: clicks other tests play into the shared sink would be heard here too (and ours there).
        let daemon = try PrivateDaemon(sinks: ["window_clicks"])
        defer { daemon.stop() }
        try daemon.start()
        let app = try AppProcess(["--no-session", "--no-midi", "--no-governor", "--preset", "neon-veins", "--agents", "200000", "--stats", stats.path],
                                 environment: home.environment(daemon.clientEnvironment.mapValues { Optional($0) }))
        defer { app.stop() }
        // The null sink works in 2 s blocks until a client asks for low latency:
        // let the app capture for over 2 s before playing.
        #expect(poll(seconds: 60) { Self.statsLines(stats).count >= 3 }, "the app runs: \(app.stderr)")
        #expect((Self.statsLines(stats).last?["audio"] as? String)?.hasPrefix("live") == true, "capturing the default source")

        let clicks = try Self.clickFile(count: 16, interval: 0.4)
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        player.arguments = ["--latency-msec=10", "-d", daemon.sinks[0], clicks.path]
        player.environment = ProcessInfo.processInfo.environment.merging(daemon.clientEnvironment) { $1 }
        try player.run()
        var sawLevels = false
        let heard = poll(seconds: 30) {
            let last = Self.statsLines(stats).last ?? [:]
            let bands = last["bands"] as? [String: Double] ?? [:]
            if bands.values.contains(where: { $0 > 0 }) { sawLevels = true }
            return sawLevels && (last["onsets"] as? Int ?? 0) >= 3
        }
        #expect(heard, "band levels > 0 and onsets counted while the clicks play: \(Self.statsLines(stats).last ?? [:])")

        // Two screenshots 1 s apart differ in the simulation region (right of the panels).
        let a = try ScreenShot.take(display: display)
        let frames0 = Self.statsLines(stats).last?["frames"] as? Int ?? 0
        #expect(poll(seconds: 10) { (Self.statsLines(stats).last?["frames"] as? Int ?? 0) > frames0 + 2 })
        let b = try ScreenShot.take(display: display)
        #expect(a.fractionDiffering(from: b, x0: 700, y0: 100, x1: 1260, y1: 700) > 0.05)
        player.waitUntilExit()

        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0, "a quit event exits 0")
        #expect(app.stderr.isEmpty, "no error output: \(app.stderr)")
    }

    @Test func noAudioServerRunsTheDemoWithOneNotice() throws {
        let home = try WindowTestHome("no-server")
        let stats = home.file("stats.jsonl")
        let shot = home.file("demo.png")
        let app = try AppProcess(["--no-session", "--no-midi", "--agents", "100000", "--stats", stats.path,
                                  "--screenshot", shot.path, "--screenshot-at", "2"],
                                 environment: home.environment(["PULSE_SERVER": "unix:\(home.url.path)/no-such-server"]))
        #expect(app.wait(seconds: 90) == 0, "it runs and exits by itself after the screenshot: \(app.stderr)")
        let lines = app.stderr.split(separator: "\n")
        #expect(lines.count == 1, "exactly one notice line: \(app.stderr)")
        #expect(lines.first?.contains("demo") == true)
        let last = try #require(Self.statsLines(stats).last)
        #expect((last["audio"] as? String)?.hasPrefix("DEMO") == true)
        #expect((last["frames"] as? Int ?? 0) > 2, "it renders")
        let bands = last["bands"] as? [String: Double] ?? [:]
        #expect(bands.values.contains { $0 > 0 }, "the demo groove drives the meters")
        #expect(FileManager.default.fileExists(atPath: shot.path))
    }

    /// Clicks heard while the simulation steps show at once on the picture on
    /// screen (the hit reaction, panels hidden, timer pacing under Xvfb), and
    /// the latency readout measures them from that present; with
    /// `--no-hit-reaction` every click waits for its frame.
    @Test(.enabled(if: pulseAvailable, "needs the PulseAudio daemon scripts/test starts"))
    func clicksShowOnThePictureOnScreenWhileTheFrameSimulates() throws {
        // A daemon of its own: its clicks played into the shared sink were heard by the
        // pulse click test running beside it (16 detections for 8 clicks).
        let daemon = try PrivateDaemon(sinks: ["reaction_clicks"])
        defer { daemon.stop() }
        try daemon.start()
        for reacting in [true, false] {
            let home = try WindowTestHome(reacting ? "hit-reaction" : "no-hit-reaction")
            let stats = home.file("stats.jsonl")
            // 1M agents: the step is most of the frame, so most clicks land in it.
            var args = ["--no-session", "--no-midi", "--no-governor", "--no-ui", "--backend", "cpu", "--agents", "1000000",
                        "--stats", stats.path]
            if !reacting { args.append("--no-hit-reaction") }
            let app = try AppProcess(args, environment: home.environment(daemon.clientEnvironment.mapValues { Optional($0) }))
            defer { app.stop() }
            #expect(poll(seconds: 60) { Self.statsLines(stats).count >= 3 }, "the app runs: \(app.stderr)")
            let clicks = try Self.clickFile(count: 12, interval: 0.35)
            let player = Process()
            player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
            player.arguments = ["--latency-msec=10", "-d", daemon.sinks[0], clicks.path]
            player.environment = ProcessInfo.processInfo.environment.merging(daemon.clientEnvironment) { $1 }
            try player.run()
            player.waitUntilExit()
            func latest() -> (reactions: Int, measured: Int) {
                let last = Self.statsLines(stats).last ?? [:]
                let r = (last["hitReactions"] as? [String: Any])?["count"] as? Int ?? -1
                let m = (last["latency"] as? [String: Any])?["onsetsMeasured"] as? Int ?? 0
                return (r, m)
            }
            #expect(poll(seconds: 20) { latest().measured >= 6 }, "the clicks were heard and measured: \(Self.statsLines(stats).last ?? [:])")
            if reacting {
                #expect(poll(seconds: 10) { latest().reactions >= 2 }, "clicks shown by the reaction: \(latest())")
            } else {
                #expect(latest().reactions == 0, "no reaction with --no-hit-reaction: \(latest())")
            }
            app.signal(SIGTERM)
            #expect(app.wait(seconds: 30) == 0, "a quit event exits 0")
            #expect(app.stderr.isEmpty, "no error output: \(app.stderr)")
        }
    }
}
