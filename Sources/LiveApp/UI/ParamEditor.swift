import Engine
import ImGuiShim
import LiveCore

/// The parameter editor: every registry parameter by section, with help
/// markers, locks and precise editing (hover-based nudges, typed entry,
/// double-click reset), plus the look tools (presets, randomize, mutate,
/// morph, undo/redo, reset).
///
/// Main thread only (ImGui). It reads the model and emits actions; it never
/// changes the model itself.
struct ParamEditor {
    /// Screen rectangles of the last frame's items, keyed "label:<id>",
    /// "slider:<id>", "lock:<id>", "help:<id>", "slider:mutateAmount",
    /// "slider:morph" (tests aim the mouse with them).
    private(set) var rects: [String: UI.Rect] = [:]
    var mutateAmount = 0.15
    var morphTarget: String?
    var morphT = 0.0
    /// Seeds for randomize/mutate; the shell seeds it from the clock once.
    var seed: UInt64 = 1
    /// Width of the label column and of sliders, in pixels (scaled by the shell).
    var labelWidth: Float = 130
    var sliderWidth: Float = 190
    /// The control whose help popover is open (last frame), if any.
    private(set) var openHelp: String?
    /// The window's vertical scroll at the end of the last frame.
    private(set) var scrollY: Float = 0
    /// Where the window goes this frame (the shell's tile); nil: where the user left it.
    var tile: UI.Rect?
    /// Header keys of the sections open in the last frame.
    private(set) var expanded: Set<String> = []
    /// Width of the label column (the labels are cut to it, whole in their tooltip).
    private var labelColumn: Float = 100

    /// The nudge for one arrow press / wheel notch: range/100, Shift ×0.1, Alt ×10
    /// (integers move at least 1). Shared with the audio panel (`PreciseSlider`).
    static func step(_ spec: ParamSpec, shift: Bool, alt: Bool) -> Double {
        PreciseSlider.step(span: spec.span, integer: spec.integer, shift: shift, alt: alt)
    }

    /// The toolbar's own sliders (they step like every other slider).
    static let mutateSpec = PreciseSlider.Spec(min: 0.01, max: 0.5, format: "%.2f")
    static let morphSpec = PreciseSlider.Spec(min: 0, max: 1, format: "morph %.2f")

    /// Every label the label column shows (it is as wide as the longest).
    static let labels: [String] = ParamRegistry.scalars.map { $0.label + " ≠" } + ["Spawn pattern", "Blend mode", "Background", "Colour"]

    /// The width of the "?" help button and of the lock box, at the current font.
    static var helpWidth: Float { UI.buttonWidth("?") }
    static var lockWidth: Float { ig_get_frame_height() }

    /// Draws the editor window. Its columns follow the font (the UI scale)
    /// and the panel's width: the help and lock boxes fit their glyphs, the
    /// label column the longest label (cut with "…" when the panel is narrow:
    /// at most 45 % of the row), the sliders take the rest; the panel scrolls.
    mutating func draw(model: AppModel, dispatch: (AppAction) -> Void) {
        let fh = ig_get_frame_height()
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        let pad = ig_style_window_padding_x(), sx = ig_style_item_spacing_x()
        if tile == nil {
            let width = min(dw - 16, Self.labels.map { ig_calc_text_width($0) }.max()! + 10 * fh + 2 * fh + 4 * sx + 3 * pad)
            ig_set_next_window_pos(8, fh + 6, UI.Cond.firstUseEver, 0, 0)  // below the menu bar
            ig_set_next_window_size(width, max(200, dh - fh - 14), UI.Cond.firstUseEver)
            ig_set_next_window_size_constraints(0, 0, dw - 16, dh - fh - 14)
        }
        defer { ig_end() }
        rects.removeAll(keepingCapacity: true)
        expanded.removeAll(keepingCapacity: true)
        var noFocus = false
        guard UI.beginTiled("Parameters", id: "Parameters", tile: tile, focus: &noFocus) else { return }
        rects["window"] = UI.currentWindowRect
        var aw: Float = 0, ah: Float = 0
        ig_get_content_region_avail(&aw, &ah)
        // Row: label column, gap, slider, gap, help, gap, lock. `sameLine(labelWidth)` counts from the window's edge.
        let tail = sx + Self.helpWidth + sx + Self.lockWidth
        let longest = Self.labels.map { ig_calc_text_width($0) }.max()!
        labelColumn = max(fh, min(longest, (aw - tail - sx) * 0.45))
        labelWidth = pad + labelColumn + sx
        sliderWidth = max(fh, aw - labelColumn - sx - tail)
        defer { scrollY = ig_get_scroll_y() }
        openHelp = nil
        toolbar(model, dispatch)
        for section in [ParamSection.global, .species, .matrix, .pheromone, .dynamics, .effects] {
            let open = Self.header(section.title, open: section != .matrix)
            rects["header:" + section.title] = UI.lastItemRect
            if open { expanded.insert("header:" + section.title) }
            guard open else { continue }
            if section == .species {
                speciesTabs(model, dispatch)
                continue
            }
            for (i, spec) in ParamRegistry.scalars.enumerated() where spec.section == section {
                scalarRow(spec, keys: [ParamKey(index: i)], model: model, dispatch)
            }
            if section == .pheromone { spawnAndRender(model, dispatch) }
        }
    }

    /// A collapsing section header whose title is cut to the row (its identity stays the whole title).
    static func header(_ title: String, open: Bool = true) -> Bool {
        let arrow = ig_get_text_line_height() + 3 * ig_style_frame_padding_x()
        let shown = UI.fit(title, UI.lineRoom - arrow).shown
        return UI.collapsingHeader("\(shown)###\(title)", open: open)
    }

    /// A combo's preview cut to the combo's width (less its padding and arrow).
    static func preview(_ text: String, width: Float) -> String {
        UI.fit(text, width - ig_get_frame_height() - 2 * ig_style_frame_padding_x()).shown
    }

    private mutating func toolbar(_ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let name = model.currentPreset?.name ?? "(no preset)"
        let arrows = 2 * (UI.buttonWidth("<") + ig_style_item_spacing_x())
        let comboWidth = max(ig_get_frame_height() * 2, UI.lineRoom - arrows)
        ig_set_next_item_width(comboWidth)
        if UI.beginCombo("##preset", preview: Self.preview(name + (model.isEdited ? " *" : ""), width: comboWidth)) {
            for p in model.presets where UI.selectable(p.name, selected: p.id == model.currentPreset?.id) {
                dispatch(.jumpTo(p.id))
            }
            ig_end_combo()
        }
        rects["combo:preset"] = UI.lastItemRect
        UI.sameLineIfFits(UI.buttonWidth("<"))
        if UI.smallButton("<") { dispatch(.previous) }
        rects["button:previous"] = UI.lastItemRect
        MidiLearn.gesture(.trigger(.previous), model: model, dispatch: dispatch)
        UI.sameLineIfFits(UI.buttonWidth(">"))
        if UI.smallButton(">") { dispatch(.next) }
        rects["button:next"] = UI.lastItemRect
        MidiLearn.gesture(.trigger(.next), model: model, dispatch: dispatch)
        // The tools flow onto further lines when the panel is narrow (large UI scales).
        if UI.fittedButton("Randomize") { seed &+= 1; dispatch(.randomize(seed: seed)) }
        rects["button:randomize"] = UI.lastItemRect
        MidiLearn.gesture(.trigger(.randomize), model: model, dispatch: dispatch)
        Self.hint("randomize")
        UI.sameLineIfFits(UI.buttonWidth("Mutate"))
        if UI.fittedButton("Mutate") { seed &+= 1; dispatch(.mutate(amount: mutateAmount, seed: seed)) }
        rects["button:mutate"] = UI.lastItemRect
        MidiLearn.gesture(.trigger(.mutate), model: model, dispatch: dispatch)
        Self.hint("mutate")
        let amountWidth = min(5 * ig_get_frame_height(), UI.lineRoom)
        UI.sameLineIfFits(amountWidth)
        for case .set(let m) in PreciseSlider.draw("##mutateAmount", value: mutateAmount, spec: Self.mutateSpec, width: amountWidth) {
            mutateAmount = m
        }
        rects["slider:mutateAmount"] = UI.lastItemRect
        Self.hint("mutateAmount")
        for (label, key, action) in [("Undo", "undo", AppAction.undo), ("Redo", "redo", .redo), ("Reset all", "resetAll", .resetAll)] {
            UI.sameLineIfFits(UI.buttonWidth(label))
            if UI.fittedButton(label) { dispatch(action) }
            rects["button:" + key] = UI.lastItemRect
            Self.hint(key)
        }
        // Morph toward a preset.
        let targetName = morphTarget.flatMap { id in model.presets.first { $0.id == id }?.name } ?? "Morph to…"
        ig_set_next_item_width(labelColumn)
        if UI.beginCombo("##morphTarget", preview: Self.preview(targetName, width: labelColumn)) {
            for p in model.presets where UI.selectable(p.name, selected: p.id == morphTarget) {
                morphTarget = p.id
                morphT = 0
            }
            ig_end_combo()
        }
        rects["combo:morphTarget"] = UI.lastItemRect
        Self.hint("morphTarget")
        UI.sameLine(labelWidth)
        for case .set(let t) in PreciseSlider.draw("##morphT", value: morphT, spec: Self.morphSpec, width: sliderWidth) {
            guard let id = morphTarget else { continue }
            morphT = t
            dispatch(.morph(presetID: id, t: t))
        }
        rects["slider:morph"] = UI.lastItemRect
        Self.hint("morph")
        UI.separator()
    }

    private mutating func speciesTabs(_ model: AppModel, _ dispatch: (AppAction) -> Void) {
        guard "species".withCString({ ig_begin_tab_bar($0, 0) }) else { return }
        defer { ig_end_tab_bar() }
        for tab in -1..<ParamKey.speciesCount {
            let shown = UI.beginTabItem(tab < 0 ? "All" : "\(tab + 1)")
            rects["tab:\(tab)"] = UI.lastItemRect
            guard shown else { continue }
            UI.pushID("tab\(tab)")
            for f in SpeciesField.allCases {
                let keys = tab < 0 ? (0..<ParamKey.speciesCount).map { ParamKey.species($0, f) } : [ParamKey.species(tab, f)]
                scalarRow(keys[0].spec, keys: keys, model: model, dispatch)
            }
            if tab >= 0 { colorRow("species.\(tab).color", "Colour", model.base.color(species: tab), model, dispatch) { dispatch(.setSpeciesColor(tab, $0)) } }
            UI.popID()
            ig_end_tab_item()
        }
    }

    private mutating func spawnAndRender(_ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let others = Dictionary(uniqueKeysWithValues: ParamRegistry.others.map { ($0.id, $0) })
        choiceRow(others["spawn.pattern"]!, current: model.base.spawnPattern.rawValue, model, dispatch) {
            if let p = SpawnPattern(rawValue: $0) { dispatch(.setSpawnPattern(p)) }
        }
        choiceRow(others["render.blendMode"]!, current: model.base.blendMode.rawValue, model, dispatch) {
            if let m = BlendMode(rawValue: $0) { dispatch(.setBlendMode(m)) }
        }
        colorRow("render.background", "Background", model.base.background, model, dispatch) { dispatch(.setBackground($0)) }
    }

    /// One scalar: label (double-click resets), slider, help marker, lock.
    /// `keys` are edited together (the All tab); the first one is displayed.
    private mutating func scalarRow(_ spec: ParamSpec, keys: [ParamKey], model: AppModel, _ dispatch: (AppAction) -> Void) {
        let id = keys.count > 1 ? "species.*.\(spec.id.split(separator: ".").last!)" : spec.id
        let value = model.base[keys[0]]
        let mixed = keys.contains { model.base[$0] != value }
        func set(_ v: Double) {
            dispatch(keys.count == 1 ? .setParam(keys[0], v) : .setParams(keys, v))
        }
        UI.pushID(id)
        defer { UI.popID() }
        let resetAsked = PreciseSlider.resetLabel(spec.label + (mixed ? " ≠" : ""), tooltip: ControlWordTable.resetHint, room: labelColumn)
        rects["label:" + id] = UI.lastItemRect
        if resetAsked {
            if keys.count == 1 { dispatch(.resetParam(keys[0])) } else {
                // Each species back to its own preset value, as one undo step.
                dispatch(.beginEdit)
                for k in keys { dispatch(.resetParam(k)) }
                dispatch(.endEdit)
            }
        }
        UI.sameLine(labelWidth)
        let fmt = spec.integer ? "%d" : (spec.span >= 100 ? "%.1f" : (spec.span >= 10 ? "%.2f" : "%.3f"))
        let unit = spec.unit.isEmpty ? "" : " " + spec.unit.replacingOccurrences(of: "%", with: "%%")
        let sliderSpec = PreciseSlider.Spec(min: spec.min, max: spec.max, integer: spec.integer,
                                            logarithmic: spec.scale == .log, format: fmt + (spec.integer ? "" : unit))
        let events = PreciseSlider.draw("##v", value: value, spec: sliderSpec, width: sliderWidth)
        rects["slider:" + id] = UI.lastItemRect
        if keys.count == 1, !spec.respawn { MidiLearn.gesture(.param(keys[0]), model: model, dispatch: dispatch) }
        for e in events {
            switch e {
            case .begin: dispatch(.beginEdit)
            case .set(let v): set(spec.clamp(v))
            case .end: dispatch(.endEdit)
            }
        }
        helpAndLock(id, lockIDs: keys.map(\.id), model, dispatch)
    }

    /// The help marker (tooltip on hover, popover on click) and the lock box
    /// of control `id`; the lock covers `lockIDs` (every species on the All tab).
    private mutating func helpAndLock(_ id: String, lockIDs: [String], _ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let words = ControlWordTable.words(id) ?? ControlWords(label: id, hint: "")
        UI.sameLine()
        let help = PreciseSlider.helpMarker(words.label, words.hint)
        rects["help:" + id] = help.rect
        if help.open { openHelp = id }
        UI.sameLine()
        let locked = model.locks.contains(id) || lockIDs.allSatisfy { model.locks.contains($0) }
        // A padlock, closed or open: the state is seen, and spoken ("Lock Bloom, unlocked").
        if "##lock".withCString({ ig_lock_button($0, locked, Self.lockWidth) }) {
            for k in lockIDs where model.locks.contains(k) == locked { dispatch(.toggleLock(k)) }
        }
        rects["lock:" + id] = UI.lastItemRect
        if ig_is_item_hovered(0) { UI.tooltip((locked ? "Locked. " : "Unlocked. ") + ControlWordTable.lockHint(words.label)) }
    }

    /// The table's hint as the last item's tooltip.
    static func hint(_ id: String) {
        if ig_is_item_hovered(0) { UI.tooltip(ControlWordTable.hint(id)) }
    }

    private mutating func choiceRow(_ spec: OtherParamSpec, current: String, _ model: AppModel, _ dispatch: (AppAction) -> Void,
                                    _ pick: (String) -> Void) {
        UI.pushID(spec.id)
        defer { UI.popID() }
        UI.fittedText(spec.label, room: labelColumn)
        UI.sameLine(labelWidth)
        ig_set_next_item_width(sliderWidth)
        if UI.beginCombo("##c", preview: Self.preview(current, width: sliderWidth)) {
            for c in spec.choices where UI.selectable(c, selected: c == current) { pick(c) }
            ig_end_combo()
        }
        rects["choice:" + spec.id] = UI.lastItemRect
        helpAndLock(spec.id, lockIDs: [spec.id], model, dispatch)
    }

    private mutating func colorRow(_ id: String, _ label: String, _ c: RGBColor, _ model: AppModel, _ dispatch: (AppAction) -> Void,
                                   _ set: (RGBColor) -> Void) {
        UI.pushID(id)
        defer { UI.popID() }
        UI.fittedText(label, room: labelColumn)
        UI.sameLine(labelWidth)
        var rgb: [Float] = [Float(c.r) / 255, Float(c.g) / 255, Float(c.b) / 255]
        ig_set_next_item_width(sliderWidth)
        let changed = "##col".withCString { ig_color_edit3($0, &rgb, 0) }
        rects["color:" + id] = UI.lastItemRect
        if changed {
            func b(_ v: Float) -> UInt8 { UInt8(min(max(v, 0), 1) * 255 + 0.5) }
            let n = RGBColor(r: b(rgb[0]), g: b(rgb[1]), b: b(rgb[2]))
            if n != c { set(n) }
        }
        helpAndLock(id, lockIDs: [id], model, dispatch)
    }
}
