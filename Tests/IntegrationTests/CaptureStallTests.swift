import Foundation
import TestSupport
import Testing

/// The real window capturing a tone from a private PulseAudio daemon that is
/// then stopped (SIGSTOP: the connection stays open, the stream still claims
/// to run, no sample comes) and continued: the status says "stalled", the
/// band levels fall to rest, one notice says so; after SIGCONT capture is
/// live again, the levels follow the tone and a notice says it resumed.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio")
                             && FileManager.default.isExecutableFile(atPath: "/usr/bin/sox"),
                             "needs pulseaudio and sox (scripts/test installs them)"))
struct CaptureStallTests {
    @Test func aHungServerStallsCaptureAndItResumes() throws {
        let display = try #require(TestDisplay.display, "Xvfb is needed (scripts/test installs it)")
        let w = try ToneCaptureWindow(display: display, sink: "stall", toneSeconds: 120)
        defer { w.stop() }
        let (daemon, tone, stats, app) = (w.daemon, w.tone, w.stats, w.app)
        func last() -> [String: Any] { AudioSourceSwitchTests.statsLines(stats).last ?? [:] }
        func audio() -> String { last()["audio"] as? String ?? "" }
        // The window's first frame may take minutes while the whole suite loads a 2-core machine.
        try #require(poll(seconds: 180) { !last().isEmpty }, "the window runs: \(app.stderr)")
        #expect(poll(seconds: 60) { audio() == "live: default source" }, "capturing: \(app.stderr)")
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        player.arguments = ["--latency-msec=20", tone.path]
        player.environment = ProcessInfo.processInfo.environment.merging(daemon.clientEnvironment) { $1 }
        try player.run()
        defer { if player.isRunning { player.terminate(); player.waitUntilExit() } }
        #expect(poll(seconds: 30) { AudioSourceSwitchTests.band(last(), "mid") > 0.3 }, "the tone lifts mid: \(last())")

        daemon.pause()
        let stalledSeen = poll(seconds: 30) { audio().hasPrefix("stalled") }
        #expect(stalledSeen, "the window notices the stall: \(audio()); \(app.stderr)")
        let at = AudioSourceSwitchTests.statsLines(stats).count
        #expect(poll(seconds: 30) { AudioSourceSwitchTests.statsLines(stats).count >= at + 3 })
        for line in AudioSourceSwitchTests.statsLines(stats).suffix(2) {
            let bands = (line["bands"] as? [String: NSNumber] ?? [:]).mapValues(\.doubleValue)
            #expect(!bands.isEmpty && bands.values.allSatisfy { $0 == 0 }, "every band at rest while stalled: \(line)")
            #expect((line["audio"] as? String)?.hasPrefix("stalled") == true, "still stalled, not flapping: \(line)")
        }
        daemon.resume()
        #expect(poll(seconds: 60) { audio() == "live: default source" && AudioSourceSwitchTests.band(last(), "mid") > 0.3 },
                "capture resumes and follows the tone: \(last()); \(app.stderr)")
        let err = app.stderr
        #expect(err.components(separatedBy: "Audio capture stalled: no sound from default source").count == 2, "one notice: \(err)")
        #expect(err.contains("Audio capture resumed: sound flows again from default source"), "\(err)")
        #expect(app.isRunning, "the window keeps running")
    }
}
