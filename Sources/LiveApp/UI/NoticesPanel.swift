import ImGuiShim
import LiveCore

/// The notices as the user sees them: a band across the window under the
/// menu bar (the notices on the board, each on one line, fading as their
/// time runs out; "+N more", "All notices", "Dismiss all"), which pushes the
/// panels down instead of covering them; and the notices window with the
/// session's whole history, one focusable row per notice (so the keys and
/// speech walk through them). The board decides what shows and for how
/// long; this only draws it. Main thread only (ImGui).
struct NoticesPanel {
    /// Screen rectangles of the last frame: "strip", "notice:<id>",
    /// "dismiss:<id>", "more", "all", "dismissAll", "window", "row:<id>", "clear".
    private(set) var rects: [String: UI.Rect] = [:]
    /// Where the notices window goes this frame (the shell's tile); nil: where the user left it.
    var tile: UI.Rect?

    static let stripName = "##notices"
    static let windowName = "Notices"

    /// The band's height for `board` at the current font (0 when it shows nothing):
    /// one line per notice on screen and one for its buttons (small buttons are a text line tall).
    static func bandHeight(_ board: NoticeBoard) -> Float {
        let lines = board.visible.count + 1
        guard lines > 1 else { return 0 }
        return Float(lines) * ig_get_text_line_height() + Float(lines - 1) * lineGap + 2 * ig_style_window_padding_x()
    }

    /// The space between the band's lines.
    static var lineGap: Float { 4 * UI.unit }

    /// Draws the band in `band` (if anything is on the board) and the window (if open).
    mutating func draw(_ board: NoticeBoard, now: Double, band: UI.Rect?, dispatch: (AppAction) -> Void) {
        rects.removeAll(keepingCapacity: true)
        if let band { strip(board, now: now, band: band, dispatch) }
        if board.windowOpen { window(board, dispatch) }
    }

    /// The band's rectangle for a window `width` wide whose menu bar ends at `top`.
    static func band(_ board: NoticeBoard, top: Float, width: Float) -> UI.Rect? {
        let h = bandHeight(board)
        return h > 0 ? UI.Rect(x0: 0, y0: top, x1: width, y1: top + h) : nil
    }

    private mutating func strip(_ board: NoticeBoard, now: Double, band: UI.Rect, _ dispatch: (AppAction) -> Void) {
        let shown = board.visible
        guard !shown.isEmpty else { return }
        ig_set_next_window_pos(band.x0, band.y0, UI.Cond.always, 0, 0)
        ig_set_next_window_size(band.x1 - band.x0, band.y1 - band.y0, UI.Cond.always)
        let flags = UI.WindowFlags.noDecoration | UI.WindowFlags.noSavedSettings | UI.WindowFlags.noFocusOnAppearing | UI.WindowFlags.noMove
        ig_push_style_var_vec2(UI.StyleVar.itemSpacing, ig_style_item_spacing_x(), Self.lineGap)
        defer {
            ig_end()
            ig_pop_style_var(1)
        }
        guard Self.stripName.withCString({ ig_begin($0, nil, flags) }) else { return }
        rects["strip"] = UI.currentWindowRect
        let dismissWidth = UI.buttonWidth("×")
        for n in shown {
            UI.pushID("n\(n.id)")
            let alpha = Float(board.opacity(n, now: now))
            ig_push_style_var_float(UI.StyleVar.alpha, max(alpha, 0.05))
            let room = UI.lineRoom - dismissWidth - ig_style_item_spacing_x()
            let text = n.text + (n.repeats > 0 ? " (×\(n.repeats + 1))" : "")
            let (line, cut) = UI.fit(text, room)
            UIStyle.text(line, Self.color(n.level))
            rects["notice:\(n.id)"] = UI.lastItemRect
            if cut, ig_is_item_hovered(0) { UI.tooltip(UI.wrap(text, pixels: UI.readableWidth)) }
            UI.sameLine(band.x1 - band.x0 - ig_style_window_padding_x() - dismissWidth)
            if UI.smallButton("×") { dispatch(.dismissNotice(n.id)) }
            rects["dismiss:\(n.id)"] = UI.lastItemRect
            if ig_is_item_hovered(0) { UI.tooltip(n.level == .error ? "Dismiss (errors stay until dismissed)" : "Dismiss") }
            ig_pop_style_var(1)
            UI.popID()
        }
        // The buttons share the last line.
        let buttons = board.hiddenCount > 0 ? 3 : 2
        let room = (UI.lineRoom - Float(buttons - 1) * ig_style_item_spacing_x()) / Float(buttons)
        if board.hiddenCount > 0 {
            if UI.fittedButton("+\(board.hiddenCount) more##more", room: room, small: true) { dispatch(.toggleNoticesWindow) }
            rects["more"] = UI.lastItemRect
            UI.sameLine()
        }
        if UI.fittedButton("All notices (\(board.history.count))##all", room: room, small: true) { dispatch(.toggleNoticesWindow) }
        rects["all"] = UI.lastItemRect
        UI.sameLine()
        if UI.fittedButton("Dismiss all##dismissAll", room: room, small: true) { dispatch(.dismissAllNotices) }
        rects["dismissAll"] = UI.lastItemRect
    }

    private mutating func window(_ board: NoticeBoard, _ dispatch: (AppAction) -> Void) {
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        if tile == nil {
            ig_set_next_window_pos(dw / 2, dh / 2, UI.Cond.firstUseEver, 0.5, 0.5)
            ig_set_next_window_size(min(dw - 40, 760 * UI.unit), min(dh - 80, 420 * UI.unit), UI.Cond.firstUseEver)
            ig_set_next_window_size_constraints(0, 0, dw - 16, dh - ig_get_frame_height() - 16)
        }
        var open = true
        var noFocus = false
        defer { ig_end() }
        guard UI.beginTiled("Notices", id: Self.windowName, tile: tile, open: &open, focus: &noFocus) else {
            if !open { dispatch(.toggleNoticesWindow) }
            return
        }
        rects["window"] = UI.currentWindowRect
        let c = board.counts
        UI.wrappedText("This session: \(c.errors) errors, \(c.warnings) warnings, \(c.infos) infos")
        if board.droppedFromHistory > 0 {
            UI.wrappedText("(\(board.droppedFromHistory) older notices are no longer kept)", UIStyle.theme.text.dim)
        }
        if UI.fittedButton("Dismiss all on screen", small: true) { dispatch(.dismissAllNotices) }
        rects["clear"] = UI.lastItemRect
        UI.separator()
        _ = "##history".withCString { ig_begin_child($0, 0, 0, false, UI.WindowFlags.navFlattened) }
        for n in board.history.reversed() {
            // A row the arrows reach (and speech reads), wrapped to the list's width.
            let text = UI.wrap(n.text + (n.repeats > 0 ? " (×\(n.repeats + 1))" : ""), pixels: max(1, UI.lineRoom))
            let c = Self.color(n.level)
            ig_push_style_color(0, Float(c.r), Float(c.g), Float(c.b), 1)  // ImGuiCol_Text
            _ = "\(text)###row\(n.id)".withCString { ig_selectable($0, false, 0, 0, 0) }
            ig_pop_style_color(1)
            rects["row:\(n.id)"] = UI.lastItemRect
        }
        ig_end_child()
        if !open { dispatch(.toggleNoticesWindow) }
    }

    /// A notice level's text colour in the theme.
    static func color(_ level: NoticeLevel) -> ThemeColor {
        switch level {
        case .info: UIStyle.theme.text.info
        case .warning: UIStyle.theme.text.warning
        case .error: UIStyle.theme.text.error
        }
    }
}
