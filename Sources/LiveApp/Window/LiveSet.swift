import Engine
import Foundation
import LiveCore

/// The live-set tools around the picture: the preset library and its I/O
/// worker, auto-cycle and blackout, screenshots, thumbnails and recording,
/// and their panels. In a session it is a source (the auto-cycle's switch
/// and brightness, then worker replies and recorder notices) and a pipeline
/// output (the faded frame: thumbnails, screenshots, recording); the panels
/// draw it with `drawUI`. Every `.library` / `.capture` effect goes to
/// `perform(_:)`. At quit: `shutdown()`. Main thread only.
final class LiveSet: FrameOutput, ActionSource {
    let worker: FileWorker<AppAction>
    let libraryIO: LibraryIO
    let recorder: Recorder
    /// Auto-cycle and blackout (a pushed remote look fades through it too).
    let autoCycle = AutoCycleSource()
    var panels = LivePanels()
    /// The library read at start-up (install it with `AppModel(library:)`).
    let initialLibrary: LibraryModel
    /// Notices from start-up (a library that could not be read, a migration).
    let startupNotices: [String]
    private let environment: [String: String]
    /// Effects that need the output frame; done in `finish`.
    private var frameEffects: [AppEffect] = []
    /// Actions from frame work (a notice when the worker is full), applied with `drainActions`.
    private var frameReplies: [AppAction] = []
    /// Factory presets' thumbnails, cached under the XDG cache folder (`attachGL` starts them).
    private(set) var factoryThumbnails: FactoryThumbnails?
    /// Thumbnail textures for the panel, once a GL context exists (`attachGL`).
    private(set) var thumbnails: ThumbnailTextures?

    init(factory: [Preset], libraryDirectory: URL? = nil,
         environment: [String: String] = ProcessInfo.processInfo.environment, recorder: Recorder = Recorder()) {
        self.environment = environment
        let store = LibraryStore(directory: libraryDirectory ?? LibraryStore.defaultDirectory(environment: environment))
        let loaded = store.load()
        initialLibrary = LibraryModel(factory: factory, document: loaded.document, loadProblem: loaded.problem)
        startupNotices = loaded.notice.map { [$0] } ?? []
        worker = FileWorker(name: "physarum.files")
        libraryIO = LibraryIO(store: store, worker: worker)
        self.recorder = recorder
    }

    /// Shows thumbnails in the library panel. Call once with the editor
    /// window's GL context current (where ImGui draws).
    func attachGL() {
        let cache = FactoryThumbnails(presets: initialLibrary.items.filter { $0.slot == nil }.map(\.preset),
                                      directory: FactoryThumbnails.defaultDirectory(environment: environment))
        cache.start()
        factoryThumbnails = cache
        let t = ThumbnailTextures(store: libraryIO.store, factory: cache)
        thumbnails = t
        panels.library.thumbnailTexture = { t.texture(for: $0) }
    }

    /// The session's drain: the auto-cycle (a switch at the black point of a
    /// fade, the frame's brightness), then replies of finished work.
    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        autoCycle.drain(&inputs, into: inbox)
        inbox.post(drainActions())
    }

    /// Advances auto-cycle and blackout by `dt` seconds; returns the preset
    /// switch to apply (at the black point of a fade), if any.
    func tick(dt: Double, model: AppModel, tempo: TempoReading = TempoReading()) -> [AppAction] {
        autoCycle.advance(dt: dt, model: model, tempo: tempo).map { [$0] } ?? []
    }

    /// The output brightness of this frame (auto-cycle fade × blackout).
    var brightness: Double { autoCycle.output.alpha }

    /// The finished frame (already faded): does pending thumbnails,
    /// screenshots and recording toggles, and offers the frame to the recorder.
    func show(_ frame: FramePipeline.Frame, picture: FramePicture) {
        if !frameEffects.isEmpty {
            let effects = frameEffects
            frameEffects.removeAll()
            for e in effects { frameReplies += performWithFrame(e, picture.image, frame) }
        }
        if recorder.isRecording {
            let image = picture.image  // a GPU picture is read back only here
            image.pixels.withUnsafeBytes { recorder.offer($0, width: image.width, height: image.height, time: frame.tick.time) }
        }
    }

    /// Executes a `.library` or `.capture` effect (others are ignored).
    /// Returns actions to apply at once (e.g. a notice when the worker is full).
    func perform(_ effect: AppEffect) -> [AppAction] {
        switch effect {
        case .library(.writeThumbnail), .capture:
            frameEffects.append(effect)
            return []
        case .library(let e):
            if case .removeThumbnails(let ids) = e { thumbnails?.remove(ids) }
            return libraryIO.perform(e) { nil }
        default:
            return []
        }
    }

    private func performWithFrame(_ effect: AppEffect, _ image: RGBAImage, _ frame: FramePipeline.Frame) -> [AppAction] {
        switch effect {
        case .library(let e):
            let thumb = Thumbnail.make(from: image.pixels, width: image.width, height: image.height)
            if case .writeThumbnail(let id) = e { thumbnails?.set(thumb, for: id) }
            return libraryIO.perform(e) { thumb }
        case .capture(.screenshot):
            return Screenshot.save(image, worker: worker, environment: environment)
                ? [] : [.notice("Screenshot not saved: file work is falling behind", .error)]
        case .capture(.toggleRecording):
            // The video is made at the full render size whatever the governor does now or later (smaller frames are scaled into it).
            let size = Self.fullSize(image.width, image.height, factor: frame.resolutionFactor)
            recorder.toggle(width: size.width, height: size.height)
            return []
        default:
            return []
        }
    }

    /// The render size at full resolution, from a frame rendered at `factor` of it.
    static func fullSize(_ width: Int, _ height: Int, factor: Double) -> (width: Int, height: Int) {
        guard factor > 0, factor < 1 else { return (width, height) }
        return (Int((Double(width) / factor).rounded()), Int((Double(height) / factor).rounded()))
    }

    /// Draws the library panel, slot picker, key overlay and indicators.
    func drawUI(model: AppModel, dispatch: (AppAction) -> Void) {
        thumbnails?.update()
        panels.draw(model: model, recording: recorder.status, cycle: autoCycle.output, dispatch: dispatch)
    }

    /// Replies of finished file work, frame work and recorder notices, to apply through the model.
    func drainActions() -> [AppAction] {
        let frame = frameReplies
        frameReplies.removeAll()
        return frame + worker.drainReplies() + recorder.drainNotices()
    }

    /// Stops a recording (waiting for the video to be finished) and lets queued saves complete.
    func shutdown() {
        thumbnails = nil
        panels.library.thumbnailTexture = nil
        recorder.stop()
        _ = recorder.waitUntilFinished(timeout: 30)
        worker.shutdown(timeout: 10)
    }
}
