import Foundation
import Synchronization
import TestSupport
import Testing
@testable import LiveCore
@testable import LiveApp

/// The network stream (`--stream URL`) received by a real ffmpeg on
/// loopback, over UDP and SRT: how many frames arrive decoded, and the delay
/// the stream adds (a white flash offered to the output until the receiver
/// decodes it). The delays are printed, not asserted (the machine is shared).
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"),
                             "needs ffmpeg (scripts/test installs it)"))
struct StreamOutTests {
    /// The sender's URL and the receiver's for a transport on `port`.
    static func urls(_ transport: String, port: Int) -> (send: String, receive: String) {
        transport == "srt"
            ? ("srt://127.0.0.1:\(port)?mode=listener", "srt://127.0.0.1:\(port)?mode=caller")
            : ("udp://127.0.0.1:\(port)?pkt_size=1316", "udp://127.0.0.1:\(port)?overrun_nonfatal=1&fifo_size=100000")
    }

    static func median(_ v: [Double]) -> Double {
        let s = v.sorted()
        return s.isEmpty ? .nan : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// 15 s of 640x360 frames at 30 fps through the app's stream output
    /// (its own fanout tap, thread and ffmpeg): dark grey, with three white
    /// frames every two seconds. The receiver must decode ≥ 95 % of the
    /// frames the output sent, and see every flash; the delay from offering
    /// a flash to its decoded frame is the stream's own latency (queue, pipe,
    /// x264 zerolatency, MPEG-TS, loopback, demuxing and decoding).
    @Test(arguments: ["udp", "srt"])
    func theStreamArrivesDecodedAndItsLatencyIsMeasured(transport: String) throws {
        let port = StreamReceiver.freePort()
        let url = Self.urls(transport, port: port)
        let (w, h, fps) = (640, 360, 30)
        let fanout = FrameFanout()
        let outbox = NoticeOutbox()
        // UDP: the receiver listens first. SRT: ffmpeg listens once it has its first frame, and the receiver calls it then.
        var receiver = transport == "udp" ? try StreamReceiver(url: url.receive) : nil
        let out = FFmpegVideoOut(destination: .stream(url: url.send, audio: nil), width: w, height: h, fps: fps, fanout: fanout, outbox: outbox)
        out.start()
        defer { receiver?.stop(); out.stop() }

        let dark = [UInt8](repeating: 40, count: w * h * 4), white = [UInt8](repeating: 255, count: w * h * 4)
        let frames = 15 * fps, start = ContinuousClock.now
        var flashes: [ContinuousClock.Instant] = []
        var flashing = false
        var sentBeforeReceiver = 0, sentBeforeDecoding: Int?, offeredBeforeDecoding = 0
        for n in 0..<frames {
            let due = start + .milliseconds(n * 1000 / fps)
            let wait = due - ContinuousClock.now
            if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.attoseconds) / 1e18 + Double(wait.components.seconds)) }
            if receiver == nil && StreamReceiver.udpPortBound(port) {
                receiver = try StreamReceiver(url: url.receive)
                sentBeforeReceiver = out.framesSent.load(ordering: .relaxed)
            }
            // The receiver decodes from its first frame on (with -fflags nobuffer it drops what it read while probing).
            if sentBeforeDecoding == nil, let r = receiver, r.count > 0 {
                sentBeforeDecoding = out.framesSent.load(ordering: .relaxed) - r.count
                offeredBeforeDecoding = n
            }
            // A flash every 2 s once the receiver decodes (before, the output may still wait for it).
            let phase = n % (2 * fps)
            if phase == 0 { flashing = n >= 2 * fps && (receiver?.count ?? 0) > 0 }
            let flash = flashing && phase < 3
            if flash && phase == 0 { flashes.append(ContinuousClock.now) }
            fanout.offer(flash ? white : dark, width: w, height: h, time: Double(n) / Double(fps))
        }
        let rx = try #require(receiver, "the SRT listener came up: \(outbox.drain())")
        // Everything sent is decoded within a few seconds or never.
        let sent = out.framesSent.load(ordering: .relaxed), dropped = out.dropped
        _ = poll(seconds: 10, every: 0.1) { rx.count >= sent }
        out.stop()
        let got = rx.frames
        let notices = outbox.drain()
        #expect(sent > 0, "the output sent frames: \(notices) \(rx.stderr)")
        // Counted from the receiver's first decoded frame (an SRT caller joins once ffmpeg listens; a receiver drops what it probed).
        let expected = sent - max(sentBeforeReceiver, try #require(sentBeforeDecoding, "the receiver decoded: \(rx.stderr)"))
        #expect(frames - offeredBeforeDecoding >= 10 * fps, "at least 10 s of frames after the receiver's first")
        #expect(Double(got.count) >= 0.95 * Double(expected),
                "\(transport): decoded \(got.count) of \(expected) frames sent since the receiver started: \(rx.stderr)")

        // Each flash: the first bright decoded frame after a dark one.
        var runs: [ContinuousClock.Instant] = []
        for i in got.indices where got[i].mean > 150 && (i == 0 || got[i - 1].mean <= 150) { runs.append(got[i].arrived) }
        #expect(flashes.count >= 3, "\(transport): the receiver decoded early enough for flashes")
        #expect(runs.count == flashes.count, "\(transport): \(flashes.count) flashes offered, \(runs.count) decoded")
        let delays = zip(flashes, runs).map { Double(($1 - $0).components.attoseconds) / 1e15 + Double(($1 - $0).components.seconds) * 1000 }
        #expect(delays.allSatisfy { $0 > 0 }, "each flash decoded after it was offered: \(delays)")
        print("stream latency \(transport): 640x360 @ 30 fps, decoded \(got.count)/\(expected) sent (\(dropped) dropped before ffmpeg), "
              + "flash → decoded frame median \(String(format: "%.0f", Self.median(delays))) ms, all: \(delays.map { Int($0.rounded()) }) ms")
    }

    /// The real app streaming its picture (`--stream udp://…`): a receiver
    /// on loopback decodes ≥ 95 % of the frames the app sent over 10 s, and
    /// the app's stats say what the output did (size, rate, sent, dropped).
    @Test func theAppStreamsItsPictureOverUDP() throws {
        let home = try WindowTestHome("stream-out")
        let stats = home.file("stats.jsonl")
        let port = StreamReceiver.freePort()
        let rx = try StreamReceiver(url: Self.urls("udp", port: port).receive)
        defer { rx.stop() }
        let app = try AppProcess(["--no-session", "--no-audio", "--size", "640x360", "--field", "640x360", "--agents", "60000",
                                  "--stream", "udp://127.0.0.1:\(port)?pkt_size=1316", "--video-fps", "30", "--stats", stats.path],
                                 environment: home.environment())
        defer { app.stop() }
        func stream() -> (t: Double, sent: Int, dropped: Int, width: Int)? {
            guard let line = LiveAudioWindowTests.statsLines(stats).last,
                  let s = (line["videoOut"] as? [String: Any])?["stream"] as? [String: Any] else { return nil }
            return ((line["t"] as? NSNumber)?.doubleValue ?? 0, (s["framesSent"] as? NSNumber)?.intValue ?? 0,
                    (s["dropped"] as? NSNumber)?.intValue ?? 0, (s["width"] as? NSNumber)?.intValue ?? 0)
        }
        try #require(poll(seconds: 90, every: 0.2) { rx.count > 0 || !app.isRunning } && app.isRunning,
                     "the receiver decodes the app's stream: \(app.stderr) \(rx.stderr)")
        // The first stats line that has the stream (the receiver may decode a frame before the app writes one).
        var first: (t: Double, sent: Int, dropped: Int, width: Int)?
        try #require(poll(seconds: 30, every: 0.1) {
            first = stream()
            return first != nil || !app.isRunning
        } && app.isRunning, "\(app.stderr)")
        let a = try #require(first)
        let rxA = rx.count
        try #require(poll(seconds: 60, every: 0.2) { (stream()?.t ?? 0) >= a.t + 10 || !app.isRunning } && app.isRunning, "\(app.stderr)")
        let b = try #require(stream())
        _ = poll(seconds: 5, every: 0.05) { rx.count - rxA >= b.sent - a.sent }
        let decoded = rx.count - rxA, sent = b.sent - a.sent
        #expect(a.width == 640, "the output window's size by default")
        #expect(sent > 0 && Double(decoded) >= 0.95 * Double(sent), "decoded \(decoded) of \(sent) frames the app sent")
        #expect(app.stderr.contains("Network stream on: stream udp://127.0.0.1:\(port)"), "\(app.stderr)")
        print("app stream: \(sent) frames sent in \(String(format: "%.1f", b.t - a.t)) s, \(decoded) decoded, \(b.dropped - a.dropped) dropped")
    }
}

/// `--v4l2`: a path that is no loopback output is refused with its reason and
/// the app keeps running; a real v4l2loopback device gets the picture.
@Suite(.serialized) struct V4L2OutTests {
    /// The first v4l2loopback device, if the kernel module is loaded here.
    static var loopbackDevice: String? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/sys/devices/virtual/video4linux") else { return nil }
        return names.sorted().first { n in
            ((try? String(contentsOfFile: "/sys/devices/virtual/video4linux/\(n)/name", encoding: .utf8)) ?? "").lowercased().contains("loopback")
        }.map { "/dev/\($0)" }
    }

    @Test func aDeviceThatIsNoLoopbackOutputIsRefusedAndTheAppRuns() throws {
        let home = try WindowTestHome("v4l2-refused")
        let app = try AppProcess(["--no-session", "--no-audio", "--size", "320x180", "--field", "320x180", "--agents", "5000",
                                  "--v4l2", "/dev/null"], environment: home.environment())
        defer { app.stop() }
        let said = poll(seconds: 60, every: 0.1) { app.stderr.contains("v4l2loopback device not started") || !app.isRunning }
        #expect(said && app.isRunning, "\(app.stderr)")
        #expect(app.stderr.contains("/dev/null is not a video4linux device"), "\(app.stderr)")
    }

    @Test(.enabled(if: loopbackDevice != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"),
                   "no v4l2loopback device here (the kernel module is not loaded: modprobe v4l2loopback exclusive_caps=1)"))
    func aLoopbackDeviceGetsThePicture() throws {
        let device = try #require(Self.loopbackDevice)
        let home = try WindowTestHome("v4l2-out")
        let app = try AppProcess(["--no-session", "--no-audio", "--size", "320x180", "--field", "320x180", "--agents", "5000",
                                  "--v4l2", device], environment: home.environment())
        defer { app.stop() }
        #expect(poll(seconds: 60, every: 0.1) { app.stderr.contains("v4l2loopback device on") || !app.isRunning } && app.isRunning, "\(app.stderr)")
        let r = try PhysarumProcess.run(tool: "/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "v4l2", "-i", device,
                                                                 "-frames:v", "30", "-f", "null", "-"])
        #expect(r.status == 0, "ffmpeg reads 30 frames from \(device): \(r.stderr)")
    }
}
