import Foundation
import TestSupport

/// The capture-outage fixture: a private PulseAudio daemon with one null sink,
/// a sine tone (1 kHz, sox) ready to play into it, and the real window
/// capturing the default source with `--stats`, all in a temporary home.
/// `stop()` ends the window, the daemon and the home.
final class ToneCaptureWindow {
    let daemon: PrivateDaemon
    let home: URL
    let tone: URL
    let stats: URL
    let app: AppProcess

    init(display: String, sink: String, toneSeconds: Int) throws {
        daemon = try PrivateDaemon(sinks: [sink])
        try daemon.start()
        home = makeTempDir("capture-\(sink)")
        tone = home.appendingPathComponent("tone.wav")
        stats = home.appendingPathComponent("stats.jsonl")
        do {
            _ = try PhysarumProcess.run(tool: "/usr/bin/sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", tone.path,
                                                               "synth", "\(toneSeconds)", "sine", "1000", "vol", "0.5"])
            var env: [String: String?] = ["DISPLAY": display, "XDG_STATE_HOME": home.path, "XDG_CONFIG_HOME": home.path,
                                          "XDG_DATA_HOME": home.path, "HOME": home.path]
            for (k, v) in daemon.clientEnvironment { env[k] = v }
            app = try AppProcess(["--no-session", "--agents", "20000", "--size", "640x360", "--field", "640x360",
                                  "--stats", stats.path], environment: env)
        } catch {
            daemon.stop()
            try? FileManager.default.removeItem(at: home)
            throw error
        }
    }

    func stop() {
        app.stop()
        daemon.stop()
        try? FileManager.default.removeItem(at: home)
    }
}
