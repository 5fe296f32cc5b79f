import ImGuiShim

/// The remote editor's connection line, bottom right (clear of the editor
/// panel and the notices): green while connected to the host, amber
/// otherwise. Main thread only.
/// A host's window uses the same place for its address, token and
/// connected remote (`HostStatus.lines`). Main thread only.
enum RemoteStatusLabel {
    /// Draws the lines; returns the label's rectangle.
    @discardableResult
    static func draw(_ lines: [String], connected: Bool, displayWidth: Float, displayHeight: Float) -> UI.Rect {
        ig_set_next_window_pos(displayWidth - 12, displayHeight - 12, UI.Cond.always, 1, 1)
        ig_set_next_window_bg_alpha(0.9)
        var rect = UI.Rect(x0: 0, y0: 0, x1: 0, y1: 0)
        if "##remote".withCString({ ig_begin($0, nil, UI.WindowFlags.overlay | UI.WindowFlags.noInputs) }) {
            for text in lines {
                UIStyle.text(text, connected ? UIStyle.theme.text.good : UIStyle.theme.text.warning)
            }
            rect = UI.currentWindowRect
        }
        ig_end()
        return rect
    }
}
