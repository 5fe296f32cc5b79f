import AudioReactive
import Foundation
import ImGuiShim
import LiveCore

/// The audio panel: capture source and health, live spectrum and band meters,
/// the controls and tuning (each with a help marker), the route editor
/// (AudioPanel+Routes.swift) and the saved configs (AudioPanel+Configs.swift).
///
/// Main thread only (ImGui). It reads the model and the live view and emits
/// actions; it never changes the model itself.
struct AudioPanel {
    /// Screen rectangles of the last frame's items (tests and `--state-file`
    /// scripts aim the mouse with them); see each section for the keys.
    var rects: [String: UI.Rect] = [:]
    var width: Float = 520
    /// Text fields of the configs section.
    var configName = ""
    var exportPath = "~/"
    var importPath = ""
    /// The config row selected in the list.
    var selectedConfig: URL?
    /// The target picker's search text, and the route whose picker is open.
    var targetQuery = ""
    var targetPickerOpen: Int?
    /// Bring the window to the front on the next draw (set when it opens).
    var focusOnNextDraw = false
    /// Where the window goes this frame (the shell's tile); nil: where the user left it.
    var tile: UI.Rect?
    /// Header keys of the sections open in the last frame.
    private(set) var expanded: Set<String> = []

    /// Width of control labels and of sliders, set for the UI scale and the
    /// panel's width each frame (1×: 150 and 230 pixels).
    var labelWidth: Float = 150
    var sliderWidth: Float = 230

    /// The panel's help texts (shared with what is spoken: `AudioControlWords`).
    static let controlHelp = AudioControlWords.controlHelp
    static let routeHelp = AudioControlWords.routeHelp

    /// The rectangle key of a tuning field's slider.
    static func rectKey(_ f: AudioTuning.Field) -> String { AudioControlWords.key(f) }

    /// Draws the panel window.
    mutating func draw(model: AppModel, live: AudioLiveView, dispatch: (AppAction) -> Void) {
        rects.removeAll(keepingCapacity: true)
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        let u = UI.unit
        if tile == nil {
            let panelWidth = min(width * u, dw - 24)
            ig_set_next_window_pos(max(12, dw - panelWidth - 12), ig_get_frame_height() + 8, UI.Cond.firstUseEver, 0, 0)
            ig_set_next_window_size(panelWidth, max(300, dh - ig_get_frame_height() - 16), UI.Cond.firstUseEver)
            // Never larger than the window, and below the menu bar, at any UI scale.
            ig_set_next_window_size_constraints(0, 0, dw - 24, dh - ig_get_frame_height() - 16)
        }
        defer { ig_end() }
        expanded.removeAll(keepingCapacity: true)
        guard UI.beginTiled("Audio", id: "Audio", tile: tile, focus: &focusOnNextDraw) else { return }
        rects["window"] = UI.currentWindowRect
        var aw: Float = 0, ah: Float = 0
        ig_get_content_region_avail(&aw, &ah)
        // Labels take up to 150 design pixels (40 % of a narrow panel), sliders the rest of the row less the help button.
        labelWidth = min(150 * u, aw * 0.4)
        sliderWidth = max(ig_get_frame_height(), min(230 * u, aw - labelWidth - UI.buttonWidth("?") - 2 * ig_style_item_spacing_x()))
        header(model, live)
        rects["spectrum"] = AudioMeters.spectrum(live.meters, edges: model.audio.config.tuning.bandEdges, width: aw, height: 90 * u)
        AudioMeters.bands(live.meters, width: aw, rects: &rects)
        beatRow(live, model, dispatch)
        if section("Source") { sourceSection(model, live, dispatch) }
        if section("Controls") { controls(model, dispatch) }
        if section("Routes") { routes(model, live, dispatch) }
        if section("Configs") { configs(model, dispatch) }
        confirmation(model, dispatch)
    }

    /// A section header (title cut to the row); records "header:<title>" and whether it is open.
    private mutating func section(_ title: String) -> Bool {
        let open = ParamEditor.header(title)
        record("header:" + title)
        if open { expanded.insert("header:" + title) }
        return open
    }

    private mutating func header(_ model: AppModel, _ live: AudioLiveView) {
        let source = model.audio.source ?? "default source"
        UI.wrappedText("Capture: \(source)")
        rects["captureSource"] = UI.lastItemRect
        var line = live.status
        if let c = live.capture {
            line += c.latency.map { String(format: "  ·  latency %.1f ms", $0 * 1000) } ?? "  ·  latency ?"
            line += "  ·  dropped \(c.dropped)"
        }
        UI.wrappedText(line, UIStyle.theme.text.dim)
        rects["captureStatus"] = UI.lastItemRect
        if let l = live.latency {
            UI.wrappedText("Sound → picture: " + l, UIStyle.theme.text.dim)
            rects["latency"] = UI.lastItemRect
        }
        if !live.enabled { UI.wrappedText("Master switch off: routes are ignored", UIStyle.theme.text.warning) }
    }

    // MARK: source

    private mutating func sourceSection(_ model: AppModel, _ live: AudioLiveView, _ dispatch: (AppAction) -> Void) {
        let a = model.audio
        if button("What the machine plays", "machine") { dispatch(.audio(.selectMachineOutput)) }
        if ig_is_item_hovered(0) { UI.tooltip("Capture the default output's monitor: whatever this computer plays") }
        UI.sameLineIfRoom(UI.buttonWidth("Microphone"))
        if button("Microphone", "microphone") { dispatch(.audio(.selectMicrophone)) }
        if ig_is_item_hovered(0) { UI.tooltip("Capture the default input (or the first one that is not a monitor)") }
        UI.sameLineIfRoom(UI.buttonWidth("Server default"))
        if button("Server default", "sourceDefault") { dispatch(.audio(.selectSource(nil))) }
        UI.sameLineIfRoom(UI.buttonWidth("Refresh"))
        if button("Refresh##sources", "refreshSources") { dispatch(.audio(.refreshSources)) }
        if let p = a.sourcesProblem { UI.wrappedText("Sources not listed: " + p, UIStyle.theme.text.error) }
        // Rows in the panel itself (see `configs`: keyboard reachable).
        if a.sources.isEmpty { UI.wrappedText("(no sources listed yet)", UIStyle.theme.text.dim) }
        for s in a.sources {
            var label = s.name
            if s.isMonitor { label += "  [monitor]" }
            if s.isDefault { label += "  (default)" }
            let current = s.name == a.source || (a.source == nil && s.isDefault)
            if UI.fittedRow(label, id: "src:" + s.name, selected: current) { dispatch(.audio(.selectSource(s.name))) }
            rects["sourceRow:" + s.name] = UI.lastItemRect
            if ig_is_item_hovered(0) { UI.tooltip(s.description.isEmpty ? label : label + "\n" + s.description) }
        }
        ig_separator()
    }

    // MARK: controls

    private mutating func controls(_ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let c = model.audio.config
        checkboxRow("enabled", "Master", c.enabled) { dispatch(.audio(.setEnabled($0))) }
        UI.sameLineIfRoom(ig_get_frame_height() + ig_calc_text_width("Auto-gain") + UI.buttonWidth("?") + 3 * ig_style_item_spacing_x())
        checkboxRow("autoGain", "Auto-gain", c.tuning.autoGain) { dispatch(.audio(.setAutoGain($0))) }
        sliderRow("reactivity", "Reactivity", c.reactivity, PreciseSlider.Spec(min: 0, max: 3, format: "%.2f"),
                  help: Self.controlHelp["reactivity"]!, reset: 1, dispatch) { .setReactivity($0) }
        for f in AudioTuning.fields where f.placement == .config { tuningRow(f, c.tuning, dispatch) }
        UI.fittedText("Tuning", color: UIStyle.theme.text.dim)
        for f in AudioTuning.fields where f.placement == .tuning { tuningRow(f, c.tuning, dispatch) }
    }

    /// A tuning field's slider: label, range, unit, help and reset value from its `Field`.
    private mutating func tuningRow(_ f: AudioTuning.Field, _ t: AudioTuning, _ dispatch: (AppAction) -> Void) {
        let fmt = AudioControlWords.valueFormat(f)
        let spec = PreciseSlider.Spec(min: f.range.lowerBound, max: f.range.upperBound,
                                      logarithmic: f.range.upperBound / max(f.range.lowerBound, 1) >= 100, format: fmt)
        sliderRow(Self.rectKey(f), f.label, t[field: f], spec, help: f.helpWithUnit, reset: f.defaultValue, dispatch) {
            .setTuning(f.key, $0)
        }
    }

    /// A checkbox with a help marker (from `controlHelp[key]`); records "key" and "help:key".
    private mutating func checkboxRow(_ key: String, _ label: String, _ value: Bool, _ set: (Bool) -> Void) {
        var on = value
        UI.pushID(key)
        defer { UI.popID() }
        let room = UI.lineRoom - ig_get_frame_height() - UI.buttonWidth("?") - 2 * ig_style_item_spacing_x()
        let (shown, cut) = UI.fit(label, room)
        if UI.checkbox("\(shown)###\(label)", &on) { set(on) }
        if cut, ig_is_item_hovered(0) { UI.tooltip(label) }
        rects[key] = UI.lastItemRect
        UI.sameLine()
        rects["help:" + key] = PreciseSlider.helpMarker(label, Self.controlHelp[key]!).rect
    }

    /// A labelled precise slider with a help marker; double-clicking the label resets to `reset`.
    private mutating func sliderRow(_ key: String, _ label: String, _ value: Double, _ spec: PreciseSlider.Spec, help: String,
                                    reset: Double, _ dispatch: (AppAction) -> Void, _ set: (Double) -> AudioAction) {
        UI.pushID(key)
        defer { UI.popID() }
        if PreciseSlider.resetLabel(label, tooltip: "Double-click to reset", room: labelWidth - ig_style_window_padding_x() - ig_style_item_spacing_x()) {
            dispatch(.audio(set(reset)))
        }
        rects["label:" + key] = UI.lastItemRect
        UI.sameLine(labelWidth)
        editSlider(value, spec, width: sliderWidth, dispatch, set)
        rects[key] = UI.lastItemRect
        UI.sameLine()
        rects["help:" + key] = PreciseSlider.helpMarker(label, help).rect
    }

    /// A precise slider whose drag or typed edit is one undo step (begin, sets, end).
    func editSlider(_ value: Double, _ spec: PreciseSlider.Spec, width: Float, _ dispatch: (AppAction) -> Void,
                    _ set: (Double) -> AudioAction) {
        for e in PreciseSlider.draw("##v", value: value, spec: spec, width: width) {
            switch e {
            case .begin: dispatch(.audio(.beginEdit))
            case .set(let v): dispatch(.audio(set(v)))
            case .end: dispatch(.audio(.endEdit))
            }
        }
    }

    /// Tempo, a beat light (bright on each beat, red on a downbeat) and the
    /// tracker's buttons: tap, ×2, ÷2, lock, bar.
    private mutating func beatRow(_ live: AudioLiveView, _ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let b = live.meters?.beat ?? BeatFeatures()
        let locked = live.meters?.tempoLocked ?? false
        let on = max(b.beatPulse, b.barPulse)
        let red: Float = b.barPulse > 0.05 ? 1 : 0.3 + 0.7 * on
        var x0: Float = 0, y0: Float = 0
        ig_get_cursor_screen_pos(&x0, &y0)
        let h = ig_get_frame_height()
        ig_dummy(h, h)
        rects["beatLight"] = UI.Rect(x0: x0, y0: y0, x1: x0 + h, y1: y0 + h)
        ig_draw_rect_filled(x0 + 3, y0 + 3, x0 + h - 3, y0 + h - 3,
                            UI.color(red, 0.3 + 0.7 * b.beatPulse * (1 - b.barPulse), 0.2 + 0.3 * on, 0.35 + 0.65 * on), 3)
        UI.sameLine()
        UI.wrappedText(b.tempo > 0 ? String(format: "%.1f BPM  (confidence %.2f)", b.tempo, b.confidence) : "tempo: listening…")
        record("tempo")
        if button("Tap", "beatTap") { dispatch(.audio(.beat(.tap))) }
        MidiLearn.gesture(.trigger(.tap), model: model, dispatch: dispatch)
        if ig_is_item_hovered(0) { UI.tooltip("Tap tempo (key T): taps set the tempo and put a beat on the last tap") }
        UI.sameLineIfRoom(UI.buttonWidth("x2"))
        if button("x2", "beatDouble") { dispatch(.audio(.beat(.double))) }
        UI.sameLineIfRoom(UI.buttonWidth("/2"))
        if button("/2", "beatHalf") { dispatch(.audio(.beat(.half))) }
        UI.sameLineIfRoom(UI.buttonWidth("Unlock"))
        if button(locked ? "Unlock" : "Lock", "beatLock") { dispatch(.audio(.beat(.lock(!locked)))) }
        if ig_is_item_hovered(0) { UI.tooltip("Lock: hold the tempo (the beats still follow the music's phase)") }
        UI.sameLineIfRoom(UI.buttonWidth("Bar"))
        if button("Bar", "beatBar") { dispatch(.audio(.beat(.resetBar))) }
        if ig_is_item_hovered(0) { UI.tooltip("The next beat is the first of a bar (the bar route source)") }
    }

    /// A button that looks dimmed and does nothing when disabled; records its rect.
    mutating func button(_ label: String, _ key: String, enabled: Bool = true) -> Bool {
        FormRows.button(label, key, enabled: enabled, rects: &rects)
    }

    /// Records the last item's rectangle under `key`.
    mutating func record(_ key: String) { rects[key] = UI.lastItemRect }
}
