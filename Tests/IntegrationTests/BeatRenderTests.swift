import AudioReactive
import Foundation
import TestSupport
import Testing
@testable import LiveApp

/// `physarum render --audio` with routes that follow the beat tracker: the
/// picture changes on the beat (`beat` → exposure) and once a bar (`bar`),
/// measured as in `AudioRenderTests` (change peaks of the decoded video
/// frames) on the 120 BPM drum loop, from 6 s on (the tracker has locked).
@Suite(.serialized) struct BeatRenderTests {
    static let fps = AudioRenderTests.fps
    static let settle = 6.0

    /// A config with the default tuning whose only route is `source` → exposure.
    static func config(source: String, in dir: String) throws -> String {
        let text = """
        {"format": 1, "name": "Beat \(source)", "enabled": true, "autoGain": true, "gain": 0, "reactivity": 1,
         "routes": [{"source": "\(source)", "target": "global.exposure", "mode": "transient", "depth": 0.8}]}
        """
        let path = dir + "/\(source).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Change peaks (frames) of the video rendered from `audio` through `config`, from `settle` on.
    static func peaks(audio: String, config: String, dir: String, label: String) throws -> [Int] {
        let video = dir + "/\(label).mp4"
        let r = try PhysarumProcess.run(["render", "--audio", audio, "--config", config] + AudioRenderTests.small + ["--out", video])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try AudioRenderTests.decodeFrames(video, width: 320, height: 180)
        // A pulse's flash and its fall back both change the picture (14 frames apart here): one
        // reaction, so a peak needs 20 frames (333 ms, under a beat's 30) after the previous one.
        // A route's flash changes the picture ~50× more than the simulation's own motion
        // between frames (80 against 1–2 here); a peak of that motion alone, which the
        // median + 3 MAD rule can pick where the motion is even, is not a flash (seen on
        // a CPU whose float results differ: a 1.87 peak at 8 s among 1.0–1.8).
        let change = AudioRenderTests.frameChange(frames)
        let flash = 0.2 * (change.max() ?? 0)
        return AudioRenderTests.peaks(change, wait: 20).filter { Double($0) >= settle * fps && change[$0] >= flash }
    }

    @Test(.enabled(if: AudioRenderTests.ffmpegFound, AudioRenderTests.ffmpegReason))
    func beatAndBarRoutesMoveThePictureOnTheBeat() throws {
        let temp = LibraryTestDir()
        let dir = temp.path
        let bars = 8
        let loop = try AudioRenderTests.drumLoop(in: dir, bars: bars)
        // The loop's beats (a kick on each): every 0.5 s from 0, as the frame that first shows them.
        let beats = (0..<(bars * 4)).map { Double($0) * 0.5 }.filter { $0 >= Self.settle }.map { ($0 * Self.fps).rounded(.up) }

        let onBeat = try Self.peaks(audio: loop.path, config: Self.config(source: "beat", in: dir), dir: dir, label: "beat")
        let s = OnsetScoring.score(truth: beats, detections: onBeat.map(Double.init), tolerance: 2)
        print("beat render: \(s)")
        #expect(s.precision >= 0.9 && s.recall >= 0.9, "the picture moves on every beat: \(s)")

        // Bars count from the music (`DownbeatTracker`): the loop's bar starts, every 2 s from 0. A
        // flash after the loop's end (the tracker predicts one more beat while the gate closes) is
        // not scored.
        let end = Double(bars) * 2 * Self.fps
        let barStarts = beats.filter { Int($0) % Int(2 * Self.fps) == 0 }
        let onBar = try Self.peaks(audio: loop.path, config: Self.config(source: "bar", in: dir), dir: dir, label: "bar")
        let b = OnsetScoring.score(truth: barStarts, detections: onBar.map(Double.init).filter { $0 < end }, tolerance: 2)
        let gaps = zip(onBar.dropFirst(), onBar).map { $0 - $1 }
        print("bar render: peaks \(onBar), gaps \(gaps), \(b)")
        #expect(onBar.count >= 3 && b.precision >= 0.9 && b.recall >= 0.9, "bar peaks fall on the loop's bar starts: \(b)")
        #expect(gaps.allSatisfy { abs(Double($0) - 4 * 0.5 * Self.fps) <= 3 }, "one a bar (4 beats = 120 frames): \(gaps)")
    }
}
