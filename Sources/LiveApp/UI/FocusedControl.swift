import ImGuiShim

/// Which control holds Dear ImGui's keyboard focus (moved by the arrows, or
/// set by a click), named by the panels' rectangle keys: the smallest
/// control rectangle holding the focus rectangle's centre. Main thread
/// only, after the panels were drawn.
enum FocusedControl {
    /// The focus rectangle (nil when no control has the focus; `shownOnly`:
    /// also nil while ImGui hides the highlight, e.g. after a mouse move).
    static func rect(shownOnly: Bool) -> UI.Rect? {
        var r = UI.Rect(x0: 0, y0: 0, x1: 0, y1: 0)
        if shownOnly && !ig_nav_visible() { return nil }
        guard ig_nav_rect(&r.x0, &r.y0, &r.x1, &r.y1) else { return nil }
        return r
    }

    /// The id of the panel (ImGui window) holding the keyboard focus: its
    /// name, or the part after "###" of a name whose title may change ("" when none).
    static var windowName: String {
        let name = String(cString: ig_nav_window_name())
        return name.range(of: "###").map { String(name[$0.upperBound...]) } ?? name
    }

    /// Whether ImGui shows the focus highlight.
    static var highlighted: Bool { ig_nav_visible() }

    /// Whether a text field is taking typing (a control was activated for text entry).
    static var typing: Bool { ig_io_want_text_input() }

    /// The key of the control with the focus among `rects` (window and label rectangles left out).
    static func key(in rects: [String: UI.Rect], shownOnly: Bool = true) -> String? {
        guard let r = rect(shownOnly: shownOnly) else { return nil }
        let c = r.center
        func area(_ b: UI.Rect) -> Float { (b.x1 - b.x0) * (b.y1 - b.y0) }
        return rects.filter { $0.key != "window" && !$0.key.hasPrefix("label:") && $0.value.contains(c.x, c.y) }
            .min { area($0.value) < area($1.value) || (area($0.value) == area($1.value) && $0.key < $1.key) }?.key
    }
}
