import ImGuiShim
import LiveCore

/// Turns the frame's key presses into actions, asking ImGui whether a text
/// field has keyboard focus (then single-key shortcuts are ignored), and
/// holding back letters typed right after a text field lost focus
/// (`TypingGuard`).
struct ShortcutRouter {
    var typing = TypingGuard()

    /// The actions of this frame's keys at `now` (seconds).
    mutating func actions(for keys: [KeyPress], now: Double) -> [AppAction] {
        let textFocused = Self.textFocused
        var passed = typing.filter(keys, textFocused: textFocused, now: now)
        // With the keyboard focus shown, Space, arrows, Esc and paging move
        // and press the focused control instead of acting as shortcuts.
        if ig_has_context() && ig_nav_visible() { passed.removeAll(where: KeyMap.isNavigationKey) }
        return passed.compactMap { KeyMap.action(for: $0, textFocused: textFocused) }
    }

    /// The actions of `keys` with no memory of earlier frames.
    static func actions(for keys: [KeyPress]) -> [AppAction] {
        let textFocused = Self.textFocused
        return keys.compactMap { KeyMap.action(for: $0, textFocused: textFocused) }
    }

    private static var textFocused: Bool { ig_has_context() && ig_io_want_text_input() }
}
