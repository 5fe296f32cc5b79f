import ImGuiShim

/// What the panels occupied in the last frame, read from the shim's layout
/// probe (`ImGuiLayer.reportLayout`): the windows on screen and every item
/// drawn through the shim, with the rectangle its text takes and the box
/// that text must stay in. `--state-file` writes it; layout tests check
/// that no two windows overlap, no item leaves its window and no text leaves
/// its box. Main thread only, after the frame.
enum LayoutReport {
    struct Item {
        var window: String
        var kind: String
        var text: String
        var rect: UI.Rect
        var textRect: UI.Rect
        var box: UI.Rect
        /// What of its window shows (its content area, or the menu bar).
        var clip: UI.Rect
        var visible: Bool
    }

    static let kinds = ["text", "button", "check", "slider", "row", "combo", "header", "menu", "input", "title", "drawnText", "tab", "other"]

    /// The root windows on screen (not popups, menus or tooltips), by name.
    static func windows() -> [(name: String, rect: UI.Rect)] {
        let n = Int(ig_probe_windows())
        return (0..<n).map { i in
            var r = [Float](repeating: 0, count: 4)
            let name = String(cString: ig_probe_window(Int32(i), &r))
            return (name, UI.Rect(x0: r[0], y0: r[1], x1: r[2], y1: r[3]))
        }
    }

    /// Every item recorded in the last frame.
    static func items() -> [Item] {
        (0..<Int(ig_probe_count())).compactMap { i in
            var p = IgProbeItem()
            guard ig_probe_get(Int32(i), &p) else { return nil }
            func rect(_ t: (Float, Float, Float, Float)) -> UI.Rect { UI.Rect(x0: t.0, y0: t.1, x1: t.2, y1: t.3) }
            let kind = Int(p.kind)
            return Item(window: String(cString: p.window), kind: kinds.indices.contains(kind) ? kinds[kind] : "other",
                        text: String(cString: p.text), rect: rect(p.item), textRect: rect(p.text_rect), box: rect(p.box), clip: rect(p.clip),
                        visible: p.visible)
        }
    }
}
