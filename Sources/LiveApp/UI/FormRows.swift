import ImGuiShim
import Storage

/// Items the panels share, each recording its rectangle under a key (the tests click by key).
enum FormRows {
    /// A button that looks dimmed and does nothing when disabled.
    static func button(_ label: String, _ key: String, enabled: Bool, rects: inout [String: UI.Rect]) -> Bool {
        if !enabled { ig_push_style_var_float(UI.StyleVar.alpha, 0.4) }
        let pressed = UI.fittedButton(label)
        if !enabled { ig_pop_style_var(1) }
        rects[key] = UI.lastItemRect
        return pressed && enabled
    }

    /// A path field with its button ("<key>Path" and "<key>"): returns the trimmed path when the
    /// button is pressed while the field holds one (and `enabled`).
    static func path(_ key: String, button label: String, _ path: inout String, hint: String,
                     enabled: Bool = true, rects: inout [String: UI.Rect]) -> String? {
        ig_set_next_item_width(max(ig_get_frame_height(), UI.lineRoom - UI.buttonWidth(label) - ig_style_item_spacing_x()))
        _ = UI.inputText("##\(key)Path", &path, capacity: 1024, hint: hint)
        rects[key + "Path"] = UI.lastItemRect
        UI.sameLine()
        let trimmed = String(path.trimmingSpaces)
        return button(label, key, enabled: enabled && !trimmed.isEmpty, rects: &rects) ? trimmed : nil
    }
}
