import Engine
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import LiveCore
@testable import LiveApp

/// `LiveSet` as the frame loop drives it: actions → effects → perform, then
/// tick / finish(frame) / drainActions each frame.
@Suite struct LiveSetTests {
    final class CountingSink: VideoSink, @unchecked Sendable {
        let frames = Atomic<Int>(0)
        let firstPixel = Mutex<UInt8?>(nil)
        func open() throws(CaptureError) {}
        func write(_ frame: UnsafeRawBufferPointer) throws(CaptureError) {
            firstPixel.withLock { if $0 == nil { $0 = frame[0] } }
            frames.add(1, ordering: .relaxed)
        }
        func close() throws(CaptureError) {}
    }

    final class Loop {
        var model: AppModel
        let live: LiveSet
        var image: RGBAImage
        var time = 0.0
        let sink = CountingSink()

        init(dir: LibraryTestDir) {
            let env = ["HOME": dir.path, "XDG_DATA_HOME": dir.path + "/data", "XDG_PICTURES_DIR": dir.path + "/pics",
                       "XDG_CONFIG_HOME": dir.path + "/config"]
            let sink = sink
            live = LiveSet(factory: testFactory, environment: env,
                           recorder: Recorder(fps: 30, directory: { dir.path + "/videos" }, makeSink: { _ in sink }))
            model = AppModel(library: live.initialLibrary)
            image = RGBAImage(width: 48, height: 27)
            image.fill(RGBColor(r: 200, g: 100, b: 50))
        }

        deinit { live.shutdown() }

        func apply(_ a: AppAction) {
            for e in model.handle(a) { for b in live.perform(e) { apply(b) } }
        }

        /// One frame of the loop.
        func frame(dt: Double = 1.0 / 60, resolution: Double = 1) {
            time += dt
            for a in live.tick(dt: dt, model: model) { apply(a) }
            image.fill(RGBColor(r: 200, g: 100, b: 50))  // the renderer's fresh frame
            image.scaleBrightness(live.brightness)  // as the pipeline does before its outputs
            live.show(FramePipeline.Frame(tick: FrameTick(index: 0, time: time, dt: dt), params: model.base, steps: 0,
                                           resolutionFactor: resolution), picture: FramePicture(image: image))
            for a in live.drainActions() { apply(a) }
        }

        func settle() {
            _ = poll(seconds: 10) { live.worker.isIdle }
            frame()
        }
    }

    @Test func screenshotKeyWritesThePNGOfTheFrameShown() throws {
        let dir = LibraryTestDir()
        let loop = Loop(dir: dir)
        loop.frame()
        loop.apply(KeyMap.action(for: KeyPress(key: .letter("p")), textFocused: false)!)
        loop.frame()
        loop.settle()
        let name = try #require(dir.names("pics/physarum").first)
        let png = try PNGCodec.decode([UInt8](try #require(dir.read("pics/physarum/" + name))))
        #expect(png.width == 48 && png.pixel(x: 5, y: 5) == (200, 100, 50, 255))
        #expect(loop.model.notices.items.last?.text == "Screenshot saved: \(dir.path)/pics/physarum/\(name)")
    }

    @Test func blackoutDarkensTheOutputAndReturns() {
        let dir = LibraryTestDir()
        let loop = Loop(dir: dir)
        loop.apply(.live(.toggleBlackout))
        loop.frame()
        let early = loop.image.pixel(x: 0, y: 0)
        #expect(early.r < 200 && early.r > 150)
        for _ in 0..<70 { loop.frame() }
        #expect(loop.image.pixel(x: 3, y: 3) == (0, 0, 0, 255))
        loop.apply(.live(.toggleBlackout))
        for _ in 0..<70 { loop.frame() }
        #expect(loop.image.pixel(x: 3, y: 3) == (200, 100, 50, 255))
    }

    @Test func savingWritesTheThumbnailFromTheNextFrame() throws {
        let dir = LibraryTestDir()
        let loop = Loop(dir: dir)
        loop.apply(.library(.saveToSlot(0, name: "Thumb")))
        loop.frame()
        loop.settle()
        let png = try PNGCodec.decode([UInt8](try #require(dir.read("data/physarum/thumbnails/user-1.png"))))
        #expect(png.width == 160 && png.height == 90 && png.pixel(x: 80, y: 45) == (200, 100, 50, 255))
        #expect(FileManager.default.fileExists(atPath: dir.file("data/physarum/library.json")))
    }

    @Test func recordKeyStartsAndStopsARecordingOfTheFrames() {
        let dir = LibraryTestDir()
        let loop = Loop(dir: dir)
        loop.apply(.live(.toggleRecording))
        for _ in 0..<60 {  // 1 s at 60 fps → 30 video frames (paced like a real-time loop: no drops)
            _ = poll(seconds: 10) { loop.live.recorder.pendingFrames < loop.live.recorder.queueFrames }
            loop.frame()
        }
        #expect(loop.live.recorder.status.isActive)
        loop.apply(.live(.toggleRecording))
        loop.frame()
        #expect(loop.live.recorder.waitUntilFinished(timeout: 10))
        loop.frame()
        #expect(loop.sink.frames.load(ordering: .relaxed) == 30 && loop.live.recorder.status.dropped == 0)
        #expect(loop.sink.firstPixel.withLock { $0 } == 200)
        #expect(loop.model.notices.items.last?.text.hasPrefix("Recording saved: \(dir.path)/videos/physarum-") == true)
    }

    /// Started while the governor renders at 55 %: the video is made at the
    /// full size (48x27 / 0.55 = 87x49), the smaller frames are scaled into
    /// it, and the saved notice says so.
    @Test func aRecordingMadeWhileTheGovernorLoweredTheResolutionSaysSo() {
        let dir = LibraryTestDir()
        let loop = Loop(dir: dir)
        loop.apply(.live(.toggleRecording))
        loop.frame(resolution: 0.55)
        loop.apply(.live(.toggleRecording))
        loop.frame(resolution: 0.55)
        #expect(loop.live.recorder.waitUntilFinished(timeout: 10))
        loop.frame()
        let saved = loop.model.notices.items.last?.text ?? ""
        #expect(saved.hasPrefix("Recording saved: ") && saved.contains("rendered smaller by the governor (down to 48x27) and scaled to 87x49"),
                "\(saved)")
        #expect(LiveSet.fullSize(1088, 612, factor: 0.85) == (1280, 720))
    }

    @Test func aRecordingAtFullSizeSaysNothingAboutTheGovernor() {
        let dir = LibraryTestDir()
        let loop = Loop(dir: dir)
        loop.apply(.live(.toggleRecording))
        loop.frame()
        loop.apply(.live(.toggleRecording))
        loop.frame()
        #expect(loop.live.recorder.waitUntilFinished(timeout: 10))
        loop.frame()
        #expect(!loop.model.notices.items.contains { $0.text.contains("governor") })
        #expect(loop.model.notices.items.last?.text.hasPrefix("Recording saved: ") == true)
    }
}
