import Foundation
import TestSupport
import Testing

/// The real window capturing a tone from a private PulseAudio daemon that is
/// then killed: the band levels in `--stats` (the routes' inputs) fall to
/// rest while capture is out, instead of staying at the tone's last values.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio")
                             && FileManager.default.isExecutableFile(atPath: "/usr/bin/sox"),
                             "needs pulseaudio and sox (scripts/test installs them)"))
struct CaptureOutageTests {
    @Test func bandsFallToRestWhileCaptureIsOut() throws {
        let display = try #require(TestDisplay.display, "Xvfb is needed (scripts/test installs it)")
        let w = try ToneCaptureWindow(display: display, sink: "outage", toneSeconds: 60)
        defer { w.stop() }
        let (daemon, tone, stats, app) = (w.daemon, w.tone, w.stats, w.app)
        #expect(poll(seconds: 60) { AudioSourceSwitchTests.statsLines(stats).last?["audio"] as? String == "live: default source" },
                "capturing: \(app.stderr)")
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        player.arguments = ["--latency-msec=20", tone.path]
        player.environment = ProcessInfo.processInfo.environment.merging(daemon.clientEnvironment) { $1 }
        try player.run()
        defer { if player.isRunning { player.terminate(); player.waitUntilExit() } }
        #expect(poll(seconds: 30) { AudioSourceSwitchTests.band(AudioSourceSwitchTests.statsLines(stats).last ?? [:], "mid") > 0.3 },
                "the tone lifts mid: \(AudioSourceSwitchTests.statsLines(stats).last ?? [:])")

        daemon.kill()
        #expect(poll(seconds: 30) {
            (AudioSourceSwitchTests.statsLines(stats).last?["audio"] as? String)?.hasPrefix("no capture") == true
        }, "the window notices the loss: \(app.stderr)")
        let lostAt = AudioSourceSwitchTests.statsLines(stats).count
        #expect(poll(seconds: 30) { AudioSourceSwitchTests.statsLines(stats).count >= lostAt + 2 })
        let out = AudioSourceSwitchTests.statsLines(stats).suffix(2)
        for line in out {
            let bands = (line["bands"] as? [String: NSNumber] ?? [:]).mapValues(\.doubleValue)
            #expect(!bands.isEmpty && bands.values.allSatisfy { $0 == 0 }, "every band at rest during the outage: \(line)")
        }
        #expect(app.isRunning, "the window keeps running")
    }
}
