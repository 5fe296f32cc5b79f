import Engine
import Foundation
import LiveCore
import Storage
import Synchronization

/// Live-set costs on the frame path and the recorder's encoder:
/// `live-frame-720p` — what the frame loop pays per frame at 1280×720 for
/// recording (`Recorder.offer`: a copy into the ring), a fade (`Brightness`)
/// and a thumbnail; `record-ffmpeg-720p` — how fast the real ffmpeg encoder
/// (x264 ultrafast) takes 1280×720 frames, and its CPU per video second.
enum CaptureBench {
    /// A sink that discards frames (measures the producer side only).
    private final class NullSink: VideoSink {
        func open() throws(CaptureError) {}
        func write(_ frame: UnsafeRawBufferPointer) throws(CaptureError) {}
        func close() throws(CaptureError) {}
    }

    /// A 1280×720 frame with soft moving bands (compressible like real output).
    static func frame(_ n: Int, width: Int = 1280, height: Int = 720) -> RGBAImage {
        var img = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                img.pixels[i] = UInt8(truncatingIfNeeded: (x + n * 3) / 4)
                img.pixels[i + 1] = UInt8(truncatingIfNeeded: (y * 2 + n) / 3)
                img.pixels[i + 2] = UInt8(truncatingIfNeeded: (x ^ y) / 8)
                img.pixels[i + 3] = 255
            }
        }
        return img
    }

    static let scenarios: [BenchScenario] = [
        BenchScenario(name: "live-frame-720p", summary: "frame-path cost of recording (ring copy), a fade (RGBAImage.scaleBrightness) and a thumbnail at 1280x720") { o in
            let img = frame(0)
            let frames = 300
            var offer: [Double] = [], fade: [Double] = [], thumb: [Double] = []
            var accepted = 0
            for _ in 0..<o.repeats {
                let r = Recorder(fps: 60, queueFrames: 6, directory: { NSTemporaryDirectory() }, makeSink: { _ in NullSink() })
                r.start(width: img.width, height: img.height)
                // Time only the offers; between them wait for room, as a real-time loop would have.
                let clock = ContinuousClock()
                var spent = Duration.zero
                img.pixels.withUnsafeBytes { px in
                    for f in 0..<frames {
                        while r.pendingFrames >= r.queueFrames { usleep(100) }
                        let t = clock.now
                        r.offer(px, width: img.width, height: img.height, time: Double(f) / 60)
                        spent += clock.now - t
                    }
                }
                offer.append(Double(spent.components.seconds) + Double(spent.components.attoseconds) / 1e18)
                accepted = frames - r.status.dropped
                r.stop()
                _ = r.waitUntilFinished(timeout: 30)
                var copy = img
                fade.append(timeSeconds { for f in 0..<frames { copy.scaleBrightness(Double(f % 60) / 60) } })
                thumb.append(timeSeconds { for _ in 0..<30 { _ = Thumbnail.make(from: img.pixels, width: img.width, height: img.height) } })
            }
            return [("width", .int(img.width)), ("height", .int(img.height)), ("repeats", .int(o.repeats)),
                    ("offerMsPerFrame", JSONNode.rounded(median(offer) / Double(frames) * 1000, 4)), ("framesAccepted", .int(accepted)),
                    ("fadeMsPerFrame", JSONNode.rounded(median(fade) / Double(frames) * 1000, 4)),
                    ("thumbnailMs", JSONNode.rounded(median(thumb) / 30 * 1000, 3))]
        },
        BenchScenario(name: "record-ffmpeg-720p", summary: "real ffmpeg (x264 ultrafast) encoding 1280x720 frames: frames/s and CPU per video second") { o in
            guard FFmpegSink.findFFmpeg() != nil else { throw RuntimeFailure("ffmpeg is not installed; cannot run record-ffmpeg-720p") }
            let frames = (0..<8).map { frame($0 * 8) }
            let count = 150  // 5 s of video at 30 fps
            var walls: [Double] = [], cpus: [Double] = []
            var dropped = 0
            for _ in 0..<o.repeats {
                let dir = NSTemporaryDirectory() + "physarum-bench-\(getpid())"
                let r = Recorder(fps: 30, queueFrames: 6, directory: { dir })
                let before = childCPUSeconds()
                walls.append(timeSeconds {
                    r.start(width: 1280, height: 720)
                    for n in 0..<count {
                        // Wait for room (measures encoder throughput, not drops).
                        while r.pendingFrames >= r.queueFrames { usleep(200) }
                        r.offer(frames[n % frames.count].pixels, width: 1280, height: 720, time: Double(n) / 30)
                    }
                    r.stop()
                    _ = r.waitUntilFinished(timeout: 120)
                })
                cpus.append(childCPUSeconds() - before)
                dropped += r.status.dropped
                _ = r.drainNotices()
                try? FileManager.default.removeItem(atPath: dir)
            }
            let wall = median(walls)
            return [("frames", .int(count)), ("fps", .int(30)), ("repeats", .int(o.repeats)),
                    ("seconds", JSONNode.rounded(wall, 3)), ("encoderFPS", JSONNode.rounded(Double(count) / wall, 1)),
                    ("ffmpegCPUPerVideoSecond", JSONNode.rounded(median(cpus) / (Double(count) / 30), 3)), ("dropped", .int(dropped))]
        },
    ]

    /// User + system CPU seconds of reaped child processes so far.
    private static func childCPUSeconds() -> Double {
        var u = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &u)
        return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
    }
}
