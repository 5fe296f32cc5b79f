import ImGuiShim
import LiveCore

/// The theme (LiveCore's `UITheme`) as Dear ImGui's style, and the colours
/// the panels draw their own text and meters with. Main thread only.
enum UIStyle {
    /// The theme in use (panels read their text colours here).
    nonisolated(unsafe) static var theme = UITheme.standard

    /// Applies `theme` at `scale` with the panels' background at `opacity`
    /// (text, frames and buttons stay opaque).
    static func apply(_ theme: UITheme, opacity: Double, scale: Double) {
        Self.theme = theme
        var rgba = [Float](repeating: 0, count: Int(ig_style_color_count()) * 4)
        for (slot, c) in colors(theme, opacity: opacity) where Int(slot) * 4 + 3 < rgba.count {
            let i = Int(slot) * 4
            (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) = (Float(c.r), Float(c.g), Float(c.b), Float(c.a))
        }
        let m = theme.metrics
        let metrics: [Float] = [m.framePadding.x, m.framePadding.y, m.itemSpacing.x, m.itemSpacing.y, m.itemInnerSpacing,
                                m.grabMinSize, m.scrollbarSize, m.rounding].map(Float.init)
        ig_style_set(rgba, Int32(rgba.count / 4), metrics, Float(scale))
    }

    /// ImGuiCol slots (imgui.h 1.86) and their colours.
    static func colors(_ t: UITheme, opacity: Double) -> [(Int32, ThemeColor)] {
        let s = t.surface, x = t.text
        return [
            (0, x.normal), (1, x.dim), (2, s.window.alpha(opacity)), (3, ThemeColor(0, 0, 0, 0)), (4, s.popup),
            (5, s.border), (6, ThemeColor(0, 0, 0, 0)), (7, s.frame), (8, s.frameHovered), (9, s.frameActive),
            (10, s.title), (11, s.titleActive), (12, s.title), (13, s.menuBar),
            (14, s.window.alpha(0)), (15, s.border), (16, s.grab), (17, s.grabActive),
            (18, s.checkMark), (19, s.grab), (20, s.grabActive),
            (21, s.button), (22, s.buttonHovered), (23, s.buttonActive),
            (24, s.header), (25, s.headerHovered), (26, s.headerActive),
            (27, s.border), (28, s.grab), (29, s.grabActive),
            (30, s.border), (31, s.grab), (32, s.grabActive),
            (33, s.tab), (34, s.buttonHovered), (35, s.tabActive), (36, s.tab), (37, s.tabActive),
            (38, s.spectrum), (39, x.accent), (40, s.meterFill), (41, x.accent),
            (42, s.header), (43, s.border), (44, s.border), (45, ThemeColor(0, 0, 0, 0)), (46, s.frame.alpha(0.5)),
            (47, s.grab.alpha(0.6)), (48, x.accent), (49, s.navHighlight), (50, s.navHighlight),
            (51, ThemeColor(0, 0, 0, 0.5)), (52, ThemeColor(0, 0, 0, 0.55)),
        ]
    }

    /// A theme colour as a draw-list colour word.
    static func word(_ c: ThemeColor) -> UInt32 { UI.color(Float(c.r), Float(c.g), Float(c.b), Float(c.a)) }

    /// Text in a theme colour.
    static func text(_ s: String, _ c: ThemeColor) { UI.textColored(s, Float(c.r), Float(c.g), Float(c.b), Float(c.a)) }
}
