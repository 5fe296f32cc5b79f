import ImGuiShim
import LiveCore

/// Text that fits its box at every UI scale: cut with "…" when it is too
/// wide, the whole text shown in the tooltip (and spoken from the panels'
/// word tables, which never see the cut). Main thread only.
extension UI {
    /// `text` as it fits in `width` pixels at the current font: whole, or cut
    /// at a character with "…" (at least the ellipsis).
    static func fit(_ text: String, _ width: Float) -> (shown: String, cut: Bool) {
        if ig_calc_text_width(text) <= width { return (text, false) }
        let chars = Array(text)
        var lo = 0, hi = chars.count  // the longest prefix whose "prefix…" fits
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if ig_calc_text_width(String(chars[..<mid]).trimmingTrailingSpaces + "…") <= width { lo = mid } else { hi = mid - 1 }
        }
        return (String(chars[..<lo]).trimmingTrailingSpaces + "…", true)
    }

    /// The space left on the current line up to the window's visible right edge.
    static var lineRoom: Float {
        var w: Float = 0, h: Float = 0
        ig_get_content_region_avail(&w, &h)
        return max(0, w)
    }

    /// A line of text cut to the room left on the line, in `color` (the
    /// theme's normal text by default); the whole text as the tooltip when cut.
    static func fittedText(_ s: String, color: ThemeColor? = nil, room: Float? = nil) {
        let (shown, cut) = fit(s, room ?? lineRoom)
        UIStyle.text(shown, color ?? UIStyle.theme.text.normal)
        if cut, ig_is_item_hovered(0) { tooltip(s) }
    }

    /// Text wrapped at the window's visible right edge, in `color` (the theme's normal text by default).
    static func wrappedText(_ s: String, _ color: ThemeColor? = nil) {
        let c = color ?? UIStyle.theme.text.normal
        ig_push_style_color(0, Float(c.r), Float(c.g), Float(c.b), Float(c.a))  // ImGuiCol_Text
        textWrapped(s)
        ig_pop_style_color(1)
    }

    /// A selectable row whose text is cut to the row (the whole text in the
    /// tooltip when cut); `id` keeps its identity whatever is shown.
    static func fittedRow(_ label: String, id: String, selected: Bool, flags: Int32 = 0, height: Float = 0) -> Bool {
        let (shown, cut) = fit(label, lineRoom)
        let pressed = "\(shown)###\(id)".withCString { ig_selectable($0, selected, flags, 0, height) }
        if cut, ig_is_item_hovered(0) { tooltip(label) }
        return pressed
    }

    /// A button whose label fits `room` (by default the room left on the line):
    /// the label is cut with "…" and the whole of it shown as the tooltip. Its
    /// identity is the whole label, so a cut does not lose its focus.
    static func fittedButton(_ label: String, room: Float? = nil, small: Bool = false) -> Bool {
        let visible = String(label[..<(label.range(of: "##")?.lowerBound ?? label.endIndex)])
        let pad = 2 * ig_style_frame_padding_x()
        let (shown, cut) = fit(visible, max(0, (room ?? lineRoom) - pad))
        let id = cut ? "\(shown)###\(label)" : label
        let pressed = small ? smallButton(id) : button(id)
        if cut, ig_is_item_hovered(0) { tooltip(visible) }
        return pressed
    }

    /// Stays on the line when an item `width` wide fits there, and says whether it did.
    @discardableResult
    static func sameLineIfRoom(_ width: Float) -> Bool {
        // The room ends where items must (the scrollbar and padding kept clear).
        guard lastItemRect.x1 + ig_style_item_spacing_x() + width <= ig_work_max_x() else { return false }
        sameLine()
        return true
    }

    /// A panel placed at `tile` (window pixels) this frame. Returns whether it is open; `ig_end()` must follow.
    static func beginTiled(_ title: String, id: String, tile: Rect?, open: UnsafeMutablePointer<Bool>? = nil, focus: inout Bool) -> Bool {
        if let t = tile {
            ig_set_next_window_pos(t.x0, t.y0, Cond.always, 0, 0)
            ig_set_next_window_size(t.x1 - t.x0, t.y1 - t.y0, Cond.always)
        }
        if focus {
            ig_set_next_window_focus()
            focus = false
        }
        // The title is cut to the title bar (its buttons kept clear); the id after ### keeps the window the same.
        let buttons = (open == nil ? 1 : 2) * (ig_get_text_line_height() + ig_style_item_spacing_x()) + 2 * ig_style_frame_padding_x()
        let shown = tile.map { fit(title, $0.x1 - $0.x0 - buttons).shown } ?? title
        let flags = WindowFlags.noFocusOnAppearing | (tile == nil ? 0 : WindowFlags.noMove)
        return "\(shown)###\(id)".withCString { ig_begin($0, open, flags) }
    }
}

extension UI.Rect {
    init(_ r: PanelLayout.Rect) {
        self.init(x0: Float(r.x), y0: Float(r.y), x1: Float(r.maxX), y1: Float(r.maxY))
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
