import Foundation
import ImGuiShim
import Synchronization

/// Real Dear ImGui frames without a window or GL: display size, font atlas,
/// NewFrame/Render, with input injected through ImGui's IO. ImGui has one
/// global context, so every use goes through `HeadlessImGui.run`, which holds
/// a process-wide lock.
public final class HeadlessImGui {
    /// The app's UI font (LiveApp's `UIFonts.defaultPath`; ParamEditorTests checks they agree).
    public static let fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    private static let lock = Mutex(())

    /// Runs `body` with a fresh ImGui context (serialised across tests).
    public static func run<R>(width: Float = 1280, height: Float = 900, navigation: Bool = false,
                       _ body: (HeadlessImGui) throws -> R) rethrows -> R {
        try lock.withLock { _ in
            let ui = HeadlessImGui(width: width, height: height)
            ig_enable_keyboard_nav(navigation)
            defer { ig_destroy_context() }
            return try body(ui)
        }
    }

    private init(width: Float, height: Float) {
        ig_create_context()
        ig_setup_headless(width, height)
        _ = ig_add_font_ttf(Self.fontPath, 16)
        ig_build_font_atlas()
        ig_io_set_mouse_pos(-1, -1)
    }

    /// One frame: NewFrame, `draw`, Render. Input set before the call applies to it.
    public func frame(_ draw: () -> Void) {
        ig_new_frame_headless(1.0 / 60)
        draw()
        ig_render()
        ig_io_add_mouse_wheel(-ig_io_mouse_wheel())  // the wheel is per frame
    }

    /// Several identical frames (lets hover and popups settle).
    public func frames(_ n: Int, _ draw: () -> Void) { for _ in 0..<n { frame(draw) } }

    public func moveMouse(to p: (x: Float, y: Float)) { ig_io_set_mouse_pos(p.x, p.y) }
    public func mouseButton(_ down: Bool) { ig_io_set_mouse_button(0, down) }
    public func mods(ctrl: Bool = false, shift: Bool = false, alt: Bool = false) { ig_io_set_mods(ctrl, shift, alt) }
    public func wheel(_ v: Float) { ig_io_add_mouse_wheel(v) }
    public func key(_ scancode: Int32, _ down: Bool) { ig_io_set_key(scancode, down) }
    public func type(_ text: String) { text.withCString { ig_io_add_input_utf8($0) } }

    /// Presses and releases a key over two frames.
    public func tap(_ scancode: Int32, _ draw: () -> Void) {
        key(scancode, true)
        frame(draw)
        key(scancode, false)
        frame(draw)
    }

    /// Clicks (press in one frame, release in the next).
    public func click(_ draw: () -> Void) {
        mouseButton(true)
        frame(draw)
        mouseButton(false)
        frame(draw)
    }
}
