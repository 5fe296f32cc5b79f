import AudioReactive
import Engine
import Foundation
import TestSupport
import Testing
@testable import LiveApp

/// `physarum render --audio`: a generated drum loop drives a preset through an
/// audio config, and the video's picture changes on the beat.
///
/// Known onsets come from the generator: the first sample at which each hit,
/// rendered alone, reaches −30 dB below its own peak (`OnsetScoring`), as the
/// frame that first shows it: ⌈t × fps⌉. The picture's change per frame is
/// the mean absolute difference of the RGB bytes of consecutive decoded video
/// frames; a change peak is the largest change within ±3 frames (50 ms, as
/// onset peak pickers do) that stands above an adaptive threshold — the median
/// of the change over the surrounding second plus three times its median
/// absolute deviation, and that comes more than 100 ms (6 frames) after the
/// previous peak: a hit's picture reaction (the flash, then the motion it sets
/// off) lasts longer than a frame, and the loop's hits are ≥ 250 ms apart, so
/// a second peak that soon is the same hit (peak pickers call this the wait).
/// Peaks and onsets are matched one to one within ±2 frames.
@Suite(.serialized) struct AudioRenderTests {
    static let fps = 60.0
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let defaultConfig = root + "/configs/audio/default.json"
    /// 320×180, the preset's agents scaled to the field (÷16).
    static let small = ["--preset", "neon-veins", "--size", "320x180", "--agents", "62500", "--fps", "60"]

    /// A 10 s drum loop written as a WAV: 120 BPM, kick on every beat, snare on
    /// 2 and 4, closed hats on the off-beats (all hits audible, ±5 ms
    /// humanised), peak at −1 dBFS. Returns its path and onset times.
    static func drumLoop(in dir: String, bars: Int = 5, tail: Double = 0.3) throws -> (path: String, onsets: [Double]) {
        let pattern = DrumPattern(bpm: 120, lanes: [
            (.kick, "X...X...X...X..."),
            (.snare, "....X.......X..."),
            (.closedHat, "..x...x...x...x."),
        ])
        let (dry, hits) = pattern.render(bars: bars, seed: 11, tail: tail)
        let peak = dry.reduce(0) { max($0, abs($1)) }
        let g = amplitude(dB: -1) / max(peak, 1e-9)
        let path = dir + "/loop.wav"
        try AudioFileWriter.write(dry.map { $0 * g }, to: path)
        return (path, OnsetScoring.onsetTimes(of: hits))
    }

    /// Decodes a video to RGB24 frames with ffmpeg.
    static func decodeFrames(_ video: String, width: Int, height: Int) throws -> [[UInt8]] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(VideoEncoder.findExecutable("ffmpeg")))
        p.arguments = ["-v", "error", "-i", video, "-map", "0:v:0", "-fps_mode", "passthrough",
                       "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let n = width * height * 3
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - n + 1, by: n).map { Array(bytes[$0..<($0 + n)]) }
    }

    /// Stream types in a media file ("video", "audio"), by ffprobe.
    static func streamTypes(_ file: String) throws -> [String] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(VideoEncoder.findExecutable("ffprobe")))
        p.arguments = ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", file]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Per frame: mean absolute difference to the previous frame (0 for frame 0).
    static func frameChange(_ frames: [[UInt8]]) -> [Double] {
        var d = [Double](repeating: 0, count: frames.count)
        for i in frames.indices.dropFirst() {
            var s = 0
            let a = frames[i], b = frames[i - 1]
            for k in a.indices { s += abs(Int(a[k]) - Int(b[k])) }
            d[i] = Double(s) / Double(a.count)
        }
        return d
    }

    /// Frames (≥ 1) whose change is the largest within ±`localMax` frames (the
    /// first of equals) and above median + `k` × MAD of the surrounding
    /// ±`halfWindow` frames, at least `wait` + 1 frames after the previous peak.
    static func peaks(_ d: [Double], localMax: Int = 3, halfWindow: Int = 30, k: Double = 3, wait: Int = 6) -> [Int] {
        func median(_ x: [Double]) -> Double {
            let s = x.sorted()
            return s.isEmpty ? 0 : s[s.count / 2]
        }
        var out: [Int] = []
        guard d.count > 2 else { return out }
        for n in 1..<d.count {
            let before = d[max(1, n - localMax)..<n], after = d[(n + 1)..<min(d.count, n + localMax + 1)]
            guard before.allSatisfy({ $0 < d[n] }), after.allSatisfy({ $0 <= d[n] }) else { continue }
            let window = Array(d[max(1, n - halfWindow)...min(d.count - 1, n + halfWindow)])
            let m = median(window)
            let mad = median(window.map { abs($0 - m) })
            if d[n] > m + k * mad, out.last.map({ n - $0 > wait }) ?? true { out.append(n) }
        }
        return out
    }

    /// Renders `audio` through `config` to an mp4, decodes it and scores its change peaks against `onsets`.
    static func score(audio: String, config: String, onsets: [Double], dir: String, label: String) throws -> OnsetScoring.Score {
        let video = dir + "/\(label).mp4"
        let r = try PhysarumProcess.run(["render", "--audio", audio, "--config", config] + small + ["--out", video])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try streamTypes(video).sorted() == ["audio", "video"], "the sound is muxed in")
        let frames = try decodeFrames(video, width: 320, height: 180)
        let samples = try FileSource(path: audio).frames
        #expect(frames.count == FrameFeatureFeed.frameCount(samples: samples, sampleRate: 48000, fps: fps),
                "the whole file is rendered")
        let change = frameChange(frames)
        let detected = peaks(change).map(Double.init)
        let truth = onsets.map { ($0 * fps).rounded(.up) }
        let s = OnsetScoring.score(truth: truth, detections: detected, tolerance: 2)
        print("audio render \(label): \(s) (frames \(frames.count))")
        return s
    }

    /// Whether ffmpeg and ffprobe are here; records an issue when not.
    /// ffmpeg and ffprobe are on the PATH (tests that need them are skipped, with this reason, without).
    static let ffmpegFound = VideoEncoder.findExecutable("ffmpeg") != nil && VideoEncoder.findExecutable("ffprobe") != nil
    static let ffmpegReason: Comment = "needs ffmpeg and ffprobe (scripts/test installs them)"

    @Test(.enabled(if: AudioRenderTests.ffmpegFound, AudioRenderTests.ffmpegReason))
    func theVideoChangesOnTheBeatAndNotWithTheMasterOff() throws {
        let temp = LibraryTestDir()
        let dir = temp.path
        let loop = try Self.drumLoop(in: dir)
        #expect(loop.onsets.count >= 35)
        let on = try Self.score(audio: loop.path, config: Self.defaultConfig, onsets: loop.onsets, dir: dir, label: "default")
        #expect(on.precision >= 0.9 && on.recall >= 0.9, "\(on)")

        let text = try String(contentsOfFile: Self.defaultConfig, encoding: .utf8)
        let offText = text.replacingOccurrences(of: "\"enabled\": true", with: "\"enabled\": false")
        #expect(offText != text)
        let offConfig = dir + "/master-off.json"
        try offText.write(toFile: offConfig, atomically: true, encoding: .utf8)
        let off = try Self.score(audio: loop.path, config: offConfig, onsets: loop.onsets, dir: dir, label: "master-off")
        #expect(off.fMeasure <= on.fMeasure / 2, "master off: \(off); on: \(on)")
    }

    @Test func sameArgumentsGiveByteIdenticalPNGsForTheWholeFile() throws {
        let temp = LibraryTestDir()
        let dir = temp.path
        let loop = try Self.drumLoop(in: dir, bars: 1, tail: 0.1)
        let args = ["--audio", loop.path, "--config", Self.defaultConfig, "--preset", "neon-veins",
                    "--size", "96x54", "--agents", "4000", "--fps", "30"]
        #expect(try RenderCommand.run(args + ["--out", dir + "/a"]) == 0)
        #expect(try RenderCommand.run(args + ["--threads", "1", "--out", dir + "/b"]) == 0)
        let a = try RenderCommandTests.files(dir + "/a"), b = try RenderCommandTests.files(dir + "/b")
        // 2.1 s of audio at 30 fps: 63 frames.
        #expect(a.count == 63 && a.last?.0 == "frame-000063.png")
        #expect(a.map(\.1) == b.map(\.1), "same arguments (any thread count) ⇒ same bytes")
    }

    @Test func badAudioArgumentsAreOneLineErrors() throws {
        let temp = LibraryTestDir()
        let dir = temp.path
        let loop = try Self.drumLoop(in: dir, bars: 1, tail: 0.1)
        let broken = dir + "/broken.json"
        try #"{"format": 1, "name": "Broken", "routes": [{"source": "bass", "target": "global.agents", "depth": 1}]}"#
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let base = ["render", "--preset", "neon-veins", "--size", "96x54", "--out", dir + "/out"]
        for (args, status, message) in [
            (base + ["--config", Self.defaultConfig], Int32(2), "--config needs --audio"),
            (base + ["--audio", loop.path, "--frames", "3"], 2, "--frames does not apply with --audio"),
            (base + ["--audio", loop.path, "--config", broken], 2, "broken.json:1:"),
            (base + ["--audio", loop.path, "--config", "no-such-config"], 2, "unknown audio config 'no-such-config'"),
            (base + ["--audio", dir + "/missing.wav"], 1, "cannot read audio file"),
            (base + ["--audio", broken], 1, "cannot read audio file"),
        ] {
            let r = try PhysarumProcess.run(args)
            #expect(r.status == status, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"), "nothing is written on bad input")
    }

    @Test func helpStatesTheTempoAndTheFrameRule() throws {
        let r = try PhysarumProcess.run(["render", "--help"])
        #expect(r.status == 0)
        let text = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--fps must match the live frame rate"))
        #expect(text.contains("level is its value at the last analysis hop at or before t_N"))
        #expect(text.contains("transient is the maximum over the hops in (t_N-1, t_N]"))
    }
}

