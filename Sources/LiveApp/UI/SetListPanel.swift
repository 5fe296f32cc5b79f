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
    static let windowName = "Set list"
    private(set) var rects: [String: UI.Rect] = [:]

    mutating func draw(model: AppModel, status: SetListStatus, dispatch: (AppAction) -> Void) {
        guard model.setList.panelVisible else { return }
        rects.removeAll()
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        ig_set_next_window_pos(dw - 20, ig_get_frame_height() + 8, UI.Cond.firstUseEver, 1, 0)
        ig_set_next_window_size(min(420, max(280, dw * 0.35)), min(520, max(220, dh - 80)), UI.Cond.firstUseEver)
        var open = true
        defer { ig_end() }
        guard ig_begin(Self.windowName, &open, 0) else {
            if !open { dispatch(.setList(.togglePanel)) }
            return
        }
        if !open { dispatch(.setList(.togglePanel)) }
        let s = model.setList
        transport(s, status, model, dispatch)
        UI.separator()
        cues(s, model, dispatch)
        UI.separator()
        editing(s, dispatch)
        if let p = s.fileProblem { UI.textColored(p, 1, 0.35, 0.3) }
    }

    private mutating func button(_ label: String, _ key: String, _ action: SetListAction, _ dispatch: (AppAction) -> Void) {
        if UI.button(label) { dispatch(.setList(action)) }
        rects["setlist:\(key)"] = UI.lastItemRect
    }

    private mutating func transport(_ s: SetListState, _ st: SetListStatus, _ model: AppModel, _ dispatch: (AppAction) -> Void) {
        button(s.transport == .held ? "Go (resume)" : "Go", "go", .go, dispatch)
        UI.sameLine()
        button("Back", "back", .back, dispatch)
        UI.sameLine()
        button(s.transport == .held ? "Release" : "Hold", "hold", .hold, dispatch)
        UI.sameLine()
        button("Skip", "skip", .skip, dispatch)
        UI.sameLine()
        button("Stop", "stop", .stop, dispatch)
        UI.textWrapped(SetListWords.statusLine(model, st))
    }

    private mutating func cues(_ s: SetListState, _ model: AppModel, _ dispatch: (AppAction) -> Void) {
        if s.list.cues.isEmpty { UI.textDisabled("No cues yet: load a preset and press Add current.") }
        for (i, c) in s.list.cues.enumerated() {
            UI.pushID("cue\(i)")
            defer { UI.popID() }
            let mark = s.current == i ? "▶ " : (s.transport != .stopped && s.next == i ? "→ " : "   ")
            if UI.selectable("\(mark)\(i + 1). \(SetListWords.presetName(c.preset, model)) · \(c.length.label) · \(c.transition.label)",
                             selected: i == s.selected) {
                dispatch(.setList(.select(i)))
            }
            rects["setlist:cue:\(i)"] = UI.lastItemRect
        }
        guard s.list.cues.indices.contains(s.selected) else { return }
        let i = s.selected, c = s.list.cues[i]
        // The selected cue's length: bars or seconds, and the number.
        var inBars = { if case .bars = c.length { true } else { false } }()
        if UI.checkbox("In bars", &inBars) { dispatch(.setList(.setLength(i, inBars ? .bars(16) : .seconds(30)))) }
        rects["setlist:unit"] = UI.lastItemRect
        UI.sameLine()
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
        ig_set_next_item_width(110 * UI.unit)
        if UI.beginCombo("##transition", preview: c.transition.kind) {
            let beats = c.transition.beats ?? 4
            for t in [CueTransition.cut, .fade(beats: beats), .morph(beats: beats)] where UI.selectable(t.kind, selected: t.kind == c.transition.kind) {
                dispatch(.setList(.setTransition(i, t)))
            }
            ig_end_combo()
        }
        rects["setlist:transition"] = UI.lastItemRect
        if let beats = c.transition.beats {
            UI.sameLine()
            slider("setlist:beats", beats, PreciseSlider.Spec(min: 1, max: 32, integer: true, format: "%d beats")) { b in
                dispatch(.setList(.setTransition(i, c.transition.kind == "fade" ? .fade(beats: b) : .morph(beats: b))))
            }
        }
    }

    private mutating func editing(_ s: SetListState, _ dispatch: (AppAction) -> Void) {
        let i = s.selected, has = s.list.cues.indices.contains(i)
        button("Add current", "add", .addCurrent, dispatch)
        guard has else { return }
        UI.sameLine()
        button("Up", "up", .move(i, by: -1), dispatch)
        UI.sameLine()
        button("Down", "down", .move(i, by: 1), dispatch)
        UI.sameLine()
        button("Duplicate", "duplicate", .duplicate(i), dispatch)
        UI.sameLine()
        button("Delete", "delete", .delete(i), dispatch)
    }

    private mutating func slider(_ key: String, _ value: Double, _ spec: PreciseSlider.Spec, _ set: (Double) -> Void) {
        UI.pushID(key)
        defer { UI.popID() }
        for case .set(let v) in PreciseSlider.draw("##v", value: value, spec: spec, width: 140 * UI.unit) { set(v) }
        rects[key] = UI.lastItemRect
    }
}
