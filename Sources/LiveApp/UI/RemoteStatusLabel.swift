import ImGuiShim

/// The remote editor's connection line, bottom right (clear of the editor
/// panel and the notices): green while connected to the host, amber
/// otherwise. Main thread only.
enum RemoteStatusLabel {
    static func draw(_ text: String, connected: Bool, displayWidth: Float, displayHeight: Float) {
        ig_set_next_window_pos(displayWidth - 12, displayHeight - 12, UI.Cond.always, 1, 1)
        ig_set_next_window_bg_alpha(0.6)
        if "##remote".withCString({ ig_begin($0, nil, UI.WindowFlags.overlay | UI.WindowFlags.noInputs) }) {
            if connected { UI.textColored(text, 0.5, 1, 0.6) } else { UI.textColored(text, 1, 0.75, 0.3) }
        }
        ig_end()
    }
}
