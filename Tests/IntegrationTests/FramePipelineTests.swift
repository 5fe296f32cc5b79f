import AudioReactive
import Engine
import Foundation
import Testing
import TestSupport
@testable import LiveCore
@testable import LiveApp

/// The live window, the headless host and `render --audio` drive one
/// `FramePipeline`; only their clocks differ. Here a feature stream recorded
/// from an audio file is fed to a pipeline built in the test, on the offline
/// clock, and its frames are compared byte for byte with the PNGs that the
/// real `physarum render --audio` writes for the same file, config and preset.
@Suite(.serialized) struct FramePipelineTests {
    static let fps = 30.0
    static let size = (width: 160, height: 90)
    static let agents = 4_000

    @Test func aRecordedFeatureStreamOnTheOfflineClockGivesTheFramesOfRenderAudio() throws {
        let dir = makeTempDir("pipeline")
        defer { try? FileManager.default.removeItem(at: dir) }
        let loop = try AudioRenderTests.drumLoop(in: dir.path, bars: 1)
        let out = dir.appendingPathComponent("frames").path
        let r = try PhysarumProcess.run(["render", "--audio", loop.path, "--config", AudioRenderTests.defaultConfig,
                                         "--preset", "neon-veins", "--size", "\(Self.size.width)x\(Self.size.height)",
                                         "--agents", "\(Self.agents)", "--fps", "\(Int(Self.fps))", "--threads", "2", "--out", out])
        #expect(r.status == 0, "render: \(r.stderr)")

        // The recorded stream: every analysis hop of the file, in order.
        let config = try AudioConfig.load(contentsOf: URL(fileURLWithPath: AudioRenderTests.defaultConfig)).config
        let source = try FileSource(path: loop.path)
        let frameCount = FrameFeatureFeed.frameCount(samples: source.frames, sampleRate: source.sampleRate, fps: Self.fps)
        let analysis = OfflineAnalysis(source: source, settings: config.tuning)
        var hops: [AudioFeatures] = []
        while let h = try analysis.nextHop() { hops.append(h) }
        #expect(hops.count > 100)

        // The pipeline, driven by the offline clock and the recorded stream.
        var base = try PresetSource.resolve("neon-veins").params
        base[.agents] = Double(Self.agents)
        let pipeline = FramePipeline(field: Self.size, output: Self.size, params: base, seed: 1, threads: 2)
        config.configure(&pipeline.modulator)
        var clock = OfflineClock(fps: Self.fps, count: frameCount)
        var feed = FrameFeatureFeed(fps: Self.fps)
        var next = hops.makeIterator()
        var compared = 0, moved = 0
        var previous: [UInt8]?
        while let tick = clock.next() {
            let features = feed.next { next.next() }
            pipeline.run(.init(base: base, features: features), tick: tick)
            let png = try PNGCodec.read(out + "/" + FrameSink.frameName(tick.index))
            #expect(png.width == Self.size.width && png.height == Self.size.height)
            #expect(png.pixels == pipeline.image.pixels, "frame \(tick.index) differs from render --audio's")
            if let previous, previous != png.pixels { moved += 1 }
            previous = png.pixels
            compared += 1
        }
        #expect(compared == frameCount && frameCount >= 60, "\(compared) of \(frameCount) frames compared")
        #expect(moved > frameCount / 2, "the frames move (not a still picture compared with itself)")
        #expect(!FileManager.default.fileExists(atPath: out + "/" + FrameSink.frameName(frameCount)), "render wrote exactly \(frameCount) frames")
    }
}
