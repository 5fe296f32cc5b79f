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
        /// The Link session while joined.
        var link: LinkReading? = nil
    }

    /// The actions offered to "Learn an action" (momentary and switches, morph).
    static let actionTargets: [ControlTarget] = [.trigger(.next), .trigger(.previous), .trigger(.blackout), .trigger(.cycle),
                                                 .trigger(.tap), .trigger(.mutate), .trigger(.randomize), .morph, .trigger(.link)]
                                                + SetListCommand.allCases.map { .trigger(.setList($0)) }
                                                + (0..<24).map { .trigger(.slot($0)) }
    var actionChoice = 0
    /// Item rectangles by key: "window", "cancelLearn", "learnChoice", "learnAction",
    /// "header:Bindings|Tempo sync|Latency|OSC", "binding:i:mode|low|high|delete",
    /// "syncBars", "fadeBeats", "quantize", "visualOffset".
    var rects: [String: UI.Rect] = [:]
    /// The sections open in the last frame (their header keys).
    private(set) var openSections: Set<String> = []
    /// Where the window goes this frame (the shell's tile); nil: where the user left it.
    var tile: UI.Rect?

    mutating func draw(model: AppModel, status: Status, dispatch: (AppAction) -> Void) {
        guard model.control.panelVisible else { return }
        var open = true
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        let u = UI.unit
        if tile == nil {
            // First use: centred under the menu bar.
            ig_set_next_window_pos(0.5 * dw, ig_get_frame_height() + 8, UI.Cond.firstUseEver, 0.5, 0)
            ig_set_next_window_size(min(520 * u, max(300, dw - 40)), min(560 * u, max(200, dh - 60)), UI.Cond.firstUseEver)
        }
        defer { ig_end() }
        var noFocus = false
        rects.removeAll()
        openSections.removeAll()
        guard UI.beginTiled("MIDI & live control", id: Self.windowID, tile: tile, open: &open, focus: &noFocus) else {
            if !open { dispatch(.control(.togglePanel)) }
            return
        }
        if !open { dispatch(.control(.togglePanel)) }
        rects["window"] = UI.currentWindowRect
        let c = model.control, t = UIStyle.theme.text
        UI.textWrapped(status.midi)
        if !status.inputs.isEmpty { UI.textWrapped("Controllers: " + status.inputs.joined(separator: ", ")) }
        if let l = c.learning {
            UI.wrappedText("Learning \"\(l.label)\": move a knob, fader or pad…", t.warning)
            if UI.fittedButton("Cancel", small: true) { dispatch(.control(.cancelLearn)) }
            rects["cancelLearn"] = UI.lastItemRect
        } else {
            UI.wrappedText("Right-click a slider, route depth or button and move a control to bind it.", t.dim)
        }
        let learnWidth = min(220 * u, UI.lineRoom)
        ig_set_next_item_width(learnWidth)
        let choice = Self.actionTargets.indices.contains(actionChoice) ? Self.actionTargets[actionChoice] : Self.actionTargets[0]
        if UI.beginCombo("##learnAction", preview: ParamEditor.preview(choice.label, width: learnWidth)) {
            for (i, t) in Self.actionTargets.enumerated() where UI.selectable(t.label, selected: i == actionChoice) { actionChoice = i }
            ig_end_combo()
        }
        rects["learnChoice"] = UI.lastItemRect
        UI.sameLineIfRoom(UI.buttonWidth("Learn action"))
        if UI.fittedButton("Learn action") { dispatch(.control(.learn(choice))) }
        rects["learnAction"] = UI.lastItemRect
        bindings(c.bindings, dispatch)
        tempo(c.sync, status.tempo, dispatch)
        link(c.link, status.link, dispatch)
        latency(c.visualOffsetMs, status.latency, dispatch)
        if section("OSC", "header:OSC") { UI.textWrapped(status.osc) }
        if let p = c.bindingsFileProblem { UI.wrappedText(p, t.error) }
    }

    /// The panel's window id (its title may be cut to its tile).
    static let windowID = "MIDI & live control"

    private mutating func bindings(_ list: [MidiBinding], _ dispatch: (AppAction) -> Void) {
        guard section("Bindings (\(list.count))", "header:Bindings") else { return }
        if list.isEmpty { UI.wrappedText("No bindings yet.", UIStyle.theme.text.dim) }
        let u = UI.unit
        for (i, b) in list.enumerated() {
            UI.pushID("binding\(i)")
            defer { UI.popID() }
            UI.wrappedText("\(b.control.label) → \(b.target.label)")
            let modeWidth = min(170 * u, UI.lineRoom)
            ig_set_next_item_width(modeWidth)
            if UI.beginCombo("##mode", preview: ParamEditor.preview(b.mode.label, width: modeWidth)) {
                for m in MidiMode.allCases where UI.selectable(m.label, selected: m == b.mode) {
                    var n = b
                    n.mode = m
                    dispatch(.control(.updateBinding(i, n)))
                }
                ig_end_combo()
            }
            rects["binding:\(i):mode"] = UI.lastItemRect
            for (key, value) in [("low", b.low), ("high", b.high)] {
                UI.sameLineIfRoom(90 * u)
                slider("binding:\(i):\(key)", value, PreciseSlider.Spec(min: 0, max: 1, format: "\(key) %.2f"), width: min(90 * u, UI.lineRoom)) { v in
                    var n = b
                    if key == "low" { n.low = v } else { n.high = v }
                    dispatch(.control(.updateBinding(i, n)))
                }
            }
            UI.sameLineIfRoom(UI.buttonWidth("Delete"))
            if UI.fittedButton("Delete", small: true) { dispatch(.control(.removeBinding(i))) }
            rects["binding:\(i):delete"] = UI.lastItemRect
            UI.sameLineIfRoom(UI.buttonWidth("?"))
            rects["binding:\(i):help"] = PreciseSlider.helpMarker("Binding", Self.bindingHelp).rect
        }
    }

    private mutating func tempo(_ sync: TempoSyncSettings, _ t: TempoReading, _ dispatch: (AppAction) -> Void) {
        guard section("Tempo sync", "header:Tempo sync") else { return }
        let bar = max(t.beatsPerBar, 1)
        let beat = t.beat.map { b in "bar \(Int((b / bar).rounded(.down)) + 1) beat \(Int((b - (b / bar).rounded(.down) * bar).rounded(.down)) + 1)" } ?? "not locked"
        let from = switch t.source {
        case .midiClock: "MIDI clock"
        case .link: "Ableton Link"
        default: "the beat tracker"
        }
        UI.wrappedText(t.source == .none ? "Tempo: none locked (Link, beat tracker, tap T, OSC /tempo or MIDI clock)"
                : String(format: "Tempo: %.1f BPM from %@ — %@", t.bpm, from, beat))
        slider("syncBars", Double(sync.bars), PreciseSlider.Spec(min: Double(TempoSyncSettings.barsRange.lowerBound),
                                                                  max: Double(TempoSyncSettings.barsRange.upperBound), integer: true, format: "every %d bars"),
               label: "Auto-cycle on the downbeat (0 = off)",
               help: "With a tempo locked, auto-cycle changes preset every N bars, on the downbeat. 0: by its dwell time as without a tempo.") {
            dispatch(.control(.setSyncBars(Int($0))))
        }
        slider("fadeBeats", sync.fadeBeats, PreciseSlider.Spec(min: TempoSyncSettings.fadeBeatsRange.lowerBound,
                                                                    max: TempoSyncSettings.fadeBeatsRange.upperBound, format: "%.1f beats"), label: "Fade",
               help: "A synced preset change fades out and in over this many beats each.") {
            dispatch(.control(.setFadeBeats($0)))
        }
        var q = sync.quantize
        let label = "Mutate/randomize on the next beat"
        let (shown, cut) = UI.fit(label, UI.lineRoom - ig_get_frame_height() - UI.buttonWidth("?") - 2 * ig_style_item_spacing_x())
        if UI.checkbox("\(shown)###quantize", &q) { dispatch(.control(.setQuantize(q))) }
        if cut, ig_is_item_hovered(0) { UI.tooltip(label) }
        rects["quantize"] = UI.lastItemRect
        UI.sameLine()
        UI.pushID("quantize")
        rects["help:quantize"] = PreciseSlider.helpMarker("Quantise", "With a tempo locked, Mutate and Randomize wait for the next beat.").rect
        UI.popID()
    }

    private mutating func latency(_ offset: Double, _ l: LatencyReadout, _ dispatch: (AppAction) -> Void) {
        guard section("Latency (sound → picture)", "header:Latency") else { return }
        UI.textWrapped(l.summary)
        slider("visualOffset", offset, PreciseSlider.Spec(min: ControlState.visualOffsetRange.lowerBound,
                                                                     max: ControlState.visualOffsetRange.upperBound, format: "%.0f ms"), label: "Visual offset",
               help: "Delays the modulation so the projected picture meets the sound of a PA that arrives later.") {
            dispatch(.control(.setVisualOffset($0)))
        }
    }

    /// A collapsing section (open at first, its label cut to the row); records its header as `key`.
    mutating func section(_ label: String, _ key: String) -> Bool {
        let arrow = ig_get_text_line_height() + 3 * ig_style_frame_padding_x()
        let open = UI.collapsingHeader("\(UI.fit(label, UI.lineRoom - arrow).shown)###\(key)")
        rects[key] = UI.lastItemRect
        if open { openSections.insert(key) }
        return open
    }

    static let bindingHelp = "Mode: how the control's value is read (absolute with soft takeover, relative encoders, a note as a button or a toggle). Low and high: the part of the target's range the control spans."

    /// A precise slider (the editor's steps: arrows 1/100 of the range, Shift ×0.1,
    /// Alt ×10), then its label and a help marker when given; records "key" and
    /// "help:key". `set` gets each new value.
    mutating func slider(_ key: String, _ value: Double, _ spec: PreciseSlider.Spec, width: Float? = nil,
                                 label: String? = nil, help: String? = nil, _ set: (Double) -> Void) {
        UI.pushID(key)
        defer { UI.popID() }
        let w = min(width ?? 200 * UI.unit, UI.lineRoom)
        for case .set(let v) in PreciseSlider.draw("##v", value: value, spec: spec, width: w) { set(v) }
        rects[key] = UI.lastItemRect
        let helpRoom = help.map { _ in UI.buttonWidth("?") + ig_style_item_spacing_x() } ?? 0
        if let label {
            // The label beside the slider when it fits, else on the next line; cut to the row (whole in its tooltip).
            UI.sameLineIfRoom(min(ig_calc_text_width(label), 6 * ig_get_frame_height()) + helpRoom)
            UI.fittedText(label, room: UI.lineRoom - helpRoom)
        }
        if let help {
            UI.sameLine()
            rects["help:" + key] = PreciseSlider.helpMarker(label ?? key, help).rect
        }
    }
}
