import Engine
import ImGuiShim
import LiveCore

/// The preset library panel: search, the 24 user slots and the factory
/// presets (click a row to load it and select it), actions on the selected
/// row (save here, rename, move, pin, delete, export), import, keep only
/// pinned, reset to factory, the auto-cycle switches, and the yes/no question
/// destructive actions ask.
///
/// Rows show a thumbnail when the shell supplies GL textures through
/// `thumbnailTexture` (the presenter owns GL); otherwise a text list.
/// Main thread only (ImGui). It reads the model and emits actions.
struct LibraryPanel {
    /// Screen rectangles of the last frame's items (tests aim the mouse with
    /// them; rows scrolled out of the list are absent): "search", "name", "row:slot:<i>", "row:factory:<id>",
    /// "save", "rename", "up", "down", "pin", "delete", "export", "exportPath",
    /// "import", "importPath", "keepPinned", "reset", "cycle", "pinnedOnly",
    /// "dwell", "yes", "no", "window".
    private(set) var rects: [String: UI.Rect] = [:]
    /// The search text.
    var query = ""
    /// The name typed for saving and renaming.
    var name = ""
    /// The selected row: a user slot or a factory preset id.
    var selection: Selection?
    var importPath = ""
    var exportPath = "~/physarum-presets/"
    /// GL texture of a user preset's thumbnail, if the shell has one loaded.
    var thumbnailTexture: ((String) -> UInt32?)?
    /// Seconds until the auto-cycle's next switch (from the last `CycleOutput`).
    var untilNext: Double?
    var width: Float = 430
    /// Take the keyboard focus on the next draw (set when the user opens it).
    var focusOnNextDraw = false
    /// The list's visible band this frame (rows outside it get no rect).
    private var listTop: Float = 0
    private var listBottom: Float = 0
    /// Where the window goes this frame (the shell's tile); nil: where the user left it.
    var tile: UI.Rect?
    /// The list's scroll position at the end of the last frame.
    private(set) var listScrollY: Float = 0

    /// What a row stands for.
    enum Selection: Equatable {
        case slot(Int)
        case factory(String)
    }

    /// Draws the panel window.
    mutating func draw(model: AppModel, dispatch: (AppAction) -> Void) {
        let lib = model.library
        rects.removeAll(keepingCapacity: true)
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        let u = UI.unit, top = ig_get_frame_height() + 8
        if tile == nil {
            ig_set_next_window_pos(dw - 8, top, UI.Cond.firstUseEver, 1, 0)  // right edge, below the menu bar
            ig_set_next_window_size(min(width * u, dw - 16), min(590 * u, dh - top - 8), UI.Cond.firstUseEver)
            // Never larger than the window at any UI scale (the list scrolls).
            ig_set_next_window_size_constraints(0, 0, dw - 16, dh - top - 8)
        }
        defer { ig_end() }
        // Does not take focus when it first appears at start (the parameter editor keeps it).
        guard UI.beginTiled("Library", id: "Library", tile: tile, focus: &focusOnNextDraw) else { return }
        rects["window"] = UI.currentWindowRect
        if let problem = lib.loadProblem {
            UI.wrappedText("Library file not loaded (kept as is): " + problem, UIStyle.theme.text.error)
        }
        cycleControls(model, dispatch)
        UI.separator()
        ig_set_next_item_width(-1)
        _ = UI.inputText("##search", &query, capacity: 128, hint: "Search name or tag")
        rects["search"] = UI.lastItemRect
        list(model, dispatch)
        selectionBar(model, dispatch)
        UI.separator()
        fileRow(model, dispatch)
        confirmation(lib, dispatch)
    }

    private mutating func cycleControls(_ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let check = ig_get_frame_height() + ig_style_item_spacing_x()
        var on = model.playlistOn
        if UI.checkbox("Auto-cycle", &on) { dispatch(.togglePlaylist) }
        rects["cycle"] = UI.lastItemRect
        ParamEditor.hint("cycle")
        UI.sameLineIfRoom(check + ig_calc_text_width("Pinned only"))
        var pinned = model.live.cycle.pinnedOnly
        if UI.checkbox("Pinned only", &pinned) { dispatch(.live(.setPinnedOnly(pinned))) }
        rects["pinnedOnly"] = UI.lastItemRect
        ParamEditor.hint("pinnedOnly")
        let r = CycleSettings.dwellRange
        let spec = PreciseSlider.Spec(min: r.lowerBound, max: r.upperBound, logarithmic: true, format: "dwell %.0f s")
        let dwellWidth = 110 * UI.unit
        UI.sameLineIfRoom(dwellWidth)
        for case .set(let dwell) in PreciseSlider.draw("##dwell", value: model.live.cycle.dwell, spec: spec, width: min(dwellWidth, UI.lineRoom)) {
            dispatch(.live(.setDwell(dwell)))
        }
        rects["dwell"] = UI.lastItemRect
        ParamEditor.hint("dwell")
        if model.playlistOn, let t = untilNext {
            let next = "next in \(Int(t.rounded(.up))) s"
            UI.sameLineIfRoom(ig_calc_text_width(next))
            UI.fittedText(next, color: UIStyle.theme.text.dim)
        }
    }

    private mutating func list(_ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let lib = model.library
        let searching = !query.trimmingSpaces.isEmpty
        let u = UI.unit
        let rowHeight: Float = 36 * u  // thumbnail rows (64×36 at 1×)
        // The list takes what the buttons below it leave, at least three rows (the panel scrolls then).
        var aw: Float = 0, ah: Float = 0
        ig_get_content_region_avail(&aw, &ah)
        let below = 6 * (ig_get_frame_height() + 2 * ig_style_item_spacing_x())
        let listHeight = max(3 * rowHeight, min(330 * u, ah - below))
        _ = "##rows".withCString { ig_begin_child($0, 0, listHeight, true, UI.WindowFlags.navFlattened) }
        defer {
            listScrollY = ig_get_scroll_y()
            ig_end_child()
        }
        var x: Float = 0, w: Float = 0
        ig_get_window_pos(&x, &listTop)
        ig_get_window_size(&w, &listBottom)
        listBottom += listTop
        if searching {
            let found = lib.search(query)
            if found.isEmpty { UI.wrappedText("Nothing matches \"\(query)\"", UIStyle.theme.text.dim) }
            for item in found {
                if let s = item.slot { slotRow(s, lib.slots[s], model, rowHeight, dispatch) } else { factoryRow(item, model, dispatch) }
            }
            return
        }
        UI.wrappedText("Your slots (keys 1…0, Shift+1…0, G for all)", UIStyle.theme.text.dim)
        for s in 0..<LibraryDocument.slotCount { slotRow(s, lib.slots[s], model, rowHeight, dispatch) }
        UI.fittedText("Factory presets", color: UIStyle.theme.text.dim)
        for item in lib.items where item.slot == nil { factoryRow(item, model, dispatch) }
    }

    private mutating func slotRow(_ i: Int, _ slot: UserSlot?, _ model: AppModel, _ rowHeight: Float, _ dispatch: (AppAction) -> Void) {
        UI.pushID("slot\(i)")
        defer { UI.popID() }
        var height: Float = 0
        if let slot, let tex = thumbnailTexture?(slot.preset.id) {
            ig_image(tex, rowHeight * 16 / 9, rowHeight)
            rects["thumb:slot:\(i)"] = UI.lastItemRect
            UI.sameLine()
            height = rowHeight
        }
        let label: String
        if let slot {
            let tags = slot.preset.tags.isEmpty ? "" : "  · " + slot.preset.tags.joined(separator: ", ")
            label = "\(i + 1). " + (slot.pinned ? "● " : "") + slot.preset.name + tags
        } else {
            label = "\(i + 1). —"
        }
        let current = slot != nil && model.currentPreset?.id == slot?.preset.id
        if UI.fittedRow(label, id: "row", selected: selection == .slot(i) || current, height: height) {
            selection = .slot(i)
            if let slot {
                name = slot.preset.name
                dispatch(.library(.jumpToSlot(i)))
            }
        }
        recordRow("row:slot:\(i)")
    }

    private mutating func factoryRow(_ item: LibraryItem, _ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let p = item.preset
        UI.pushID("factory:" + p.id)
        defer { UI.popID() }
        let tags = p.tags.isEmpty ? "" : "  · " + p.tags.joined(separator: ", ")
        let label = (item.pinned ? "● " : "") + p.name + tags
        var height: Float = 0
        if let tex = thumbnailTexture?(p.id) {
            let h = 36 * UI.unit
            ig_image(tex, h * 16 / 9, h)
            rects["thumb:factory:" + p.id] = UI.lastItemRect
            UI.sameLine()
            height = h
        }
        if UI.fittedRow(label, id: "row", selected: selection == .factory(p.id) || model.currentPreset?.id == p.id, height: height) {
            selection = .factory(p.id)
            dispatch(.jumpTo(p.id))
        }
        recordRow("row:factory:" + p.id)
    }

    /// Records a row's rectangle when it is scrolled into view.
    private mutating func recordRow(_ key: String) {
        let r = UI.lastItemRect
        if r.y0 >= listTop && r.y1 <= listBottom { rects[key] = r }
    }

    /// Buttons acting on the selected row (disabled-looking when they cannot apply).
    private mutating func selectionBar(_ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let lib = model.library
        ig_set_next_item_width(-1)
        _ = UI.inputText("##name", &name, capacity: 4 * LibraryModel.maxNameLength + 1, hint: "Name (for Save / Rename)")
        rects["name"] = UI.lastItemRect
        let slot: Int? = if case .slot(let s) = selection { s } else { nil }
        let occupied = slot.map { lib.slots[$0] != nil } ?? false
        let pinID: String? = switch selection {
        case .slot(let s): lib.slots[s]?.preset.id
        case .factory(let id): id
        case nil: nil
        }
        if button("Save here", "save", enabled: slot != nil) {
            let n = name.trimmingSpaces.isEmpty ? (model.currentPreset?.name ?? "Look \(slot! + 1)") : name
            dispatch(.library(.saveToSlot(slot!, name: n)))
        }
        ParamEditor.hint("save")
        UI.sameLineIfRoom(UI.buttonWidth("Rename"))
        if button("Rename", "rename", enabled: occupied) { dispatch(.library(.renameSlot(slot!, name))) }
        UI.sameLineIfRoom(UI.buttonWidth("↑"))
        if button("↑", "up", enabled: slot.map { $0 > 0 } ?? false) {
            dispatch(.library(.moveSlot(slot!, by: -1)))
            selection = .slot(slot! - 1)
        }
        UI.sameLineIfRoom(UI.buttonWidth("↓"))
        if button("↓", "down", enabled: slot.map { $0 < LibraryDocument.slotCount - 1 } ?? false) {
            dispatch(.library(.moveSlot(slot!, by: 1)))
            selection = .slot(slot! + 1)
        }
        let pinned = pinID.map(lib.isPinned) ?? false
        UI.sameLineIfRoom(UI.buttonWidth("Unpin"))
        if button(pinned ? "Unpin" : "Pin", "pin", enabled: pinID != nil) { dispatch(.library(.togglePin(pinID!))) }
        UI.sameLineIfRoom(UI.buttonWidth("Delete"))
        if button("Delete", "delete", enabled: occupied) { dispatch(.library(.deleteSlot(slot!))) }
    }

    private mutating func fileRow(_ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let lib = model.library
        let exportID: String? = switch selection {
        case .slot(let s): lib.slots[s]?.preset.id
        case .factory(let id): id
        case nil: model.currentPreset?.id
        }
        if let path = FormRows.path("export", button: "Export", &exportPath, hint: "Export to file or folder",
                                    enabled: exportID != nil, rects: &rects) {
            dispatch(.library(.exportPreset(id: exportID!, path: path)))
        }
        if let path = FormRows.path("import", button: "Import", &importPath, hint: "Preset JSON file to import", rects: &rects) {
            dispatch(.library(.importPreset(path: path)))
        }
        if button("Keep only pinned", "keepPinned", enabled: lib.userCount > 0) { dispatch(.library(.keepOnlyPinned)) }
        UI.sameLineIfRoom(UI.buttonWidth("Reset to factory"))
        if button("Reset to factory", "reset", enabled: true) { dispatch(.library(.resetToFactory)) }
    }

    /// The yes/no question of a pending destructive action (a modal popup).
    private mutating func confirmation(_ lib: LibraryModel, _ dispatch: (AppAction) -> Void) {
        switch ConfirmPopup.draw("Confirm##library", question: lib.pending.map { $0.question(lib) }, rects: &rects) {
        case .yes: dispatch(.library(.confirm))
        case .no: dispatch(.library(.cancel))
        case nil: break
        }
    }

    /// A button that looks dimmed and does nothing when disabled.
    private mutating func button(_ label: String, _ key: String, enabled: Bool) -> Bool {
        FormRows.button(label, key, enabled: enabled, rects: &rects)
    }
}
