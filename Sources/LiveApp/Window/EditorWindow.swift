import Engine
import Foundation
import LiveCore

/// The live window as the pipeline's last output: the picture goes to the
/// projector window (if open) as it is, then the panels are drawn over it
/// in the editor window and both are presented. With a software GL the
/// panels are blended into the picture on the CPU (cheaper than rasterising
/// them again); otherwise GL draws them over it. Main thread only.
final class EditorWindow: FrameOutput {
    let window: SDLWindow
    let presenter: GLPresenter
    let gui: ImGuiLayer
    /// The output-only (projector) window and its presenter.
    private(set) var projector: (window: SDLWindow, presenter: GLPresenter)?
    /// Draws the panels (inside the ImGui frame) and returns their actions.
    var drawPanels: () -> [AppAction] = { [] }
    /// `--screenshot FILE --screenshot-at S`: the whole window at that time.
    var screenshot: (path: String, at: Double)?
    /// Called once the screenshot was attempted (nil = saved, else the error).
    var screenshotTaken: (String?) -> Void = { _ in }
    /// The panels' actions of the last frame (taken at the next tick's drain).
    private var panelActions: [AppAction] = []
    /// Milliseconds of the last frame's parts: upload + present, UI, swap (vsync wait).
    private(set) var timing = (present: 0.0, ui: 0.0, swap: 0.0)
    /// When the last frame's swap returned (the frame was handed to the display).
    private(set) var lastPresent: ContinuousClock.Instant?
    /// Hit reactions presented (`presentReaction`) and the running mean of
    /// their parts (ms): the curve applied on the CPU, then upload, draw and swap.
    private(set) var reactions = 0
    /// Frames presented through a hit's curve (`curveAtPresent`).
    private(set) var curvedFrames = 0
    private(set) var reactionMs = (curve: 0.0, present: 0.0)
    /// What the last frame left in the presenters: a CPU picture (uploaded)
    /// and whether panels were blended into the uploaded picture.
    private var lastUpload = (cpu: false, panelsInImage: false)
    /// The last frame's picture (valid until the next frame renders) and the
    /// hit reaction's copy of it.
    private var lastPicture: FramePicture?
    private var reactionPixels: [UInt8] = []
    /// The hit reaction at a frame's present: how the frame's picture should
    /// show hits heard since its late latch (nil: none). Asked once per CPU frame.
    var curveAtPresent: () -> ReactionCurve? = { nil }
    private let clock = ContinuousClock()

    init(window: SDLWindow, presenter: GLPresenter, gui: ImGuiLayer) {
        self.window = window
        self.presenter = presenter
        self.gui = gui
    }

    func show(_ frame: FramePipeline.Frame, picture: FramePicture) {
        let t0 = clock.now
        // A hit heard while this frame's post chain ran: the picture goes out
        // through its curve (HitReaction), before the panels are blended in.
        var curved = false
        if picture.texture == nil, let c = curveAtPresent() {
            curve(picture.image, through: c)
            curved = true
            curvedFrames += 1
        }
        // The projector gets the picture before the panels are blended into
        // it (GL copies the pixels at upload; a GPU picture is read back for
        // it, since the projector's context does not share the texture).
        if let p = projector {
            p.window.makeCurrent()
            let image = picture.image
            if curved {
                reactionPixels.withUnsafeBytes { p.presenter.upload(pixels: $0.baseAddress!, width: image.width, height: image.height) }
            } else {
                image.pixels.withUnsafeBytes { p.presenter.upload(pixels: $0.baseAddress!, width: image.width, height: image.height) }
            }
            window.makeCurrent()
        }
        let t1 = clock.now
        gui.beginFrame()
        panelActions = drawPanels()
        let drawable = window.drawableSize
        let t2: ContinuousClock.Instant
        if let texture = picture.texture {
            // The GPU's picture, drawn from its texture: no CPU round trip.
            gui.endFrameDeferred()
            lastUpload = (false, false)
            t2 = clock.now
            presenter.draw(texture: texture, size: (picture.width, picture.height),
                           viewport: (0, 0, drawable.width, drawable.height), drawable: drawable)
            gui.drawOverPicture()
        } else {
            let panelsInImage = gui.endFrame(blendingInto: &picture.image)
            lastUpload = (true, panelsInImage)
            lastPicture = picture
            t2 = clock.now
            let image = picture.image
            if curved, !(panelsInImage && gui.vertexCount > 0) {
                // (Where the panels were blended in, the editor shows the frame as it is; the projector has the hit.)
                reactionPixels.withUnsafeBytes { presenter.upload(pixels: $0.baseAddress!, width: image.width, height: image.height) }
            } else {
                image.pixels.withUnsafeBytes { presenter.upload(pixels: $0.baseAddress!, width: image.width, height: image.height) }
            }
            presenter.draw(viewport: (0, 0, drawable.width, drawable.height), drawable: drawable)
            if !panelsInImage { gui.drawOverPicture() }
        }
        if let s = screenshot, frame.tick.time >= s.at {
            screenshot = nil
            do {
                try PNGCodec.write(presenter.readBack(width: drawable.width, height: drawable.height), to: s.path)
                screenshotTaken(nil)
            } catch {
                screenshotTaken("\(error)")
            }
        }
        let t3 = clock.now
        window.swap()
        if let p = projector {
            // Same frame, no panels (uploaded above); this window's swap paces the loop.
            p.window.makeCurrent()
            let size = p.window.drawableSize
            p.presenter.draw(viewport: (0, 0, size.width, size.height), drawable: size)
            p.window.swap()
            window.makeCurrent()
        }
        let t4 = clock.now
        lastPresent = t4
        timing = (((t1 - t0) + (t4 - t2)).milliseconds, (t2 - t1).milliseconds, (t4 - t3).milliseconds)
    }

    /// The hit reaction (HitReaction): the last presented picture again, each
    /// channel through `curve`, in every window whose swap does not wait for
    /// vsync; the panels are drawn over it again where GL drew them. Skipped
    /// where the panels were blended into the picture (they would flash too)
    /// and for a GPU picture. The curve goes through a table on the CPU, both
    /// cores (the engine's workers wait meanwhile), then the usual upload and
    /// draw: a software GL took twice as long for a shader of the same formula.
    /// True when something was presented.
    func presentReaction(curve: ReactionCurve) -> Bool {
        guard lastUpload.cpu, let picture = lastPicture else { return false }
        let clean = !(lastUpload.panelsInImage && gui.vertexCount > 0)
        let inEditor = clean && window.vsync == .timer
        let inProjector = clean && projector?.window.vsync == .timer
        guard inEditor || inProjector else { return false }
        let t0 = clock.now
        let image = picture.image
        self.curve(image, through: curve)
        func present(_ w: SDLWindow, _ p: GLPresenter, panels: Bool) {
            let size = w.drawableSize
            reactionPixels.withUnsafeBytes { p.upload(pixels: $0.baseAddress!, width: image.width, height: image.height) }
            p.draw(viewport: (0, 0, size.width, size.height), drawable: size)
            if panels { gui.drawOverPicture() }
            w.swap()
        }
        let t1 = clock.now
        if inEditor { present(window, presenter, panels: gui.vertexCount > 0) }
        if inProjector, let p = projector {
            p.window.makeCurrent()
            present(p.window, p.presenter, panels: false)
            window.makeCurrent()
        }
        reactions += 1
        let t2 = clock.now, a = 1 / Double(min(reactions, 30))
        reactionMs.curve += a * ((t1 - t0).milliseconds - reactionMs.curve)
        reactionMs.present += a * ((t2 - t1).milliseconds - reactionMs.present)
        return true
    }

    /// `image` through `curve` into `reactionPixels`, on all cores.
    private func curve(_ image: RGBAImage, through curve: ReactionCurve) {
        let count = image.width * image.height
        if reactionPixels.count != count * 4 { reactionPixels = [UInt8](repeating: 0, count: count * 4) }
        let table = curve.table
        table.withUnsafeBufferPointer { t in
            image.pixels.withUnsafeBufferPointer { src in
                reactionPixels.withUnsafeMutableBufferPointer { dst in
                    let span = PixelSpan(table: t.baseAddress!, source: src.baseAddress!, target: dst.baseAddress!)
                    DispatchQueue.concurrentPerform(iterations: 4) { k in
                        ReactionCurve.apply(table: span.table, source: span.source, target: span.target,
                                            pixels: count * k / 4..<count * (k + 1) / 4)
                    }
                }
            }
        }
    }

    /// The panels' actions of the last frame, once.
    func takePanelActions() -> [AppAction] {
        defer { panelActions.removeAll() }
        return panelActions
    }

    /// Opens the projector window on `display` (0-based), or closes it (nil).
    /// Returns a notice for the user when something did not go as asked.
    func setProjector(display: Int?) -> (text: String, level: NoticeLevel)? {
        projector = nil
        window.makeCurrent()
        guard let d = display else {
            window.setSwapInterval(window.vsync == .timer ? 0 : (window.vsync == .adaptive ? -1 : 1))
            return nil
        }
        var notice: (String, NoticeLevel)?
        let count = SDLWindow.displayCount
        if d >= count {
            notice = ("Display \(d + 1) is not connected; the projector window opens on display 1", .warning)
        }
        let target = min(d, count - 1)
        // Fullscreen on the editor's own display would cover the editor: a
        // window in the bottom-right quarter instead, and the user is told.
        let place = Self.projectorPlacement(target: target, editorDisplay: window.displayIndex, bounds: SDLWindow.displayBounds(target))
        if place.fullscreen == false {
            notice = ("Display \(target + 1) also shows the editor (\(count == 1 ? "there is only one display" : "pick another display")): the projector opens as a window in its bottom-right corner instead of covering the editor", .warning)
        }
        do {
            let w = try SDLWindow(title: "Physarum Live — output", width: place.size.width, height: place.size.height,
                                  display: target, fullscreen: place.fullscreen, position: place.position)
            let p = try GLPresenter()
            projector = (w, p)
            // Only the projector waits for vsync; the editor must not halve the rate.
            window.setSwapInterval(0)
            window.makeCurrent()
        } catch {
            window.makeCurrent()
            notice = ("The projector window could not open: \(error)", .error)
        }
        return notice
    }
}

extension EditorWindow {
    /// Where the projector window goes: fullscreen on another display; on
    /// the editor's display, a window of a quarter of it in the bottom-right corner.
    static func projectorPlacement(target: Int, editorDisplay: Int, bounds: (x: Int, y: Int, width: Int, height: Int)?)
        -> (fullscreen: Bool, size: (width: Int, height: Int), position: (x: Int, y: Int)?) {
        guard target == editorDisplay else { return (true, (1280, 720), nil) }
        guard let b = bounds else { return (false, (640, 360), nil) }
        let w = max(160, b.width / 2), h = max(90, b.height / 2)
        return (false, (w, h), (b.x + b.width - w, b.y + b.height - h))
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) * 1e-15
    }
}

/// The hit reaction's buffers, for the worker threads that apply its table.
private struct PixelSpan: @unchecked Sendable {
    let table: UnsafePointer<UInt8>
    let source: UnsafePointer<UInt8>
    let target: UnsafeMutablePointer<UInt8>
}
