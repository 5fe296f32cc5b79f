import ImGuiShim
import LiveCore

/// Turns the frame's key presses into actions, asking ImGui whether a text
/// field has keyboard focus (then single-key shortcuts are ignored).
enum ShortcutRouter {
    static func actions(for keys: [KeyPress]) -> [AppAction] {
        let textFocused = ig_has_context() && ig_io_want_text_input()
        return keys.compactMap { KeyMap.action(for: $0, textFocused: textFocused) }
    }
}
