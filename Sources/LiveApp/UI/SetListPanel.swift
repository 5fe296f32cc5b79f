import ImGuiShim
import LiveCore

/// The set list panel: the transport (Go, Back, Hold, Skip, Stop) with the
/// current and next cue and bars left, the cues (select a row; the selected
/// cue's length and transition), and the editing buttons (Add current, Up,
/// Down, Duplicate, Delete). Every control is a button, row or slider the
/// keyboard reaches (arrows, Space) and speech names by its rectangle key
/// ("setlist:go", "setlist:cue:3", "setlist:length", …, see SetListWords).
/// Reads the model and the player's status; returns actions. Main thread only.
struct SetListPanel {
    /// The panel's window id (its title may be cut to its tile).
    static let windowName = "Set list"
    /// Item rectangles by key: "window" and the controls' "setlist:…" keys.
    private(set) var rects: [String: UI.Rect] = [:]
    /// Where the window goes this frame (the shell's tile); nil: where the user left it.
    var tile: UI.Rect?

    mutating func draw(model: AppModel, status: SetListStatus, dispatch: (AppAction) -> Void) {
        guard model.setList.panelVisible else { return }
        rects.removeAll()
        if tile == nil {
            // Without a tile (a test's bare frame): at the right edge under the menu bar.
            var dw: Float = 0, dh: Float = 0
            ig_get_display_size(&dw, &dh)
            let u = UI.unit, top = ig_get_frame_height() + 8
            ig_set_next_window_pos(dw - 8, top, UI.Cond.firstUseEver, 1, 0)
            ig_set_next_window_size(min(420 * u, max(280, dw - 16)), min(520 * u, max(220, dh - top - 8)), UI.Cond.firstUseEver)
        }
        var open = true, noFocus = false
        defer { ig_end() }
        guard UI.beginTiled(Self.windowName, id: Self.windowName, tile: tile, open: &open, focus: &noFocus) else {
            if !open { dispatch(.setList(.togglePanel)) }
            return
        }
        if !open { dispatch(.setList(.togglePanel)) }
        rects["window"] = UI.currentWindowRect
        let s = model.setList
        transport(s, status, model, dispatch)
        UI.separator()
        cues(s, model, dispatch)
        UI.separator()
        editing(s, dispatch)
        if let p = s.fileProblem { UI.wrappedText(p, UIStyle.theme.text.error) }
    }

    /// A button whose label fits the row, on the line of the one before when
    /// it has room (`first`: starts a row); records "setlist:key".
    private mutating func button(_ label: String, _ key: String, _ action: SetListAction, first: Bool = false,
                                 _ dispatch: (AppAction) -> Void) {
        if !first { UI.sameLineIfRoom(UI.buttonWidth(label)) }
        if UI.fittedButton("\(label)###setlist-\(key)") { dispatch(.setList(action)) }
        rects["setlist:\(key)"] = UI.lastItemRect
    }

    private mutating func transport(_ s: SetListState, _ st: SetListStatus, _ model: AppModel, _ dispatch: (AppAction) -> Void) {
        button(s.transport == .held ? "Go (resume)" : "Go", "go", .go, first: true, dispatch)
        button("Back", "back", .back, dispatch)
        button(s.transport == .held ? "Release" : "Hold", "hold", .hold, dispatch)
        button("Skip", "skip", .skip, dispatch)
        button("Stop", "stop", .stop, dispatch)
        UI.wrappedText(SetListWords.statusLine(model, st))
    }

    private mutating func cues(_ s: SetListState, _ model: AppModel, _ dispatch: (AppAction) -> Void) {
        if s.list.cues.isEmpty { UI.wrappedText("No cues yet: load a preset and press Add current.", UIStyle.theme.text.dim) }
        for (i, c) in s.list.cues.enumerated() {
            UI.pushID("cue\(i)")
            defer { UI.popID() }
            let mark = s.current == i ? "▶ " : (s.transport != .stopped && s.next == i ? "→ " : "   ")
            if UI.fittedRow("\(mark)\(i + 1). \(SetListWords.presetName(c.preset, model)) · \(c.length.label) · \(c.transition.label)",
                            id: "row", selected: i == s.selected) {
                dispatch(.setList(.select(i)))
            }
            rects["setlist:cue:\(i)"] = UI.lastItemRect
        }
        guard s.list.cues.indices.contains(s.selected) else { return }
        let i = s.selected, c = s.list.cues[i]
        // The selected cue's length: bars or seconds, and the number.
        var inBars = { if case .bars = c.length { true } else { false } }()
        let (unit, cut) = UI.fit("In bars", UI.lineRoom - ig_get_frame_height() - ig_style_item_spacing_x())
        if UI.checkbox("\(unit)###unit", &inBars) { dispatch(.setList(.setLength(i, inBars ? .bars(16) : .seconds(30)))) }
        if cut, ig_is_item_hovered(0) { UI.tooltip("In bars") }
        rects["setlist:unit"] = UI.lastItemRect
        UI.sameLineIfRoom(140 * UI.unit)
        switch c.length {
        case .bars(let n):
            slider("setlist:length", Double(n), PreciseSlider.Spec(min: 1, max: 64, integer: true, format: "%d bars")) {
                dispatch(.setList(.setLength(i, .bars(Int($0)))))
            }
        case .seconds(let sec):
            slider("setlist:length", sec, PreciseSlider.Spec(min: 1, max: 600, integer: true, format: "%d s")) {
                dispatch(.setList(.setLength(i, .seconds($0))))
            }
        }
        let comboWidth = min(110 * UI.unit, UI.lineRoom)
        ig_set_next_item_width(comboWidth)
        if UI.beginCombo("##transition", preview: ParamEditor.preview(c.transition.kind, width: comboWidth)) {
            let beats = c.transition.beats ?? 4
            for t in [CueTransition.cut, .fade(beats: beats), .morph(beats: beats)] where UI.selectable(t.kind, selected: t.kind == c.transition.kind) {
                dispatch(.setList(.setTransition(i, t)))
            }
            ig_end_combo()
        }
        rects["setlist:transition"] = UI.lastItemRect
        if let beats = c.transition.beats {
            UI.sameLineIfRoom(140 * UI.unit)
            slider("setlist:beats", beats, PreciseSlider.Spec(min: 1, max: 32, integer: true, format: "%d beats")) { b in
                dispatch(.setList(.setTransition(i, c.transition.kind == "fade" ? .fade(beats: b) : .morph(beats: b))))
            }
        }
    }

    private mutating func editing(_ s: SetListState, _ dispatch: (AppAction) -> Void) {
        let i = s.selected, has = s.list.cues.indices.contains(i)
        button("Add current", "add", .addCurrent, first: true, dispatch)
        guard has else { return }
        button("Up", "up", .move(i, by: -1), dispatch)
        button("Down", "down", .move(i, by: 1), dispatch)
        button("Duplicate", "duplicate", .duplicate(i), dispatch)
        button("Delete", "delete", .delete(i), dispatch)
    }

    private mutating func slider(_ key: String, _ value: Double, _ spec: PreciseSlider.Spec, _ set: (Double) -> Void) {
        UI.pushID(key)
        defer { UI.popID() }
        for case .set(let v) in PreciseSlider.draw("##v", value: value, spec: spec, width: min(140 * UI.unit, UI.lineRoom)) { set(v) }
        rects[key] = UI.lastItemRect
    }
}
