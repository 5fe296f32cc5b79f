import Foundation
import TestSupport
import Testing
@testable import LiveApp

/// `--pipewire` against a private PipeWire daemon: `pw-dump` lists the node
/// "Physarum Live" (Video/Source, camera role, RGB and YUV formats), a real
/// GStreamer `pipewiresrc` consumer linked to it with `pw-link` receives the
/// app's frames at 1280x720, the pictures match the app's own screenshot,
/// and after a PipeWire restart the node is back without restarting the app.
@Suite(.serialized, .enabled(if: PrivatePipeWire.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"),
                             "needs pipewire, pipewire-bin, gstreamer1.0-pipewire, gstreamer1.0-tools and xdotool (scripts/lib.sh TEST_PACKAGES)"))
struct PipeWireOutTests {
    static let nodeName = "Physarum Live"

    /// A GStreamer consumer of the node, printing one "chain" line per buffer
    /// (`-v`), and when `smallFrames` is given also writing each frame shrunk
    /// to 32x18 BGRx there (for the mean colour). Linked by `link`.
    static func consumer(_ pw: PrivatePipeWire, name: String, format: String, smallFrames: URL? = nil) throws -> AppProcess {
        var args = ["-v", "pipewiresrc", "target-object=\(nodeName)", "client-name=\(name)", "!", "video/x-raw,format=\(format)"]
        if let smallFrames {
            args += ["!", "tee", "name=t", "t.", "!", "queue", "!", "fakesink", "silent=false", "sync=false",
                     "t.", "!", "queue", "!", "videoscale", "!", "video/x-raw,width=32,height=18", "!", "filesink", "buffer-mode=2", "location=\(smallFrames.path)"]
        } else {
            args += ["!", "fakesink", "silent=false", "sync=false"]
        }
        return try AppProcess(args, environment: pw.environment, binary: "/usr/bin/gst-launch-1.0")
    }

    /// Links the node's output port to the consumer's input port (no session manager here).
    static func link(_ pw: PrivatePipeWire, consumer: AppProcess) throws {
        var input: String?
        let found = poll(seconds: 20, every: 0.1) {
            let ports = ((try? pw.run("/usr/bin/pw-link", ["-i"])) ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            input = ports.first { !$0.hasPrefix(nodeName) && !$0.isEmpty }
            return input != nil || !consumer.isRunning
        }
        let port = try #require(found ? input : nil, "the consumer's input port appears: \(consumer.stderr)")
        var output: String?
        _ = poll(seconds: 20, every: 0.1) {
            output = ((try? pw.run("/usr/bin/pw-link", ["-o"])) ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix(nodeName + ":") }
            return output != nil
        }
        try pw.run("/usr/bin/pw-link", [try #require(output, "the node's output port"), port])
    }

    static func chains(_ p: AppProcess) -> Int { p.stdout.components(separatedBy: "chain").count - 1 }

    /// The mean R, G, B of RGBA bytes.
    static func meanRGB(_ rgba: some Collection<UInt8>) -> [Double] {
        var sum = [0.0, 0.0, 0.0], n = 0.0
        var i = 0
        for b in rgba {
            if i % 4 < 3 { sum[i % 4] += Double(b) }
            if i % 4 == 3 { n += 1 }
            i += 1
        }
        return sum.map { $0 / max(n, 1) }
    }

    @Test func theNodeIsACameraThatAConsumerReceivesAndThatSurvivesARestart() throws {
        let pw = try PrivatePipeWire()
        let home = try WindowTestHome("pipewire-out", ownDisplay: true)
        let stats = home.file("stats.jsonl"), pictures = home.file("pictures"), small = home.file("small.bgrx")
        let app = try AppProcess(["--no-session", "--no-audio", "--no-governor", "--size", "1280x720", "--field", "640x360", "--agents", "60000",
                                  "--pipewire", "--video-fps", "30", "--stats", stats.path],
                                 environment: home.environment(pw.environment.merging(["XDG_PICTURES_DIR": pictures.path]) { $1 }))
        defer { app.stop() }

        // The node, as pw-dump lists it.
        var node: (props: [String: Any], object: [String: Any])?
        #expect(poll(seconds: 90, every: 0.2) { node = pw.node(named: Self.nodeName); return node != nil || !app.isRunning } && app.isRunning,
                "pw-dump lists \"\(Self.nodeName)\": \(app.stderr)")
        let props = try #require(node?.props)
        #expect(props["media.class"] as? String == "Video/Source")
        #expect(props["media.role"] as? String == "Camera")
        let params = String(decoding: try JSONSerialization.data(withJSONObject: node?.object ?? [:]), as: UTF8.self)
        #expect(params.contains("BGRx") && params.contains("YUY2"), "it offers an RGB and a YUV format: \(params.prefix(2000))")

        // A consumer at 1280x720 BGRx for 10 s of the app's frames.
        let gst = try Self.consumer(pw, name: "physarum-test-rgb", format: "BGRx,width=1280,height=720", smallFrames: small)
        defer { gst.stop() }
        try Self.link(pw, consumer: gst)
        try #require(poll(seconds: 30, every: 0.1) { Self.chains(gst) > 0 || !gst.isRunning }, "frames arrive: \(gst.stderr) \(app.stderr)")
        func sample() -> (t: Double, frames: Int, sent: Int)? {
            guard let line = LiveAudioWindowTests.statsLines(stats).last,
                  let p = (line["videoOut"] as? [String: Any])?["pipewire"] as? [String: Any] else { return nil }
            return ((line["t"] as? NSNumber)?.doubleValue ?? 0, (line["frames"] as? NSNumber)?.intValue ?? 0,
                    (p["framesSent"] as? NSNumber)?.intValue ?? 0)
        }
        try #require(poll(seconds: 10, every: 0.05) { sample() != nil }, "the stats say what the node did")
        let a = try #require(sample()), gotA = Self.chains(gst)
        try #require(poll(seconds: 60, every: 0.05) { (sample()?.t ?? 0) >= a.t + 10 || !app.isRunning } && app.isRunning, "\(app.stderr)")
        let b = try #require(sample())
        _ = poll(seconds: 2, every: 0.02) { Self.chains(gst) - gotA >= b.sent - a.sent }
        let received = Self.chains(gst) - gotA
        let seconds = b.t - a.t, rendered = b.frames - a.frames
        // The frames the app rendered that the node's 30 fps asks for.
        let due = min(rendered, Int(30 * seconds))
        print("pipewire: \(rendered) frames rendered in \(String(format: "%.1f", seconds)) s (\(due) due at 30 fps), "
              + "\(b.sent - a.sent) sent, \(received) received by pipewiresrc")
        #expect(Double(received) >= 0.9 * Double(due), "received \(received) of \(due)")

        // The picture: the app's own screenshot (P) against the frames received around it.
        let env = ["DISPLAY": home.display]
        let wid = try #require(try? PhysarumProcess.run(tool: "/usr/bin/xdotool", ["search", "--name", "^Physarum Live$"], environment: env)
            .stdout.split(separator: "\n").first.map(String.init))
        _ = try PhysarumProcess.run(tool: "/usr/bin/xdotool", ["mousemove", "--window", wid, "600", "300"], environment: env)
        let before = (try? Data(contentsOf: small).count) ?? 0
        _ = try PhysarumProcess.run(tool: "/usr/bin/xdotool", ["key", "--clearmodifiers", "p"], environment: env)
        var shot: String?
        #expect(poll(seconds: 20, every: 0.1) {
            let dir = pictures.appendingPathComponent("physarum")
            shot = (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.first { $0.hasSuffix(".png") }.map { dir.path + "/" + $0 }
            return shot != nil
        }, "P saves a screenshot: \(app.stderr)")
        _ = poll(seconds: 5, every: 0.05) { ((try? Data(contentsOf: small).count) ?? 0) > before + 2304 * 60 }
        let image = try PNGCodec.read(try #require(shot))
        let window = Self.meanRGB(image.pixels)
        let bytes = [UInt8](try Data(contentsOf: small))
        let frameBytes = 32 * 18 * 4
        let recent = stride(from: max(0, before - frameBytes * 60), to: bytes.count - frameBytes + 1, by: frameBytes).map { start -> [Double] in
            let bgrx = bytes[start..<start + frameBytes]
            let m = Self.meanRGB(bgrx)
            return [m[2], m[1], m[0]]  // BGRx → RGB
        }
        let closest = recent.map { m in zip(m, window).map { abs($0 - $1) }.max() ?? 255 }.min() ?? 255
        print("pipewire picture: screenshot mean RGB \(window.map { Int($0) }), closest received frame differs by \(String(format: "%.1f", closest))")
        #expect(window.reduce(0, +) > 3, "the screenshot is not black")
        #expect(closest <= 6, "a received frame has the window picture's mean colour (largest channel difference \(closest))")
        gst.stop()

        // PipeWire restarts; the node comes back by itself.
        pw.stop()
        #expect(poll(seconds: 30, every: 0.1) { app.stderr.contains("the server went away") || !app.isRunning } && app.isRunning,
                "the app notices: \(app.stderr)")
        try pw.start()
        #expect(poll(seconds: 30, every: 0.2) { pw.node(named: Self.nodeName) != nil || !app.isRunning } && app.isRunning,
                "the node is back after the restart: \(app.stderr)")

        // And a YUV consumer gets frames from it.
        let yuv = try Self.consumer(pw, name: "physarum-test-yuv", format: "YUY2")
        defer { yuv.stop() }
        try Self.link(pw, consumer: yuv)
        #expect(poll(seconds: 30, every: 0.1) { Self.chains(yuv) >= 10 || !yuv.isRunning }, "YUY2 frames arrive: \(yuv.stderr) \(app.stderr)")
        #expect(yuv.stdout.contains("format=(string)YUY2"), "negotiated YUY2")
    }
}
