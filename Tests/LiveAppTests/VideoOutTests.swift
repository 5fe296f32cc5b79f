import Foundation
import LiveCore
import Synchronization
import TestSupport
import Testing
@testable import LiveApp

/// The shared frame queue behind every video output (and the recorder): a
/// slow output loses its oldest frames, counted, and never holds up the
/// frame thread or the other outputs; paced outputs take the frames their
/// rate asks for.
@Suite struct FrameFanoutTests {
    /// A 4x2 frame whose every pixel is `value` (R channel), so a frame can be told from another.
    static func frame(_ value: UInt8) -> [UInt8] {
        (0..<8).flatMap { _ in [value, 0, 0, 255] }
    }

    @Test func aSlowOutputKeepsTheNewestFramesAndCountsTheOldestDropped() {
        let fanout = FrameFanout()
        let tap = FrameTap(name: "slow", fps: nil, depth: 2)
        fanout.attach(tap, frameBytes: 32)
        for i in 0..<5 { fanout.offer(Self.frame(UInt8(i)), width: 4, height: 2, time: Double(i) / 60) }
        #expect(tap.dropped.load(ordering: .relaxed) == 3, "five frames into a queue of two: the three oldest dropped")
        #expect(tap.offered.load(ordering: .relaxed) == 5)
        var seen: [UInt8] = []
        while let lease = fanout.take(tap) {
            seen.append(lease.bytes[0])
            fanout.release(lease)
        }
        #expect(seen == [3, 4], "the output sees the newest pictures")
    }

    @Test func aStalledOutputDoesNotStarveAnotherAndTheProducerNeverRunsOutOfSlots() {
        let fanout = FrameFanout()
        let stalled = FrameTap(name: "stalled", fps: nil, depth: 2)
        let live = FrameTap(name: "live", fps: nil, depth: 2)
        fanout.attach(stalled, frameBytes: 32)
        fanout.attach(live, frameBytes: 32)
        // The stalled output holds a lease for ever; the live one keeps up.
        fanout.offer(Self.frame(0), width: 4, height: 2, time: 0)
        let held = fanout.take(stalled)
        #expect(held != nil)
        var got: [UInt8] = []
        for i in 1...50 {
            fanout.offer(Self.frame(UInt8(i)), width: 4, height: 2, time: Double(i) / 60)
            while let lease = fanout.take(live) {
                got.append(lease.bytes[0])
                fanout.release(lease)
            }
        }
        #expect(got == [0] + (1...50).map { UInt8($0) }, "every frame reached the live output")
        #expect(live.dropped.load(ordering: .relaxed) == 0)
        #expect(stalled.dropped.load(ordering: .relaxed) == 48, "the stalled output's queue of 2 kept the newest")
        #expect(held.map { $0.bytes[0] } == 0, "the held frame's bytes stayed intact")
        if let held { fanout.release(held) }
    }

    @Test func aPacedOutputTakesItsRateAndKeepsItsLengthWhenFramesAreDropped() {
        let fanout = FrameFanout()
        let tap = FrameTap(name: "32 fps", fps: 32, depth: 8)
        fanout.attach(tap, frameBytes: 32)
        // 64 frames a second for half a second (times exact in binary): 16 output frames due.
        for i in 0..<32 { fanout.offer(Self.frame(1), width: 4, height: 2, time: Double(i) / 64) }
        var frames = 0, repeats = 0
        while let lease = fanout.take(tap) {
            frames += 1
            repeats += lease.repeats
            fanout.release(lease)
        }
        #expect(frames == 8, "at most the queue's depth waits")
        #expect(tap.dropped.load(ordering: .relaxed) == 8, "16 due into a queue of 8 nobody took from")
        #expect(repeats == 16, "the frames kept stand for the dropped ones' time")
        // A quarter-second stall: the next frame stands for the 8 output frames it covers.
        fanout.offer(Self.frame(2), width: 4, height: 2, time: 31.0 / 64 + 0.25)
        let lease = fanout.take(tap)
        #expect(lease?.repeats == 8 && lease?.bytes[0] == 2)
        if let lease { fanout.release(lease) }
    }

    /// A camera at 30 fps fed by a loop just under 30 fps with uneven frame
    /// times: every frame reaches it (the exact grid a recording keeps skips
    /// the frames that share a slot); fed at 60 fps it still takes 30 a second.
    @Test func aLiveOutputTakesEveryFrameOfALoopBelowItsRateAndNoMoreThanItsRate() {
        func run(early: Bool, times: [Double]) -> Int {
            let fanout = FrameFanout()
            let tap = FrameTap(name: "camera", fps: 30, depth: 2, early: early)
            fanout.attach(tap, frameBytes: 32)
            var got = 0
            for t in times {
                fanout.offer(Self.frame(1), width: 4, height: 2, time: t)
                while let lease = fanout.take(tap) {
                    got += 1
                    fanout.release(lease)
                }
            }
            return got
        }
        // 28 fps for 10 s, each frame time moved by up to ±40 % of a frame (a fixed pattern).
        let uneven = (0..<280).map { i in (Double(i) + 0.4 * sin(Double(i) * 2.3)) / 28 }
        #expect(run(early: true, times: uneven) == 280, "every frame of a loop below the camera's rate")
        let grid = run(early: false, times: uneven)
        #expect(grid < 280, "the exact grid skips frames sharing a slot (\(grid) of 280)")
        // 60 fps for 10 s: 30 a second (one frame ahead at most).
        let fast = (0..<600).map { Double($0) / 60 }
        let taken = run(early: true, times: fast)
        #expect(taken >= 299 && taken <= 301, "30 fps from a 60 fps loop: \(taken) in 10 s")
    }

    @Test func nothingIsCopiedWhenNoOutputIsDueAndAClosedTapTakesNoMore() {
        let fanout = FrameFanout()
        #expect(!fanout.wants(time: 0))
        let tap = FrameTap(name: "one", fps: 10, depth: 2)
        fanout.attach(tap, frameBytes: 32)
        #expect(fanout.wants(time: 0))
        fanout.offer(Self.frame(1), width: 4, height: 2, time: 0)
        #expect(!fanout.wants(time: 0.05), "at 10 fps the next frame is due at 0.1 s")
        #expect(fanout.wants(time: 0.1))
        fanout.close(tap)
        fanout.offer(Self.frame(2), width: 4, height: 2, time: 0.1)
        #expect(fanout.queuedCount(tap) == 1, "the frame queued before the close stays; none after it")
        let lease = fanout.next(tap, timeout: 1)
        #expect(lease?.bytes[0] == 1)
        if let lease { fanout.release(lease) }
        #expect(fanout.next(tap, timeout: 5) == nil, "closed and empty: no wait")
        fanout.detach(tap)
        #expect(fanout.tapCount == 0)
    }
}

/// Frames into an output's size and pixel format.
@Suite struct FrameConverterTests {
    @Test func bgrxSwapsRedAndBlueAndKeepsTheRest() {
        let src: [UInt8] = [10, 20, 30, 255, 200, 100, 50, 255]
        var c = FrameConverter(width: 2, height: 1, format: .bgrx)
        var dst = [UInt8](repeating: 0, count: 8)
        src.withUnsafeBytes { s in dst.withUnsafeMutableBytes { c.convert(s, sourceWidth: 2, sourceHeight: 1, into: $0.baseAddress!, stride: 8) } }
        #expect(dst == [30, 20, 10, 255, 50, 100, 200, 255])
    }

    @Test func yuy2OfAFlatColourDecodesBackToIt() {
        let colour: [UInt8] = [200, 60, 30, 255]
        let src = (0..<16).flatMap { _ in colour }
        var c = FrameConverter(width: 4, height: 4, format: .yuy2)
        var dst = [UInt8](repeating: 0, count: c.frameBytes)
        src.withUnsafeBytes { s in dst.withUnsafeMutableBytes { c.convert(s, sourceWidth: 4, sourceHeight: 4, into: $0.baseAddress!, stride: 8) } }
        let (r, g, b) = FrameConverter.rgb(y: Int(dst[0]), u: Int(dst[1]), v: Int(dst[3]))
        #expect(abs(r - 200) <= 3 && abs(g - 60) <= 3 && abs(b - 30) <= 3, "decoded \(r),\(g),\(b)")
        #expect(dst[0] == dst[2] && dst[8] == dst[0], "every pixel the same")
    }

    @Test func aFrameOfAnotherShapeCoversTheOutputCentred() {
        // 4x2 source: left half red, right half blue; into 2x2 the middle two columns are kept.
        let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
        let row = red + red + blue + blue
        let src = row + row
        var c = FrameConverter(width: 2, height: 2, format: .rgba)
        var dst = [UInt8](repeating: 0, count: 16)
        src.withUnsafeBytes { s in dst.withUnsafeMutableBytes { c.convert(s, sourceWidth: 4, sourceHeight: 2, into: $0.baseAddress!, stride: 8) } }
        #expect(Array(dst[0..<8]) == red + blue)
    }
}

/// An ffmpeg output (network stream, v4l2loopback) while the governor changes
/// the render size: what reaches ffmpeg keeps the size the output started with.
@Suite struct VideoOutSizeTests {
    /// Takes what the output writes: each frame's byte count and its centre pixel's red.
    final class TakingSink: VideoSink, @unchecked Sendable {
        let width: Int, height: Int
        /// The spec the output made its sink with.
        let spec = Mutex<RecordingSpec?>(nil)
        let frames = Mutex<[(bytes: Int, red: UInt8)]>([])
        init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
        func open() throws(CaptureError) {}
        func write(_ frame: UnsafeRawBufferPointer) throws(CaptureError) {
            let centre = ((height / 2) * width + width / 2) * 4
            frames.withLock { $0.append((frame.count, centre < frame.count ? frame[centre] : 0)) }
        }
        func close() throws(CaptureError) {}
        var count: Int { frames.withLock { $0.count } }
    }

    /// A flat `width × height` RGBA frame of red `value`.
    static func flat(_ value: UInt8, width: Int, height: Int) -> [UInt8] {
        (0..<(width * height)).flatMap { _ in [value, 0, 0, 255] }
    }

    @Test func aStreamKeepsItsSizeWhileTheGovernorRendersSmaller() {
        let fanout = FrameFanout(), outbox = NoticeOutbox()
        let (w, h) = (64, 36), (sw, sh) = (35, 20)  // the governor at 55 %
        let sink = TakingSink(width: w, height: h)
        let out = FFmpegVideoOut(destination: .stream(url: "udp://127.0.0.1:9", audio: nil), width: w, height: h, fps: 32,
                                 fanout: fanout, outbox: outbox, makeSink: { spec in
                                     sink.spec.withLock { $0 = spec }
                                     return sink
                                 })
        out.start()
        // 30 frames at full size, 30 rendered smaller, 30 at full size again, one output frame each (32 fps, times n/32).
        for n in 0..<90 {
            let small = (30..<60).contains(n)
            let red = UInt8(n < 30 ? 50 : small ? 150 : 250)
            fanout.offer(Self.flat(red, width: small ? sw : w, height: small ? sh : h), width: small ? sw : w, height: small ? sh : h,
                         time: Double(n) / 32)
            let written = poll(seconds: 10) { sink.count == n + 1 }
            #expect(written, "frame \(n) written")
        }
        #expect(!out.failed.load(ordering: .acquiring) && out.dropped == 0)
        out.stop()
        let frames = sink.frames.withLock { $0 }
        #expect(sink.spec.withLock { $0 } == RecordingSpec(path: "", width: w, height: h, fps: 32))
        #expect(frames.count == 90 && frames.allSatisfy { $0.bytes == w * h * 4 }, "every frame in the output's size: \(Set(frames.map(\.bytes)))")
        #expect(frames.map(\.red) == [UInt8](repeating: 50, count: 30) + [UInt8](repeating: 150, count: 30) + [UInt8](repeating: 250, count: 30),
                "the smaller frames' picture, scaled")
        #expect(!outbox.drain().contains { if case .notice(_, .error) = $0 { return true } else { return false } }, "no error")
    }
}

/// ffmpeg's arguments for the outputs, the v4l2loopback check and the options.
@Suite struct VideoOutOptionsTests {
    @Test func theStreamIsLowLatencyH264InMPEGTS() {
        let args = FFmpegDestination.stream(url: "udp://127.0.0.1:1234", audio: nil).arguments(width: 1280, height: 720, fps: 30)
        func value(_ flag: String) -> String? { args.firstIndex(of: flag).map { args[$0 + 1] } }
        #expect(value("-c:v") == "libx264" && value("-tune") == "zerolatency" && value("-bf") == "0")
        #expect(value("-g") == "15", "a key frame every half second")
        #expect(value("-f") == "mpegts" && args.last == "udp://127.0.0.1:1234")
        #expect(!args.contains("1:a"))
        let withSound = FFmpegDestination.stream(url: "srt://0.0.0.0:9000?mode=listener", audio: "null.monitor")
            .arguments(width: 640, height: 360, fps: 60)
        #expect(withSound.contains("null.monitor") && withSound.contains("1:a") && withSound.contains("aac"))
    }

    @Test func aPathThatIsNoLoopbackDeviceIsRefusedWithItsReason() {
        let missing = V4L2Device.problem("/dev/video-none-here")
        #expect(missing?.contains("modprobe v4l2loopback") == true, "\(missing ?? "")")
        #expect(V4L2Device.problem("/etc/hostname")?.contains("not a device") == true)
        #expect(V4L2Device.problem("/dev/null")?.contains("not a video4linux device") == true)
    }

    @Test func videoOptionsParseAndBadOnesSayWhy() throws {
        let o = try LiveOptions.parse(["--pipewire", "--stream", "udp://127.0.0.1:5000", "--video-size", "1280x720", "--video-fps", "25"])
        #expect(o.pipewire && o.stream == "udp://127.0.0.1:5000" && o.videoSize?.width == 1280 && o.videoFPS == 25)
        #expect(VideoOutputs.startActions(o) == [.videoOut(.set(.pipewire, true)), .videoOut(.set(.stream, true))])
        #expect(VideoOutputs.startActions(try LiveOptions.parse([])).isEmpty, "all off by default")
        #expect(throws: UsageError.self) { try LiveOptions.parse(["--stream", "127.0.0.1:5000"]) }
        #expect(throws: UsageError.self) { try LiveOptions.parse(["--stream-audio", "x.monitor"]) }
        #expect(throws: UsageError.self) { try LiveOptions.parse(["--video-fps", "0"]) }
    }
}
