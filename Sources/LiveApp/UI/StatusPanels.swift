import ImGuiShim
import LiveCore

/// Small always-available panels: the stats overlay, the DEMO label (over
/// the picture while the panels are hidden; in the menu bar otherwise).
/// Main thread only.
enum StatusPanels {
    /// The height of the band at the bottom that the stats overlay (`overlay`
    /// lines, bottom left) and the remote label (`remote` lines, bottom right)
    /// take while shown: the panels end above it. 0 when neither shows.
    static func bandHeight(overlay: Int, remote: Int) -> Float {
        let lines = max(overlay, remote)
        guard lines > 0 else { return 0 }
        let line = ig_get_text_line_height() + 4 * UI.unit  // ImGui's item spacing at this scale
        return Float(lines) * line + 2 * ig_style_window_padding_x() + 16
    }

    /// Frame rate, frame-time percentiles and the split, bottom left.
    static func overlay(stats: FrameStats, lines extra: [String], displayHeight: Float) {
        ig_set_next_window_pos(12, displayHeight - 12, UI.Cond.always, 0, 1)
        ig_set_next_window_bg_alpha(0.9)
        if "##overlay".withCString({ ig_begin($0, nil, UI.WindowFlags.overlay | UI.WindowFlags.noInputs) }) {
            let m = stats.meanSplit
            UI.text(String(format: "%.1f fps shown   work p50 %.2f ms  p99 %.2f ms", stats.fps, stats.percentile(50), stats.percentile(99)))
            UI.text(String(format: "sim %.2f  render %.2f  present %.2f  ui %.2f ms", m.sim, m.render, m.present, m.ui))
            for l in extra { UI.text(l) }
        }
        ig_end()
    }

    /// The DEMO label (the demo groove is playing, not real audio), top centre.
    static func demoLabel(displayWidth: Float) {
        ig_set_next_window_pos(displayWidth / 2, 4, UI.Cond.always, 0.5, 0)
        ig_set_next_window_bg_alpha(0.6)
        if "##demo".withCString({ ig_begin($0, nil, UI.WindowFlags.overlay | UI.WindowFlags.noInputs) }) {
            UIStyle.text("DEMO", UIStyle.theme.text.accent)
        }
        ig_end()
    }
}
