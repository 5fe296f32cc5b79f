import ImGuiShim

/// Small Swift helpers over the ImGui shim (strings, flags, rectangles).
/// Main thread (or the test thread owning the ImGui context) only.
enum UI {
    // Flags mirrored from imgui.h 1.86 (C++ enums Swift cannot import).
    enum WindowFlags {
        static let noTitleBar: Int32 = 1 << 0
        static let noResize: Int32 = 1 << 1
        static let noMove: Int32 = 1 << 2
        static let noScrollbar: Int32 = 1 << 3
        static let noCollapse: Int32 = 1 << 5
        static let alwaysAutoResize: Int32 = 1 << 6
        static let noSavedSettings: Int32 = 1 << 8
        static let noMouseInputs: Int32 = 1 << 9
        static let noFocusOnAppearing: Int32 = 1 << 12
        static let noNavInputs: Int32 = 1 << 18
        static let noNavFocus: Int32 = 1 << 19
        /// A child list the arrow keys enter and leave like the rest of the panel (1.86: "NavFlattened").
        static let navFlattened: Int32 = 1 << 23
        static let noDecoration = noTitleBar | noResize | noScrollbar | noCollapse
        static let noInputs = noMouseInputs | noNavInputs | noNavFocus
        static let overlay = noDecoration | alwaysAutoResize | noSavedSettings | noFocusOnAppearing | noNavInputs | noNavFocus | noMove
    }
    enum SliderFlags {
        static let alwaysClamp: Int32 = 1 << 4
        static let logarithmic: Int32 = 1 << 5
        static let noRoundToFormat: Int32 = 1 << 6
    }
    enum InputTextFlags {
        static let autoSelectAll: Int32 = 1 << 4
        static let enterReturnsTrue: Int32 = 1 << 5
    }
    enum Cond {
        static let always: Int32 = 1 << 0
        static let once: Int32 = 1 << 1
        static let firstUseEver: Int32 = 1 << 2
    }
    enum TreeFlags {
        static let defaultOpen: Int32 = 1 << 5
    }
    enum ColorEditFlags {
        static let noInputs: Int32 = 1 << 5
        static let noLabel: Int32 = 1 << 7
    }
    enum StyleVar {
        static let itemSpacing: Int32 = 14  // ImGuiStyleVar_ItemSpacing (1.86)
    }

    /// A rectangle in screen pixels.
    struct Rect: Equatable, Sendable {
        var x0: Float, y0: Float, x1: Float, y1: Float
        var center: (x: Float, y: Float) { ((x0 + x1) / 2, (y0 + y1) / 2) }
        func contains(_ x: Float, _ y: Float) -> Bool { x >= x0 && x < x1 && y >= y0 && y < y1 }
    }

    /// The rectangle of the last item.
    static var lastItemRect: Rect {
        var r = Rect(x0: 0, y0: 0, x1: 0, y1: 0)
        ig_get_item_rect(&r.x0, &r.y0, &r.x1, &r.y1)
        return r
    }

    static func text(_ s: String) { s.withCString { ig_text($0) } }
    static func textDisabled(_ s: String) { s.withCString { ig_text_disabled($0) } }
    static func textWrapped(_ s: String) { s.withCString { ig_text_wrapped($0) } }
    static func textColored(_ s: String, _ r: Float, _ g: Float, _ b: Float, _ a: Float = 1) {
        s.withCString { ig_text_colored(r, g, b, a, $0) }
    }
    static func button(_ label: String, width: Float = 0) -> Bool { label.withCString { ig_button($0, width, 0) } }
    static func smallButton(_ label: String) -> Bool { label.withCString { ig_small_button($0) } }
    static func checkbox(_ label: String, _ v: inout Bool) -> Bool { label.withCString { ig_checkbox($0, &v) } }
    static func selectable(_ label: String, selected: Bool) -> Bool { label.withCString { ig_selectable($0, selected, 0, 0, 0) } }
    static func sameLine(_ offset: Float = 0, spacing: Float = -1) { ig_same_line(offset, spacing) }
    static func separator() { ig_separator() }
    static func tooltip(_ s: String) { s.withCString { ig_set_tooltip($0) } }
    static func pushID(_ s: String) { s.withCString { ig_push_id_str($0) } }
    static func popID() { ig_pop_id() }
    static func collapsingHeader(_ label: String, open: Bool = true) -> Bool {
        label.withCString { ig_collapsing_header($0, open ? TreeFlags.defaultOpen : 0) }
    }
    static func beginCombo(_ label: String, preview: String) -> Bool {
        label.withCString { l in preview.withCString { ig_begin_combo(l, $0, 0) } }
    }
    static func beginTabItem(_ label: String) -> Bool { label.withCString { ig_begin_tab_item($0, nil, 0) } }
    static func openPopup(_ id: String) { id.withCString { ig_open_popup($0) } }
    static func beginPopup(_ id: String) -> Bool { id.withCString { ig_begin_popup($0, 0) } }

    /// Pixels per design pixel at the current UI scale (the font's size over
    /// its 1× size): panels written in 1× pixels multiply their widths by it.
    static var unit: Float { ig_get_text_line_height() / UIFonts.baseSize }

    /// The width of a button labelled `label` (text and frame padding).
    static func buttonWidth(_ label: String) -> Float { ig_calc_text_width(label) + 2 * ig_style_frame_padding_x() }

    /// Stays on the line when an item `width` wide still fits in the window;
    /// otherwise the next item starts a new line (toolbars flow).
    static func sameLineIfFits(_ width: Float) { sameLineIfRoom(width) }

    /// Wrapped help text in a tooltip of readable width.
    static func helpTooltip(_ text: String) {
        ig_begin_tooltip()
        wrap(text, pixels: readableWidth).withCString { ig_text($0) }
        ig_end_tooltip()
    }

    /// The width help texts wrap at: about 60 characters, never wider than the window.
    static var readableWidth: Float {
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        return max(80, min(30 * ig_get_text_line_height(), dw - 4 * ig_style_window_padding_x()))
    }

    /// Wraps text into lines at most `pixels` wide at the current font (a word longer than that is cut).
    static func wrap(_ text: String, pixels: Float) -> String {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if ig_calc_text_width(candidate) <= pixels || line.isEmpty && ig_calc_text_width(String(word)) <= pixels {
                    line = candidate
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                var rest = String(word)
                while ig_calc_text_width(rest) > pixels, rest.count > 1 {
                    var n = rest.count - 1
                    while n > 1 && ig_calc_text_width(String(rest.prefix(n))) > pixels { n -= 1 }
                    lines.append(String(rest.prefix(n)))
                    rest = String(rest.dropFirst(n))
                }
                line = rest
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// Hard-wraps text at about `width` characters per line.
    static func wrap(_ text: String, width: Int) -> String {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if line.count + word.count + 1 > width, !line.isEmpty { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// A text input editing `value` (UTF-8, at most `capacity` − 1 bytes); true when changed.
    static func inputText(_ label: String, _ value: inout String, capacity: Int = 256, hint: String? = nil, flags: Int32 = 0) -> Bool {
        var buf = [CChar](repeating: 0, count: capacity)
        let bytes = Array(value.utf8.prefix(capacity - 1))
        for (i, b) in bytes.enumerated() { buf[i] = CChar(bitPattern: b) }
        let changed = label.withCString { l in
            if let hint { return hint.withCString { ig_input_text_with_hint(l, $0, &buf, Int32(capacity), flags) } }
            return ig_input_text(l, &buf, Int32(capacity), flags)
        }
        if changed { value = String(cString: buf) }
        return changed
    }

    /// An ABGR colour word for draw lists.
    static func color(_ r: Float, _ g: Float, _ b: Float, _ a: Float = 1) -> UInt32 {
        func c(_ v: Float) -> UInt32 { UInt32(min(max(v, 0), 1) * 255 + 0.5) }
        return c(a) << 24 | c(b) << 16 | c(g) << 8 | c(r)
    }
}
