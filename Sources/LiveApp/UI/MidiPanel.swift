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
    /// Item rectangles by key: "cancelLearn", "learnChoice", "learnAction",
    /// "header:bindings|tempo|latency|osc", "binding:i:mode|low|high|delete",
    /// "syncBars", "fadeBeats", "quantize", "visualOffset".
    var rects: [String: UI.Rect] = [:]
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
        link(c.link, status.link, dispatch)
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
                slider("binding:\(i):\(key)", value, PreciseSlider.Spec(min: 0, max: 1, format: "\(key) %.2f"), width: 90) { v in
                    var n = b
                    if key == "low" { n.low = v } else { n.high = v }
                    dispatch(.control(.updateBinding(i, n)))
                }
            }
            UI.sameLine()
            if UI.smallButton("Delete") { dispatch(.control(.removeBinding(i))) }
            rects["binding:\(i):delete"] = UI.lastItemRect
            UI.sameLine()
            rects["binding:\(i):help"] = PreciseSlider.helpMarker("Binding", Self.bindingHelp).rect
        }
    }

    private mutating func tempo(_ sync: TempoSyncSettings, _ t: TempoReading, _ dispatch: (AppAction) -> Void) {
        guard section("Tempo sync", "header:tempo") else { return }
        let bar = max(t.beatsPerBar, 1)
        let beat = t.beat.map { b in "bar \(Int((b / bar).rounded(.down)) + 1) beat \(Int((b - (b / bar).rounded(.down) * bar).rounded(.down)) + 1)" } ?? "not locked"
        let from = switch t.source {
        case .midiClock: "MIDI clock"
        case .link: "Ableton Link"
        default: "the beat tracker"
        }
        UI.text(t.source == .none ? "Tempo: none locked (Link, beat tracker, tap T, OSC /tempo or MIDI clock)"
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
        if UI.checkbox("Mutate/randomize on the next beat", &q) { dispatch(.control(.setQuantize(q))) }
        rects["quantize"] = UI.lastItemRect
        UI.sameLine()
        UI.pushID("quantize")
        rects["help:quantize"] = PreciseSlider.helpMarker("Quantise", "With a tempo locked, Mutate and Randomize wait for the next beat.").rect
        UI.popID()
    }

    private mutating func latency(_ offset: Double, _ l: LatencyReadout, _ dispatch: (AppAction) -> Void) {
        guard section("Latency (sound → picture)", "header:latency") else { return }
        UI.textWrapped(l.summary)
        slider("visualOffset", offset, PreciseSlider.Spec(min: ControlState.visualOffsetRange.lowerBound,
                                                                     max: ControlState.visualOffsetRange.upperBound, format: "%.0f ms"), label: "Visual offset",
               help: "Delays the modulation so the projected picture meets the sound of a PA that arrives later.") {
            dispatch(.control(.setVisualOffset($0)))
        }
    }

    /// A collapsing section (open at first); records its header as `key`.
    mutating func section(_ label: String, _ key: String) -> Bool {
        let open = UI.collapsingHeader(label)
        rects[key] = UI.lastItemRect
        if open { openSections.insert(key) }
        return open
    }

    static let bindingHelp = "Mode: how the control's value is read (absolute with soft takeover, relative encoders, a note as a button or a toggle). Low and high: the part of the target's range the control spans."

    /// A precise slider (the editor's steps: arrows 1/100 of the range, Shift ×0.1,
    /// Alt ×10), then its label and a help marker when given; records "key" and
    /// "help:key". `set` gets each new value.
    mutating func slider(_ key: String, _ value: Double, _ spec: PreciseSlider.Spec, width: Float = 200,
                                 label: String? = nil, help: String? = nil, _ set: (Double) -> Void) {
        UI.pushID(key)
        defer { UI.popID() }
        for case .set(let v) in PreciseSlider.draw("##v", value: value, spec: spec, width: width) { set(v) }
        rects[key] = UI.lastItemRect
        if let label {
            UI.sameLine()
            UI.text(label)
        }
        if let help {
            UI.sameLine()
            rects["help:" + key] = PreciseSlider.helpMarker(label ?? key, help).rect
        }
    }
}
