import Foundation
import Engine
import ImGuiShim
import LiveCore

/// The ImGui context bound to an SDL window's GL context. Main thread only.
final class ImGuiLayer {
    private(set) var scale: Double

    /// Creates the context, loads the UI font at `scale`, initialises the
    /// SDL2 and OpenGL3 backends. Returns a notice text in `fontNotice` when
    /// the TTF font is missing.
    init(window: SDLWindow, scale: Double) throws {
        self.scale = scale
        ig_create_context()
        fontNotice = UIFonts.load(scale: scale)
        UIStyle.apply(theme, opacity: opacity, scale: scale)
        ig_enable_keyboard_nav(true)  // arrows move between controls, Space presses, Esc closes (docs/keyboard.md)
        guard ig_init_sdl_gl(window.rawWindow, UnsafeMutableRawPointer(window.glContext), "#version 330 core") else {
            ig_destroy_context()
            throw SDLError(function: "ImGui_ImplOpenGL3_Init", message: "the OpenGL backend of Dear ImGui did not start")
        }
        setComposite(Self.composite(softwareGL: ig_gl_is_software()))
    }

    private(set) var fontNotice: String?
    /// The theme and panel background opacity in use.
    private(set) var theme = UITheme.standard
    private(set) var opacity = UITheme.defaultOpacity

    /// Records every widget's rectangles and text extents each frame (`layoutReport`), for `--state-file`.
    func reportLayout(_ on: Bool) { ig_probe_enable(on) }

    /// Restyles the panels (the next frame redraws the layer).
    func setTheme(_ t: UITheme, opacity o: Double) {
        theme = t
        opacity = o
        UIStyle.apply(t, opacity: o, scale: scale)
        ig_ui_cache_invalidate()
    }

    deinit {
        ig_ui_cache_release()
        ig_shutdown_sdl_gl()
        ig_destroy_context()
    }

    /// Rebuilds the font atlas and style for a new UI scale.
    func setScale(_ s: Double) {
        guard s != scale else { return }
        scale = s
        ig_clear_fonts()
        _ = UIFonts.load(scale: s)
        ig_rebuild_fonts_gl()
        ig_ui_cache_invalidate()  // the new atlas may reuse the old texture name
        UIStyle.apply(theme, opacity: opacity, scale: s)
    }

    func beginFrame() { ig_new_frame_sdl_gl() }

    /// Hands one SDL event (a pointer to an `SDL_Event`) to ImGui's input.
    static func process(sdlEvent: UnsafeRawPointer) { _ = ig_process_sdl_event(sdlEvent) }

    /// The retained layer's content boxes of the last frame (x, y, w, h each), at most `max`.
    func layerBoxes(max: Int) -> [(x: Int, y: Int, width: Int, height: Int)] {
        var raw = [Int32](repeating: 0, count: 4 * max)
        let n = min(Int(ig_ui_layer_boxes(&raw, Int32(max))), max)
        return (0..<n).map { (Int(raw[4 * $0]), Int(raw[4 * $0 + 1]), Int(raw[4 * $0 + 2]), Int(raw[4 * $0 + 3])) }
    }

    /// Last frame: pixels the retained layer rasterised again, and blended over the picture.
    var layerPixels: (redrawn: Int, composited: Int) { (ig_ui_cache_dirty_pixels(), ig_ui_cache_composite_pixels()) }

    /// Vertices ImGui drew in the last frame.
    var vertexCount: Int { Int(ig_draw_vertex_count()) }

    /// How the panels reach the screen.
    enum Composite: String {
        /// ImGui's OpenGL backend rasterises every panel every frame.
        case direct
        /// A retained layer (UILayerCache.cpp) rasterises only the rectangles
        /// that changed since the last frame; GL blends it over the picture.
        case gl
        /// The retained layer, blended into the frame on the CPU before the
        /// upload: with a software GL (llvmpipe under Xvfb) GL's blend costs
        /// ~5 ns per pixel on the cores the simulation needs, a CPU blend of
        /// the panel area a fraction of that.
        case cpu
    }

    /// `PHYSARUM_UI_CACHE=0` draws directly; `PHYSARUM_UI_COMPOSITE=gl|cpu`
    /// forces a composite; by default the CPU blends when GL is software.
    static func composite(environment: [String: String] = ProcessInfo.processInfo.environment, softwareGL: Bool) -> Composite {
        if environment["PHYSARUM_UI_CACHE"] == "0" { return .direct }
        if let forced = environment["PHYSARUM_UI_COMPOSITE"].flatMap(Composite.init(rawValue:)) { return forced }
        return softwareGL ? .cpu : .gl
    }

    private(set) var composite: Composite = .gl

    /// Switches how panels are composited (the next frame redraws the layer).
    func setComposite(_ c: Composite) {
        composite = c
        ig_ui_cache_set_enabled(c != .direct)
        ig_ui_cache_invalidate()
    }
    private var layerReady = false

    /// Ends the ImGui frame. When the panels can be blended into `image` (the
    /// CPU composite, `image` at the drawable's size) they are, and it returns
    /// true; otherwise `drawOverPicture()` must follow the picture's draw.
    func endFrame(blendingInto image: inout RGBAImage) -> Bool {
        ig_render()
        switch composite {
        case .direct:
            layerReady = false
            return false
        case .gl:
            layerReady = ig_ui_layer_update(false)
            return false
        case .cpu:
            layerReady = ig_ui_layer_update(true)
            guard layerReady else { return false }
            let (w, h) = (Int32(image.width), Int32(image.height))
            return image.pixels.withUnsafeMutableBytes { ig_ui_layer_composite_cpu($0.baseAddress!.assumingMemoryBound(to: UInt8.self), w, h) }
        }
    }

    /// `endFrame` for a picture that GL draws from a texture: the panels'
    /// layer is prepared on the GPU; `drawOverPicture` draws it afterwards.
    func endFrameDeferred() {
        ig_render()
        layerReady = composite != .direct && ig_ui_layer_update(false)
    }

    /// Draws the panels over the picture already in the framebuffer.
    func drawOverPicture() {
        if layerReady { ig_ui_layer_composite_gl() } else { ig_render_gl() }
    }

    /// `endFrame` for callers that drew the picture first: the panels go over
    /// the framebuffer (through the retained layer unless `.direct`).
    func endFrame() {
        ig_render()
        layerReady = composite != .direct && ig_ui_layer_update(false)
        drawOverPicture()
    }
}
