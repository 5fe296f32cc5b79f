import ImGuiShim

/// The modal yes/no question of a pending destructive action (delete,
/// replace), shared by the panels: open while there is a question, closed
/// when the model no longer has one. Esc answers no. Main thread only,
/// inside an ImGui frame.
enum ConfirmPopup {
    enum Answer { case yes, no }

    /// Shows popup `id` asking `question` (nil closes it); records the
    /// buttons' rectangles as "yes" and "no". Returns the answer clicked this frame.
    static func draw(_ id: String, question: String?, rects: inout [String: UI.Rect]) -> Answer? {
        guard let question else {
            if id.withCString({ ig_is_popup_open($0) }), id.withCString({ ig_begin_popup_modal($0, nil, UI.WindowFlags.alwaysAutoResize) }) {
                ig_close_current_popup()
                ig_end_popup()
            }
            return nil
        }
        if !id.withCString({ ig_is_popup_open($0) }) { UI.openPopup(id) }
        guard id.withCString({ ig_begin_popup_modal($0, nil, UI.WindowFlags.alwaysAutoResize) }) else { return nil }
        defer { ig_end_popup() }
        UI.text(question)
        var answer: Answer?
        if UI.button("Yes", width: 90) { answer = .yes }
        rects["yes"] = UI.lastItemRect
        UI.sameLine()
        if UI.button("No", width: 90) || ig_is_key_pressed(ScanCode.escape, false) { answer = .no }
        rects["no"] = UI.lastItemRect
        return answer
    }
}
