import ImGuiShim
import LiveCore

/// The MIDI & live-control panel: MIDI status and learn, the bindings
/// (control, target, mode, range; edit and delete), tempo source and sync,
/// the latency readout with the visual offset, and OSC. Reads the model and
/// the shell's status; returns actions. Main thread only.
struct MidiPanel {
    /// What the panel shows that is not in the model.
    struct Status {
        var midi: String
        var inputs: [String]
        var osc: String
        var tempo: TempoReading
        var latency: LatencyReadout
    }

    /// The actions offered to "Learn an action" (momentary and switches, morph).
    static let actionTargets: [ControlTarget] = [.trigger(.next), .trigger(.previous), .trigger(.blackout), .trigger(.cycle),
                                                 .trigger(.tap), .trigger(.mutate), .trigger(.randomize), .morph]
                                                + (0..<24).map { .trigger(.slot($0)) }
    var actionChoice = 0
    /// Item rectangles by key: "cancelLearn", "learnChoice", "learnAction",
    /// "header:bindings|tempo|latency|osc", "binding:i:mode|low|high|delete",
    /// "syncBars", "fadeBeats", "quantize", "visualOffset".
    private(set) var rects: [String: UI.Rect] = [:]
    /// The sections open in the last frame (their header keys).
    private(set) var openSections: Set<String> = []

    mutating func draw(model: AppModel, status: Status, dispatch: (AppAction) -> Void) {
        guard model.control.panelVisible else { return }
        var open = true
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        // First use: centred under the menu bar, clear of the parameter editor (left) and audio panel (right).
        ig_set_next_window_pos(0.5 * dw, ig_get_frame_height() + 8, UI.Cond.firstUseEver, 0.5, 0)
        ig_set_next_window_size(min(520, max(300, dw - 40)), min(560, max(200, dh - 60)), UI.Cond.firstUseEver)
        defer { ig_end() }
        guard ig_begin("MIDI & live control", &open, 0) else {
            if !open { dispatch(.control(.togglePanel)) }
            return
        }
        if !open { dispatch(.control(.togglePanel)) }
        rects.removeAll()
        openSections.removeAll()
        let c = model.control
        UI.textWrapped(status.midi)
        if !status.inputs.isEmpty { UI.textWrapped("Controllers: " + status.inputs.joined(separator: ", ")) }
        if let t = c.learning {
            UI.textColored("Learning \"\(t.label)\": move a knob, fader or pad…", 1, 0.6, 0.1)
            UI.sameLine()
            if UI.smallButton("Cancel") { dispatch(.control(.cancelLearn)) }
            rects["cancelLearn"] = UI.lastItemRect
        } else {
            UI.textDisabled("Right-click a slider, route depth or button and move a control to bind it.")
        }
        ig_set_next_item_width(220)
        let choice = Self.actionTargets.indices.contains(actionChoice) ? Self.actionTargets[actionChoice] : Self.actionTargets[0]
        if UI.beginCombo("##learnAction", preview: choice.label) {
            for (i, t) in Self.actionTargets.enumerated() where UI.selectable(t.label, selected: i == actionChoice) { actionChoice = i }
            ig_end_combo()
        }
        rects["learnChoice"] = UI.lastItemRect
        UI.sameLine()
        if UI.button("Learn action") { dispatch(.control(.learn(choice))) }
        rects["learnAction"] = UI.lastItemRect
        bindings(c.bindings, dispatch)
        tempo(c.sync, status.tempo, dispatch)
        latency(c.visualOffsetMs, status.latency, dispatch)
        if section("OSC", "header:osc") { UI.textWrapped(status.osc) }
        if let p = c.bindingsFileProblem { UI.textColored(p, 1, 0.35, 0.3) }
    }

    private mutating func bindings(_ list: [MidiBinding], _ dispatch: (AppAction) -> Void) {
        guard section("Bindings (\(list.count))###bindings", "header:bindings") else { return }
        if list.isEmpty { UI.textDisabled("No bindings yet.") }
        for (i, b) in list.enumerated() {
            UI.pushID("binding\(i)")
            defer { UI.popID() }
            UI.text("\(b.control.label) → \(b.target.label)")
            ig_set_next_item_width(170)
            if UI.beginCombo("##mode", preview: b.mode.label) {
                for m in MidiMode.allCases where UI.selectable(m.label, selected: m == b.mode) {
                    var n = b
                    n.mode = m
                    dispatch(.control(.updateBinding(i, n)))
                }
                ig_end_combo()
            }
            rects["binding:\(i):mode"] = UI.lastItemRect
            for (key, value) in [("low", b.low), ("high", b.high)] {
                UI.sameLine()
                var v = Float(value)
                ig_set_next_item_width(90)
                if "##\(key)".withCString({ ig_slider_float($0, &v, 0, 1, "\(key) %.2f", UI.SliderFlags.alwaysClamp) }) {
                    var n = b
                    if key == "low" { n.low = Double(v) } else { n.high = Double(v) }
                    dispatch(.control(.updateBinding(i, n)))
                }
                rects["binding:\(i):\(key)"] = UI.lastItemRect
            }
            UI.sameLine()
            if UI.smallButton("Delete") { dispatch(.control(.removeBinding(i))) }
            rects["binding:\(i):delete"] = UI.lastItemRect
        }
    }

    private mutating func tempo(_ sync: TempoSyncSettings, _ t: TempoReading, _ dispatch: (AppAction) -> Void) {
        guard section("Tempo sync", "header:tempo") else { return }
        let beat = t.beat.map { b in "bar \(Int(b / 4) + 1) beat \(Int(b.truncatingRemainder(dividingBy: 4)) + 1)" } ?? "not locked"
        UI.text(t.source == .none ? "Tempo: none locked (beat tracker, tap T, OSC /tempo or MIDI clock)"
                : String(format: "Tempo: %.1f BPM from %@ — %@", t.bpm, t.source == .midiClock ? "MIDI clock" : "the beat tracker", beat))
        var bars = Int32(sync.bars)
        ig_set_next_item_width(200)
        if ig_slider_int("Switch every N bars (0 = off)", &bars, 0, 32, "%d", UI.SliderFlags.alwaysClamp) { dispatch(.control(.setSyncBars(Int(bars)))) }
        rects["syncBars"] = UI.lastItemRect
        var fade = Float(sync.fadeBeats)
        ig_set_next_item_width(200)
        if ig_slider_float("Fade (beats)", &fade, 0, 16, "%.1f", UI.SliderFlags.alwaysClamp) { dispatch(.control(.setFadeBeats(Double(fade)))) }
        rects["fadeBeats"] = UI.lastItemRect
        var q = sync.quantize
        if UI.checkbox("Mutate/randomize on the next beat", &q) { dispatch(.control(.setQuantize(q))) }
        rects["quantize"] = UI.lastItemRect
    }

    private mutating func latency(_ offset: Double, _ l: LatencyReadout, _ dispatch: (AppAction) -> Void) {
        guard section("Latency (sound → picture)", "header:latency") else { return }
        UI.textWrapped(l.summary)
        var ms = Float(offset)
        ig_set_next_item_width(200)
        if ig_slider_float("Visual offset (ms)", &ms, 0, 200, "%.0f ms", UI.SliderFlags.alwaysClamp) { dispatch(.control(.setVisualOffset(Double(ms)))) }
        rects["visualOffset"] = UI.lastItemRect
        if ig_is_item_hovered(0) { UI.tooltip("Delays the modulation so the projected picture meets the sound of a PA that arrives later") }
    }

    /// A collapsing section (open at first); records its header as `key`.
    private mutating func section(_ label: String, _ key: String) -> Bool {
        let open = UI.collapsingHeader(label)
        rects[key] = UI.lastItemRect
        if open { openSections.insert(key) }
        return open
    }
}
