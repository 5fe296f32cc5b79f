import Foundation
import TestSupport
import Testing

/// The real `physarum` window under Xvfb with a private PulseAudio daemon
/// that has two null sinks. A tone plays into the second sink; a click on
/// that sink's monitor in the audio panel's source list (xdotool, aimed with
/// the rectangles `--state-file` reports) moves capture there without a
/// restart, and the band meters (the `--stats` lines) follow the tone.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio")
                             && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool")
                             && FileManager.default.isExecutableFile(atPath: "/usr/bin/sox"),
                             "needs pulseaudio, xdotool and sox (scripts/test installs them)"))
struct AudioSourceSwitchTests {
    /// Runs a tool to completion; its stdout.
    @discardableResult
    static func run(_ tool: String, _ args: [String], env: [String: String] = [:]) throws -> String {
        try PhysarumProcess.run(tool: tool, args, environment: env).stdout
    }

    /// The `--stats` lines written so far, decoded.
    static func statsLines(_ url: URL) -> [[String: Any]] {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func band(_ line: [String: Any], _ name: String) -> Double {
        ((line["bands"] as? [String: Any])?[name] as? NSNumber)?.doubleValue ?? -1
    }

    /// The centre of an audio panel item from the `--state-file`, in window pixels.
    static func panelItem(_ state: URL, _ key: String) -> (x: Int, y: Int)? {
        guard let d = try? Data(contentsOf: state),
              let o = try? JSONSerialization.jsonObject(with: d) as? [String: Any],
              let audio = o["audio"] as? [String: Any], let panel = audio["panel"] as? [String: Any],
              let r = panel[key] as? [NSNumber], r.count == 4 else { return nil }
        return (Int((r[0].doubleValue + r[2].doubleValue) / 2), Int((r[1].doubleValue + r[3].doubleValue) / 2))
    }

    @Test func switchingTheSourceInThePanelMovesCaptureToTheOtherSinkWithoutARestart() throws {
        // A display of its own: on the shared one another test's window can
        // lie over this one and take the click (seen in CI).
        let own = try #require(PrivateDisplay(), "Xvfb is needed (scripts/test installs it)")
        let display = own.display
        defer { withExtendedLifetime(own) {} }  // Xvfb lives until the test ends
        let daemon = try PrivateDaemon(sinks: ["deck_a", "deck_b"])
        defer { daemon.stop() }
        try daemon.start()
        let home = makeTempDir("audio-switch")
        defer { try? FileManager.default.removeItem(at: home) }
        let tone = home.appendingPathComponent("tone.wav")
        try Self.run("/usr/bin/sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", tone.path, "synth", "60", "sine", "1000", "vol", "0.5"])
        let stats = home.appendingPathComponent("stats.jsonl"), state = home.appendingPathComponent("state.json")
        var env: [String: String?] = ["DISPLAY": display, "XDG_STATE_HOME": home.path, "XDG_CONFIG_HOME": home.path,
                                      "XDG_DATA_HOME": home.path, "HOME": home.path]
        for (k, v) in daemon.clientEnvironment { env[k] = v }
        let app = try AppProcess(["--no-session", "--audio-panel", "--agents", "20000", "--size", "1280x720",
                                  "--stats", stats.path, "--state-file", state.path], environment: env)
        defer { app.stop() }

        // Capture runs on the default source (deck_a's monitor) and the panel lists deck_b's monitor.
        #expect(poll(seconds: 60) {
            Self.statsLines(stats).last?["audio"] as? String == "live: default source"
                && Self.panelItem(state, "sourceRow:deck_b.monitor") != nil
        }, "app capturing with the panel open: \(app.stderr)")
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        player.arguments = ["--latency-msec=20", "-d", "deck_b", tone.path]
        player.environment = ProcessInfo.processInfo.environment.merging(daemon.clientEnvironment) { $1 }
        try player.run()
        defer { if player.isRunning { player.terminate(); player.waitUntilExit() } }
        // Two more seconds of stats while the tone plays into deck_b: deck_a stays silent.
        let playingFrom = Self.statsLines(stats).count
        #expect(poll(seconds: 30) { Self.statsLines(stats).count >= playingFrom + 3 })
        let before = Self.statsLines(stats).last ?? [:]
        #expect(Self.band(before, "mid") < 0.05, "deck_a's monitor is silent: \(before)")
        let framesBefore = (before["frames"] as? NSNumber)?.intValue ?? 0

        // Click deck_b's monitor in the panel's source list (the real window, real mouse events).
        let window = try Self.run("/usr/bin/xdotool", ["search", "--name", "^Physarum Live$"], env: ["DISPLAY": display])
            .split(separator: "\n").first.map(String.init)
        let wid = try #require(window, "the app window is found")
        // Clicks again only once the window has drawn frames since the click
        // without switching: under ThreadSanitizer (1 fps) a second click sent
        // before the first was seen landed where deck_a's row had moved to.
        func framesShown() -> Int { (Self.statsLines(stats).last?["frames"] as? NSNumber)?.intValue ?? 0 }
        #expect(poll(seconds: 60) {
            let clickedAt = framesShown()
            if let p = Self.panelItem(state, "sourceRow:deck_b.monitor") {
                _ = try? Self.run("/usr/bin/xdotool", ["mousemove", "--window", wid, "\(p.x)", "\(p.y)", "click", "1"], env: ["DISPLAY": display])
            }
            _ = poll(seconds: 20) { Self.statsLines(stats).last?["source"] as? String == "deck_b.monitor" || framesShown() >= clickedAt + 10 }
            return Self.statsLines(stats).last?["source"] as? String == "deck_b.monitor"
        }, "the click selects deck_b.monitor: \(app.stderr)")

        // The meters follow the tone on deck_b: the mid band (500 Hz–2 kHz) rises, the sub band does not.
        var after: [String: Any] = [:]
        #expect(poll(seconds: 30) {
            after = Self.statsLines(stats).last ?? [:]
            return after["audio"] as? String == "live: deck_b.monitor" && Self.band(after, "mid") > 0.3
        }, "mid follows the 1 kHz tone after the switch: \(after)\n\(app.stderr)")
        // The tone lives in mid, not in sub, over the next seconds (medians of
        // three stats lines: a capture glitch on a busy machine is a broadband
        // click, which must not decide it).
        let switchedAt = Self.statsLines(stats).count
        #expect(poll(seconds: 30) { Self.statsLines(stats).count >= switchedAt + 3 })
        let next = Self.statsLines(stats).suffix(3)
        func median(_ band: String) -> Double { next.map { Self.band($0, band) }.sorted()[next.count / 2] }
        // Mid is the loudest band. (Capture glitches on a loaded machine are
        // broadband clicks that auto-gain lifts in every band — seen: sub 0.49
        // beside mid 0.90 at 5 fps; on a quiet machine sub stays under 0.05.)
        for band in ["sub", "bass", "lowMid", "highMid", "presence", "brilliance"] {
            #expect(median(band) < median("mid"), "\(band) stays below mid: \(Array(next))")
        }
        #expect(median("mid") > 0.3, "mid follows the tone: \(Array(next))")
        #expect(app.isRunning, "no restart: the same process")
        #expect(((after["frames"] as? NSNumber)?.intValue ?? 0) > framesBefore, "the frame count went on")
        #expect(app.stderr.contains("Capturing from deck_b.monitor"))
        print("audio switch: capture latency after the switch \(after["captureLatencyMs"] ?? "?") ms, dropped \(after["droppedAudio"] ?? "?")")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }
}
