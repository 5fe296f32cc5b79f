import Foundation
import ImGuiShim

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
        ig_style_dark(Float(scale), 0.88)
        guard ig_init_sdl_gl(window.rawWindow, UnsafeMutableRawPointer(window.glContext), "#version 330 core") else {
            ig_destroy_context()
            throw SDLError(function: "ImGui_ImplOpenGL3_Init", message: "the OpenGL backend of Dear ImGui did not start")
        }
    }

    private(set) var fontNotice: String?

    deinit {
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
        ig_style_dark(Float(s), 0.88)
    }

    func beginFrame() { ig_new_frame_sdl_gl() }

    func endFrame() {
        ig_render()
        ig_render_gl()
    }
}
