import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import LiveCore
@testable import LiveApp

/// Recording through the real ffmpeg (checked with ffprobe), and with a sink
/// that stalls on purpose to show drops are counted and the producer never waits.
@Suite struct RecorderTests {
    /// A synthetic frame: a bar moving with the frame number.
    static func frame(_ n: Int, width: Int, height: Int) -> [UInt8] {
        var px = [UInt8](repeating: 40, count: width * height * 4)
        let x0 = (n * 4) % width
        for y in 0..<height { for x in x0..<min(width, x0 + 8) { px[(y * width + x) * 4] = 255 } }
        return px
    }

    /// ffprobe's duration and decoded frame count of a video.
    static func probe(_ path: String) throws -> (duration: Double, frames: Int, codec: String, pixFmt: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        p.arguments = ["-v", "error", "-count_frames", "-select_streams", "v:0",
                       "-show_entries", "stream=codec_name,pix_fmt,nb_read_frames:format=duration", "-of", "default=noprint_wrappers=1", path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        var fields: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { fields[kv[0]] = kv[1] }
        }
        return (Double(fields["duration"] ?? "") ?? -1, Int(fields["nb_read_frames"] ?? "") ?? -1,
                fields["codec_name"] ?? "", fields["pix_fmt"] ?? "")
    }

    static func noticeTexts(_ r: Recorder) -> [String] {
        r.drainNotices().compactMap { if case .notice(let t, _) = $0 { t } else { nil } }
    }

    @Test func recordsAPlayableVideoOfTheRightLength() throws {
        let dir = LibraryTestDir()
        let folder = dir.path + "/videos"
        let r = Recorder(fps: 30, queueFrames: 6, directory: { folder })
        let (w, h) = (161, 91)  // odd sizes: the video is cropped to even ones
        #expect(r.start(width: w, height: h))
        // 3 s of a 60 fps live loop; the recorder keeps every second frame.
        // A real loop runs in real time; here the producer waits for room only
        // so that this test is about duration, not drops (see the next test).
        for n in 0..<180 {
            _ = poll(seconds: 20) { r.pendingFrames < r.queueFrames }
            r.offer(Self.frame(n, width: w, height: h), width: w, height: h, time: Double(n) / 60)
        }
        r.stop()
        #expect(r.waitUntilFinished(timeout: 60))
        let notices = Self.noticeTexts(r)
        let path = try #require(r.status.path)
        #expect(notices.count == 1 && notices[0].hasPrefix("Recording saved: \(path) (3.0 s, "), "\(notices)")
        let info = try Self.probe(path)
        #expect(abs(info.duration - 3.0) <= 0.5, "duration \(info.duration)")
        #expect(info.frames == 90 && info.codec == "h264" && info.pixFmt == "yuv420p")
        #expect(r.status.framesWritten == 90 && r.status.dropped == 0 && r.status.phase == .idle)
        #expect(path.hasPrefix(folder + "/physarum-") && path.hasSuffix(".mp4"))
    }

    /// A sink whose writes wait until the test opens the gate.
    final class StalledSink: VideoSink, @unchecked Sendable {
        let gate = DispatchSemaphore(value: 0)
        let writes = Atomic<Int>(0)
        let blocked = Atomic<Bool>(false)
        func open() throws(CaptureError) {}
        func write(_ frame: UnsafeRawBufferPointer) throws(CaptureError) {
            if writes.load(ordering: .relaxed) == 0 {
                blocked.store(true, ordering: .releasing)
                gate.wait()
            }
            writes.add(1, ordering: .relaxed)
        }
        func close() throws(CaptureError) {}
    }

    /// A 64×36 recording whose encoder took frame 0 and is stalled inside
    /// write() (until `sink.gate` is signalled).
    func withStalledEncoder(_ body: (Recorder, StalledSink, [UInt8], Int, Int) throws -> Void) throws {
        let dir = LibraryTestDir()
        let sink = StalledSink()
        let r = Recorder(fps: 30, queueFrames: 4, directory: { dir.path }, makeSink: { _ in sink })
        let (w, h) = (64, 36)
        let px = Self.frame(0, width: w, height: h)
        r.start(width: w, height: h)
        r.offer(px, width: w, height: h, time: 0)
        #expect(poll(seconds: 10) { sink.blocked.load(ordering: .acquiring) })
        try body(r, sink, px, w, h)
    }

    @Test func aSlowEncoderDropsAndCountsFramesAndNeverBlocksTheProducer() throws {
        try withStalledEncoder { r, sink, px, w, h in
            // 1 s of frames while the encoder is stuck: the queue keeps the newest 4
            // (besides the stalled one); every other frame is dropped, oldest first. This loop would
            // hang here if offer() ever waited for the encoder.
            for n in 1..<30 { r.offer(px, width: w, height: h, time: Double(n) / 30) }
            #expect(r.status.dropped == 25)
            #expect(sink.writes.load(ordering: .relaxed) == 0)
            // The encoder catches up; the next frame is repeated over the gap, so
            // the video keeps the live timing: frames 0…30 → 31 frames written.
            sink.gate.signal()
            // Frame 0, then the 4 kept frames standing for frames 1…29 (the dropped ones' time moves to the next kept).
            #expect(poll(seconds: 10) { sink.writes.load(ordering: .relaxed) == 30 })
            r.offer(px, width: w, height: h, time: 30.0 / 30)
            r.stop()
            #expect(r.waitUntilFinished(timeout: 10))
            #expect(r.status.framesWritten == 31 && r.status.dropped == 25)
            #expect(Self.noticeTexts(r) == ["Recording saved: \(r.status.path!) (1.0 s, 25 dropped)"])
        }
    }

    /// Stopping while the encoder is behind (every frame since the last one
    /// the ring took was dropped): the video still lasts until the stop, by
    /// repeating the last recorded frame.
    @Test func aStopWhileTheEncoderIsBehindKeepsTheVideoLength() throws {
        try withStalledEncoder { r, sink, px, w, h in
            // 2 s at 30 fps with the encoder stuck: the newest 4 wait, 56 are dropped.
            for n in 1...60 { r.offer(px, width: w, height: h, time: Double(n) / 30) }
            #expect(r.status.dropped == 56)
            r.stop()
            sink.gate.signal()
            #expect(r.waitUntilFinished(timeout: 10))
            // Frames 0…60 (2 s + one frame): frame 0, the 4 kept frames with the dropped ones' time, the rest repeats of the last.
            #expect(sink.writes.load(ordering: .relaxed) == 61)
            #expect(r.status.framesWritten == 61 && r.status.dropped == 56)
            #expect(Self.noticeTexts(r) == ["Recording saved: \(r.status.path!) (2.0 s, 56 dropped)"])
        }
    }

    /// A frame larger than the video (the window grew while recording) stops
    /// the recording with a notice saying why; what was recorded is saved.
    @Test func aFrameLargerThanTheVideoStopsTheRecordingWithANotice() throws {
        final class CountingSink: VideoSink, @unchecked Sendable {
            let writes = Atomic<Int>(0)
            func open() throws(CaptureError) {}
            func write(_ frame: UnsafeRawBufferPointer) throws(CaptureError) { writes.add(1, ordering: .relaxed) }
            func close() throws(CaptureError) {}
        }
        let dir = LibraryTestDir()
        let sink = CountingSink()
        let r = Recorder(fps: 30, queueFrames: 4, directory: { dir.path }, makeSink: { _ in sink })
        let (w, h) = (64, 36)
        #expect(r.start(width: w, height: h))
        for n in 0..<10 {
            r.offer(Self.frame(n, width: w, height: h), width: w, height: h, time: Double(n) / 30)
            _ = poll(seconds: 10) { sink.writes.load(ordering: .relaxed) == n + 1 }
        }
        r.offer(Self.frame(10, width: 80, height: 45), width: 80, height: 45, time: 10.0 / 30)
        #expect(poll(seconds: 10) { !r.isRecording }, "the larger frame stops the recording")
        #expect(r.waitUntilFinished(timeout: 10))
        let notes = Self.noticeTexts(r)
        #expect(notes == ["Recording stopped: the frame grew from 64x36 to 80x45 (a recording keeps the size it started with; "
                          + "resize the window before recording)", "Recording saved: \(r.status.path ?? "?") (0.3 s, 0 dropped)"], "\(notes)")
        #expect(sink.writes.load(ordering: .relaxed) == 10)
    }

    /// The on-screen indicator counts the dropped frames once there are any.
    @Test func theRecordingBadgeShowsTheDroppedFrames() {
        let model = AppModel(library: LibraryModel(factory: testFactory))
        func badges(_ s: RecordingStatus) -> [String] { LiveIndicators.badges(model: model, recording: s, untilNext: nil).map(\.text) }
        #expect(badges(RecordingStatus(phase: .recording, framesWritten: 1950, seconds: 65, dropped: 0)) == ["● REC 1:05"])
        #expect(badges(RecordingStatus(phase: .recording, framesWritten: 1950, seconds: 65, dropped: 12)) == ["● REC 1:05 · 12 dropped"])
    }

    @Test func missingFFmpegIsANoticeAndTheLoopGoesOn() throws {
        let dir = LibraryTestDir()
        let r = Recorder(fps: 30, directory: { dir.path }, makeSink: { FFmpegSink(spec: $0, environment: ["PATH": dir.path + "/nobin"]) })
        r.start(width: 32, height: 32)
        #expect(poll(seconds: 10) { r.status.phase == .idle && !r.isRecording })
        r.offer([UInt8](repeating: 0, count: 32 * 32 * 4), width: 32, height: 32, time: 0)  // ignored, no crash
        #expect(r.waitUntilFinished(timeout: 10))
        let notes = Self.noticeTexts(r)
        #expect(notes.count == 1 && notes[0].hasPrefix("Recording not started: ffmpeg is not installed"))
        // Recording can be started again afterwards.
        #expect(r.start(width: 32, height: 32))
        r.stop()
        #expect(r.waitUntilFinished(timeout: 10))
    }

    @Test func aFullDiskStopsTheRecordingWithANotice() throws {
        let dir = LibraryTestDir()
        // /dev/full fails every write with ENOSPC, as a full disk does.
        let r = Recorder(fps: 30, queueFrames: 4, directory: { dir.path },
                         makeSink: { spec in FFmpegSink(spec: RecordingSpec(path: "/dev/full", width: spec.width, height: spec.height, fps: spec.fps)) })
        let (w, h) = (320, 180)
        r.start(width: w, height: h)
        var n = 0
        let stopped = poll(seconds: 60) {
            r.offer(Self.frame(n, width: w, height: h), width: w, height: h, time: Double(n) / 30)
            n += 1
            return !r.isRecording
        }
        #expect(stopped)
        #expect(r.waitUntilFinished(timeout: 30))
        let notes = Self.noticeTexts(r)
        #expect(notes.count == 1, "\(notes)")
        #expect(notes.first.map { $0.hasPrefix("Recording stopped:") || $0.hasPrefix("Recording failed:") } == true, "\(notes)")
        #expect(notes.first?.contains("No space left on device") == true, "\(notes)")
    }
}
