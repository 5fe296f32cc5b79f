import ImGuiShim
import LiveCore

/// The notices as the user sees them: a strip at the top centre drawn above
/// every panel (`visible` of the board, fading as their time runs out, a
/// "+N more" line when the board holds more), and the notices window with
/// the session's whole history. The board decides what shows and for how
/// long; this only draws it. Main thread only (ImGui).
struct NoticesPanel {
    /// Screen rectangles of the last frame: "strip", "notice:<id>",
    /// "dismiss:<id>", "more", "all", "window", "row:<id>", "clear".
    private(set) var rects: [String: UI.Rect] = [:]

    static let stripName = "##notices"
    static let windowName = "Notices"

    /// Draws the strip (if anything is on the board) and the window (if open).
    mutating func draw(_ board: NoticeBoard, now: Double, displayWidth: Float, dispatch: (AppAction) -> Void) {
        rects.removeAll(keepingCapacity: true)
        strip(board, now: now, displayWidth: displayWidth, dispatch)
        if board.windowOpen { window(board, dispatch) }
    }

    private mutating func strip(_ board: NoticeBoard, now: Double, displayWidth: Float, _ dispatch: (AppAction) -> Void) {
        let shown = board.visible
        guard !shown.isEmpty else { return }
        // Under the menu bar and the DEMO label, whatever the UI scale.
        ig_set_next_window_pos(displayWidth / 2, ig_get_frame_height() * 2 + 6, UI.Cond.always, 0.5, 0)
        ig_set_next_window_bg_alpha(0.9)
        let flags = UI.WindowFlags.noDecoration | UI.WindowFlags.alwaysAutoResize | UI.WindowFlags.noSavedSettings
            | UI.WindowFlags.noFocusOnAppearing | UI.WindowFlags.noMove
        if Self.stripName.withCString({ ig_begin($0, nil, flags) }) {
            ig_bring_current_window_to_front()  // above the panel that was just clicked
            rects["strip"] = UI.currentWindowRect
            for n in shown {
                UI.pushID("n\(n.id)")
                let alpha = Float(board.opacity(n, now: now))
                ig_push_style_var_float(UI.StyleVar.alpha, max(alpha, 0.05))
                Self.line(n, width: 70)
                rects["notice:\(n.id)"] = UI.lastItemRect
                UI.sameLine()
                if UI.smallButton("×") { dispatch(.dismissNotice(n.id)) }
                rects["dismiss:\(n.id)"] = UI.lastItemRect
                if ig_is_item_hovered(0) { UI.tooltip(n.level == .error ? "Dismiss (errors stay until dismissed)" : "Dismiss") }
                ig_pop_style_var(1)
                UI.popID()
            }
            if board.hiddenCount > 0 {
                if UI.smallButton("+\(board.hiddenCount) more") { dispatch(.toggleNoticesWindow) }
                rects["more"] = UI.lastItemRect
                UI.sameLine()
            }
            if UI.smallButton("All notices (\(board.history.count))") { dispatch(.toggleNoticesWindow) }
            rects["all"] = UI.lastItemRect
            UI.sameLine()
            if UI.smallButton("Dismiss all") { dispatch(.dismissAllNotices) }
        }
        ig_end()
    }

    private mutating func window(_ board: NoticeBoard, _ dispatch: (AppAction) -> Void) {
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        ig_set_next_window_pos(dw / 2, dh / 2, UI.Cond.firstUseEver, 0.5, 0.5)
        ig_set_next_window_size(min(dw - 40, 760 * UI.unit), min(dh - 80, 420 * UI.unit), UI.Cond.firstUseEver)
        ig_set_next_window_size_constraints(0, 0, dw - 16, dh - ig_get_frame_height() - 16)
        var open = true
        defer { ig_end() }
        guard Self.windowName.withCString({ ig_begin($0, &open, 0) }) else {
            if !open { dispatch(.toggleNoticesWindow) }
            return
        }
        rects["window"] = UI.currentWindowRect
        let c = board.counts
        UI.text("This session: \(c.errors) errors, \(c.warnings) warnings, \(c.infos) infos")
        if board.droppedFromHistory > 0 { UI.textDisabled("(\(board.droppedFromHistory) older notices are no longer kept)") }
        UI.sameLine()
        if UI.smallButton("Dismiss all on screen") { dispatch(.dismissAllNotices) }
        rects["clear"] = UI.lastItemRect
        UI.separator()
        _ = "##history".withCString { ig_begin_child($0, 0, 0, false, UI.WindowFlags.navFlattened) }
        for n in board.history.reversed() {
            Self.line(n, width: 90)
            rects["row:\(n.id)"] = UI.lastItemRect
        }
        ig_end_child()
        if !open { dispatch(.toggleNoticesWindow) }
    }

    /// One notice in its level's colour, with its repeat count.
    static func line(_ n: Notice, width: Int) {
        let text = UI.wrap(n.text + (n.repeats > 0 ? " (×\(n.repeats + 1))" : ""), width: width)
        switch n.level {
        case .info: UI.textColored(text, 0.8, 0.9, 1)
        case .warning: UI.textColored(text, 1, 0.8, 0.3)
        case .error: UI.textColored(text, 1, 0.45, 0.4)
        }
    }
}
