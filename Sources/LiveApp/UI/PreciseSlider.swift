import ImGuiShim
import LiveCore

/// The app's precise editing for one slider, shared by the parameter editor
/// and the audio panel: drag, Ctrl+click typed entry (ImGui's own), and while
/// the slider is hovered (or focused, with the mouse over no other item):
/// arrow keys step by range/100 (Shift ×0.1, Alt ×10; integers by at least
/// 1), Home/End jump to the ends. The wheel steps it the same way only when
/// `WheelGate` gives it the wheel (the pointer rested on it, or it has the
/// keyboard focus); otherwise the wheel scrolls the list or panel under it.
/// The value is shown in the longest of its formats that fits the slider.
/// A label before it resets the value on double-click (`resetLabel`).
/// Main thread only (ImGui).
enum PreciseSlider {
    /// Who gets the wheel over a slider (one pointer, one gate). Main thread only.
    nonisolated(unsafe) static var wheelGate = WheelGate()
    /// The help popover open in this frame (title, text), for speech; the frame resets it.
    nonisolated(unsafe) static var openPopover: (title: String, text: String)?

    /// What a slider does to its value.
    struct Spec: Equatable, Sendable {
        var min: Double
        var max: Double
        var integer = false
        var logarithmic = false
        /// printf format of the shown value (`%%` for a literal percent sign).
        var format = "%.3f"

        var span: Double { max - min }

        /// Clamps to the range (integers rounded); NaN keeps `fallback`.
        func clamp(_ v: Double, fallback: Double) -> Double {
            guard !v.isNaN else { return fallback }
            let c = Swift.min(Swift.max(v, min), max)
            return integer ? c.rounded() : c
        }
    }

    /// What happened to the slider this frame, in order.
    enum Event: Equatable, Sendable {
        /// A drag or typed entry started (group the changes into one undo step).
        case begin
        case set(Double)
        case end
    }

    /// The nudge for one arrow press / wheel notch: span/100, Shift ×0.1,
    /// Alt ×10 (integers move at least 1).
    static func step(span: Double, integer: Bool, shift: Bool, alt: Bool) -> Double {
        var s = span / 100
        if shift { s *= 0.1 }
        if alt { s *= 10 }
        return integer ? max(1, s.rounded()) : s
    }

    /// Draws the slider `##id` of `width` pixels showing `value`; returns its
    /// events. The slider is the last item afterwards (for rects and tooltips).
    static func draw(_ id: String, value: Double, spec: Spec, width: Float) -> [Event] {
        // Space on the focused slider (keyboard navigation) activates it: then
        // its arrows step like the mouse's (below), not by ImGui's own tweak.
        let navActive = id.withCString { ig_is_nav_active($0) }
        if navActive { ig_nav_suppress_tweak() }
        ig_set_next_item_width(width)
        var events: [Event] = []
        var changed = false
        var newValue = value
        let log = spec.logarithmic ? UI.SliderFlags.logarithmic : 0
        let format = fittingFormat(spec, value: value, room: width - 2 * ig_style_frame_padding_x())
        if spec.integer {
            var iv = Int32(value.rounded())
            changed = id.withCString { l in format.withCString { ig_slider_int(l, &iv, Int32(spec.min), Int32(spec.max), $0, UI.SliderFlags.alwaysClamp | log) } }
            newValue = Double(iv)
        } else {
            var dv = value
            let flags = UI.SliderFlags.alwaysClamp | UI.SliderFlags.noRoundToFormat | log
            changed = id.withCString { l in format.withCString { ig_slider_double(l, &dv, spec.min, spec.max, $0, flags) } }
            newValue = dv
        }
        if ig_is_item_activated() { events.append(.begin) }
        if changed, newValue != value { events.append(.set(newValue)) }
        if ig_is_item_deactivated() { events.append(.end) }
        // With the keyboard focus shown, arrows move the focus unless the
        // slider was activated (Space): then Left/Right (Home/End) step it.
        // Otherwise keys go to the hovered slider, else to the focused one.
        let nav = ig_nav_visible()
        let hovered = !nav && ig_is_item_hovered(0)
        let wheel = wheelNotches(focused: nav && ig_is_item_focused())
        let focusedOnly = !nav && !hovered && ig_is_item_focused() && !ig_is_any_item_hovered()
        if (hovered || focusedOnly || (nav && navActive) || wheel != 0) && !ig_io_want_text_input(),
           let v = nudged(value, spec: spec, wheel: wheel, vertical: !nav) {
            ig_nav_move_request_cancel()  // the key stepped the value; the focus stays
            if v != value { events.append(.set(v)) }
        }
        return events
    }

    /// This frame's wheel notches for the last item (a slider), when the gate gives it the wheel;
    /// 0 when the wheel scrolls the panel instead. Claims the wheel from the panel when it may use it.
    static func wheelNotches(focused: Bool) -> Double {
        guard ig_is_item_hovered(0) else { return 0 }
        var x: Float = 0, y: Float = 0
        ig_get_mouse_pos(&x, &y)
        let wheel = Double(ig_io_mouse_wheel())
        let d = wheelGate.hovered(ig_get_item_id(), focused: focused || ig_is_item_active(), pointer: (Double(x), Double(y)),
                                  wheel: wheel, frame: Int(ig_get_frame_count()), now: ig_get_time())
        if d.claim { ig_set_item_using_mouse_wheel() }
        return d.step ? wheel : 0
    }

    /// The longest of `spec.format`'s forms whose text for `value` fits `room`
    /// pixels: as written, without its words (unit, prefix), then with fewer
    /// decimals. Typed entry (Ctrl+click) reads the value whatever the form.
    static func fittingFormat(_ spec: Spec, value: Double, room: Float) -> String {
        let forms = formats(spec.format)
        for f in forms where ig_calc_text_width(text(f, value, integer: spec.integer)) <= room { return f }
        return forms.last ?? spec.format
    }

    /// `format`, then its bare conversion, then that with 2, 1 and 0 decimals.
    static func formats(_ format: String) -> [String] {
        guard let r = format.range(of: #"%[-+ #0]*[0-9]*(\.[0-9]+)?[dif]"#, options: .regularExpression) else { return [format] }
        let bare = String(format[r])
        var out = [format, bare]
        if bare.hasSuffix("f"), let dot = bare.firstIndex(of: "."), let n = Int(bare[bare.index(after: dot)..<bare.index(before: bare.endIndex)]) {
            for d in stride(from: min(n, 3) - 1, through: 0, by: -1) { out.append(String(bare[..<dot]) + ".\(d)f") }
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }

    /// A format's text for a value (integers as C ints, as the slider shows them).
    static func text(_ format: String, _ value: Double, integer: Bool) -> String {
        integer && !format.hasSuffix("f") ? String(format: format, Int32(value.rounded())) : String(format: format, value)
    }

    /// The value after this frame's arrow keys, Home, End or `wheel` notches,
    /// or nil when none was used. `vertical`: Up/Down step too.
    static func nudged(_ value: Double, spec: Spec, wheel: Double, vertical: Bool = true) -> Double? {
        if ig_is_key_pressed(ScanCode.home, false) { return spec.min }
        if ig_is_key_pressed(ScanCode.end, false) { return spec.max }
        var notches = 0.0
        if ig_is_key_pressed(ScanCode.right, true) || (vertical && ig_is_key_pressed(ScanCode.up, true)) { notches += 1 }
        if ig_is_key_pressed(ScanCode.left, true) || (vertical && ig_is_key_pressed(ScanCode.down, true)) { notches -= 1 }
        notches += wheel
        guard notches != 0 else { return nil }
        let s = step(span: spec.span, integer: spec.integer, shift: ig_io_key_shift(), alt: ig_io_key_alt())
        return spec.clamp(value + notches * s, fallback: value)
    }

    /// A text label that asks for a reset on double-click (tooltip says so),
    /// cut to `room` pixels when given (the whole label then leads the tooltip).
    /// Returns true on the double-click.
    static func resetLabel(_ text: String, tooltip: String, room: Float? = nil) -> Bool {
        let (shown, cut) = room.map { UI.fit(text, $0) } ?? (text, false)
        UI.text(shown)
        guard ig_is_item_hovered(0) else { return false }
        if ig_is_mouse_double_clicked(0) { return true }
        UI.tooltip(cut ? "\(text)\n\(tooltip)" : tooltip)
        return false
    }

    /// A "?" button: the help as a tooltip on hover, as a popover when
    /// pressed (click, or Space/Enter with the keyboard focus on it; Esc or
    /// a click elsewhere closes it). Returns its rectangle and whether the
    /// popover is open.
    @discardableResult
    static func helpMarker(_ title: String, _ help: String) -> (rect: UI.Rect, open: Bool) {
        let pressed = UI.smallButton("?##help")
        let r = UI.lastItemRect
        if ig_is_item_hovered(0) { UI.helpTooltip(help) }
        if pressed { UI.openPopup("help") }
        guard UI.beginPopup("help") else { return (r, false) }
        UI.text(UI.wrap(title, pixels: UI.readableWidth))
        UI.separator()
        UI.text(UI.wrap(help, pixels: UI.readableWidth))
        ig_end_popup()
        openPopover = (title, help)
        return (r, true)
    }
}
