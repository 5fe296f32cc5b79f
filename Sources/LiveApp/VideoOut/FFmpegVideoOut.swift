import Foundation
import LiveCore
import Synchronization

/// Where an ffmpeg video output sends the picture.
enum FFmpegDestination: Sendable, Equatable {
    /// A low-latency H.264 MPEG-TS stream (`srt://…`, `udp://…`), with the
    /// sound of a PulseAudio source when `audio` names one.
    case stream(url: String, audio: String?)
    /// A v4l2loopback device (`/dev/videoN`), raw YUV 4:2:0.
    case v4l2(device: String)

    var kind: VideoOutKind {
        if case .stream = self { .stream } else { .v4l2 }
    }

    /// ffmpeg's output arguments for frames of `width × height` at `fps`.
    func arguments(width: Int, height: Int, fps: Int) -> [String] {
        switch self {
        case .stream(let url, let audio):
            // Low latency: no B-frames, x264's zerolatency tune (no look-ahead,
            // sliced threads), a key frame every half second so a receiver
            // that joins (or loses packets) has a picture within 0.5 s, and
            // each packet written out at once.
            let audioIn = audio.map { ["-f", "pulse", "-fragment_size", "1920", "-i", $0] } ?? []
            let audioOut = audio == nil ? [] : ["-c:a", "aac", "-b:a", "128k", "-ar", "48000"]
            return audioIn + ["-map", "0:v"] + (audio == nil ? [] : ["-map", "1:a"])
                + ["-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2", "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency",
                   "-g", String(max(1, fps / 2)), "-bf", "0", "-pix_fmt", "yuv420p", "-b:v", "6M", "-maxrate", "6M", "-bufsize", "3M",
                   "-fps_mode", "passthrough"]
                + audioOut
                + ["-flush_packets", "1", "-muxdelay", "0", "-muxpreload", "0", "-f", "mpegts", url]
        case .v4l2(let device):
            return ["-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2", "-pix_fmt", "yuv420p", "-f", "v4l2", device]
        }
    }

    /// How notices and stats name it.
    var label: String {
        switch self {
        case .stream(let url, _): "stream \(url)"
        case .v4l2(let device): "v4l2loopback \(device)"
        }
    }
}

/// A video output through an ffmpeg child (network stream, v4l2loopback):
/// frames from the shared `FrameFanout` (a tap of 2 at the output's rate;
/// a late encoder drops the oldest, counted) are scaled into the output's
/// size when they differ and piped to ffmpeg on the output's own thread
/// ("physarum.videoout"), at a lower CPU priority like the recorder's encoder.
/// ffmpeg timestamps the frames as they arrive (wall clock), so a dropped
/// frame is a gap, not a slower picture. A dying ffmpeg (a refused
/// destination, a killed receiver for SRT) is one notice; the output then
/// says it stopped (`stopped`).
///
/// Threads: `start`/`stop` on the main thread; the sink lives on the output
/// thread; counters are atomics.
final class FFmpegVideoOut: @unchecked Sendable {
    let destination: FFmpegDestination
    let width: Int, height: Int, fps: Int
    private let fanout: FrameFanout
    private let outbox: NoticeOutbox
    private let makeSink: @Sendable (RecordingSpec) -> any VideoSink
    private var tap: FrameTap?
    private let finished = Atomic<Bool>(false)
    /// Set by the thread when ffmpeg failed (the output is off).
    let failed = Atomic<Bool>(false)
    let framesSent = Atomic<Int>(0)
    /// Time from a frame being shown to its bytes being in ffmpeg's pipe, summed (ns), for the mean.
    let handNanoseconds = Atomic<Int>(0)

    init(destination: FFmpegDestination, width: Int, height: Int, fps: Int, fanout: FrameFanout, outbox: NoticeOutbox,
         makeSink: (@Sendable (RecordingSpec) -> any VideoSink)? = nil) {
        self.destination = destination
        self.width = width
        self.height = height
        self.fps = fps
        self.fanout = fanout
        self.outbox = outbox
        self.makeSink = makeSink ?? { spec in FFmpegSink(spec: spec, output: destination.arguments(width: spec.width, height: spec.height, fps: Int(spec.fps))) }
    }

    deinit { stop() }

    /// Frames the fanout dropped for this output.
    var dropped: Int { tap?.dropped.load(ordering: .relaxed) ?? 0 }

    /// A line for the stats: destination, size, rate and what it did.
    var summary: String {
        let n = framesSent.load(ordering: .relaxed)
        let hand = n > 0 ? Double(handNanoseconds.load(ordering: .relaxed)) / Double(n) / 1e6 : 0
        return "\(destination.label) \(width)x\(height) @ \(fps) fps: \(n) sent, \(dropped) dropped, "
            + String(format: "%.1f ms frame to ffmpeg", hand)
    }

    /// Attaches to the fanout and starts ffmpeg on the output thread.
    func start() {
        guard tap == nil else { return }
        let t = FrameTap(name: destination.label, fps: Double(fps), depth: 2, early: true)
        fanout.attach(t, frameBytes: width * height * 4)
        tap = t
        let thread = Thread { [self] in run(t) }
        thread.name = "physarum.videoout"
        thread.start()
    }

    /// Closes the tap and waits (at most `timeout` seconds) for ffmpeg to end.
    func stop(timeout: Double = 5) {
        guard let t = tap else { return }
        fanout.close(t)
        let deadline = Date().addingTimeInterval(timeout)
        while !finished.load(ordering: .acquiring) && Date() < deadline { usleep(2_000) }
        tap = nil
    }

    private func run(_ t: FrameTap) {
        defer {
            fanout.detach(t)
            finished.store(true, ordering: .releasing)
        }
        RecordingEncoder.lowerThreadPriority(by: 5)
        let sink = makeSink(RecordingSpec(path: "", width: width, height: height, fps: Double(fps)))
        do {
            try sink.open()
        } catch {
            fail("\(destination.kind.label) not started: \(error)")
            return
        }
        outbox.post("\(destination.kind.label) on: \(destination.label), \(width)x\(height) at \(fps) fps", .info)
        var converter = FrameConverter(width: width, height: height, format: .rgba)
        let staging = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 64)
        defer { staging.deallocate() }
        var failure: CaptureError?
        while failure == nil {
            guard let lease = fanout.next(t, timeout: 0.5) else {
                if t.closed.load(ordering: .acquiring) && fanout.queuedCount(t) == 0 { break }
                continue
            }
            let bytes: UnsafeRawBufferPointer
            if lease.width == width && lease.height == height {
                bytes = lease.bytes
            } else {
                converter.convert(lease.bytes, sourceWidth: lease.width, sourceHeight: lease.height, into: staging, stride: width * 4)
                bytes = UnsafeRawBufferPointer(start: staging, count: width * height * 4)
            }
            do {
                try sink.write(bytes)
                framesSent.add(1, ordering: .relaxed)
                let d = ContinuousClock.now - lease.offeredAt
                handNanoseconds.add(Int(d.components.seconds) * 1_000_000_000 + Int(d.components.attoseconds / 1_000_000_000), ordering: .relaxed)
            } catch {
                failure = error
            }
            fanout.release(lease)
        }
        if let failure {
            fail("\(destination.kind.label) stopped: \(failure)")
            return
        }
        do {
            try sink.close()
        } catch {
            // Closing a live stream ends ffmpeg; only say so when it failed for another reason.
            outbox.post("\(destination.kind.label): \(error)", .warning)
        }
        outbox.post("\(destination.kind.label) off: \(destination.label) (\(framesSent.load(ordering: .relaxed)) frames, \(t.dropped.load(ordering: .relaxed)) dropped)", .info)
    }

    private func fail(_ text: String) {
        failed.store(true, ordering: .releasing)
        outbox.post(text, .error)
    }
}
