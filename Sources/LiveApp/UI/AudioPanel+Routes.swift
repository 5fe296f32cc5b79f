import AudioReactive
import Engine
import ImGuiShim
import LiveCore

/// The route editor of the audio panel. Rect keys: "addRoute",
/// "defaultWiring", "routesUndo", "routesRedo", and per route i
/// "route:i:mute|solo|dup|remove|source|mode|target|depthLabel|depth|smoothing|curve|invert|activity";
/// in open pickers "sourceItem:<band>", "modeItem:<mode>", "targetSearch", "targetItem:<id>".
extension AudioPanel {
    mutating func routes(_ model: AppModel, _ live: AudioLiveView, _ dispatch: (AppAction) -> Void) {
        let routes = model.audio.config.routes
        if button("Add route", "addRoute") { dispatch(.audio(.addRoute)) }
        UI.sameLineIfRoom(UI.buttonWidth("Apply default wiring"))
        if button("Apply default wiring", "defaultWiring") { dispatch(.audio(.applyDefaultWiring)) }
        if ig_is_item_hovered(0) { UI.tooltip("Replace the routes with the starter wiring (bass → speed, hits → glow and chaos, …)") }
        UI.sameLineIfRoom(UI.buttonWidth("Undo"))
        if button("Undo", "routesUndo", enabled: model.audio.history.canUndo) { dispatch(.audio(.undo)) }
        UI.sameLineIfRoom(UI.buttonWidth("Redo"))
        if button("Redo", "routesRedo", enabled: model.audio.history.canRedo) { dispatch(.audio(.redo)) }
        if routes.isEmpty { UI.wrappedText("No routes: sound does not move the picture.", UIStyle.theme.text.dim) }
        for (i, r) in routes.enumerated() {
            UI.pushID("route\(i)")
            routeRow(i, r, activity: i < live.activity.count ? live.activity[i] : 0, model, dispatch)
            UI.popID()
            UI.separator()
        }
    }

    private mutating func routeRow(_ i: Int, _ r: Route, activity: Double, _ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let k = "route:\(i):", u = UI.unit
        let check = ig_get_frame_height() + ig_style_item_spacing_x() + ig_calc_text_width("M")
        // Line 1: mute, solo, source, mode, duplicate, remove (flowing onto more lines when narrow).
        var muted = r.muted
        if UI.checkbox("M", &muted) { dispatch(.audio(.toggleMute(i))) }
        record(k + "mute")
        if ig_is_item_hovered(0) { UI.tooltip("Mute: silence this route (kept and saved)") }
        UI.sameLineIfRoom(check)
        var solo = r.solo
        if UI.checkbox("S", &solo) { dispatch(.audio(.toggleSolo(i))) }
        record(k + "solo")
        if ig_is_item_hovered(0) { UI.tooltip("Solo: while any route is solo, only solo routes play (not saved)") }
        let sourceWidth = min(100 * u, UI.lineRoom), modeWidth = min(96 * u, UI.lineRoom)
        UI.sameLineIfRoom(sourceWidth)
        choiceCombo("source", r.source, width: min(sourceWidth, UI.lineRoom), key: k + "source") { dispatch(.audio(.setSource(i, $0))) }
        UI.sameLineIfRoom(modeWidth)
        choiceCombo("mode", r.mode, width: min(modeWidth, UI.lineRoom), key: k + "mode") { dispatch(.audio(.setMode(i, $0))) }
        UI.sameLineIfRoom(UI.buttonWidth("?"))
        UI.pushID("modeHelp")
        PreciseSlider.helpMarker("Source and mode", Self.routeHelp["source"]! + " " + Self.routeHelp["mode"]!)
        UI.popID()
        UI.sameLineIfRoom(UI.buttonWidth("Duplicate"))
        if UI.fittedButton("Duplicate", small: true) { dispatch(.audio(.duplicateRoute(i))) }
        record(k + "dup")
        UI.sameLineIfRoom(UI.buttonWidth("Remove"))
        if UI.fittedButton("Remove", small: true) { dispatch(.audio(.removeRoute(i))) }
        record(k + "remove")
        // Line 2: target picker.
        UI.fittedText("Target", room: labelWidth - ig_style_window_padding_x() - ig_style_item_spacing_x())
        UI.sameLine(labelWidth)
        targetPicker(i, r, dispatch)
        UI.sameLine()
        UI.pushID("targetHelp")
        PreciseSlider.helpMarker("Target", Self.routeHelp["target"]!)
        UI.popID()
        // Line 3: depth (precise editing) and the live activity meter.
        UI.pushID("depth")
        if PreciseSlider.resetLabel("Depth", tooltip: "Double-click to reset to the saved depth",
                                    room: labelWidth - ig_style_window_padding_x() - ig_style_item_spacing_x()) {
            dispatch(.audio(.resetDepth(i)))
        }
        record(k + "depthLabel")
        UI.sameLine(labelWidth)
        let depthSpec = PreciseSlider.Spec(min: Route.depthRange.lowerBound, max: Route.depthRange.upperBound, format: "%.3f")
        editSlider(r.depth, depthSpec, width: sliderWidth * 0.62, dispatch) { .setDepth(i, $0) }
        record(k + "depth")
        MidiLearn.gesture(.routeDepth(i), model: model, dispatch: dispatch)
        UI.sameLine()
        PreciseSlider.helpMarker("Depth", Self.routeHelp["depth"]!)
        UI.popID()
        UI.sameLineIfRoom(min(70 * u, UI.lineRoom))
        rects[k + "activity"] = AudioMeters.activity(activity, width: min(70 * u, UI.lineRoom))
        if ig_is_item_hovered(0) { UI.tooltip(String(format: "%+.3f of the target's range right now. ", activity) + Self.routeHelp["activity"]!) }
        // Line 4: shaping.
        shaping(i, r, dispatch)
    }

    private mutating func shaping(_ i: Int, _ r: Route, _ dispatch: (AppAction) -> Void) {
        let k = "route:\(i):", u = UI.unit
        let smoothSpec = PreciseSlider.Spec(min: Route.smoothingRange.lowerBound, max: 2000, logarithmic: true, format: "smooth %.0f ms")
        UI.pushID("smoothing")
        editSlider(r.smoothing ?? 0, smoothSpec, width: min(150 * u, UI.lineRoom), dispatch) { .setSmoothing(i, $0) }
        record(k + "smoothing")
        if ig_is_item_hovered(0) { UI.tooltip(Self.routeHelp["smoothing"]!) }
        UI.popID()
        UI.sameLineIfRoom(120 * u)
        UI.pushID("curve")
        let curveSpec = PreciseSlider.Spec(min: Route.curveRange.lowerBound, max: Route.curveRange.upperBound, logarithmic: true, format: "curve %.2f")
        editSlider(r.curve, curveSpec, width: min(120 * u, UI.lineRoom), dispatch) { .setCurve(i, $0) }
        record(k + "curve")
        if ig_is_item_hovered(0) { UI.tooltip(Self.routeHelp["curve"]!) }
        UI.popID()
        UI.sameLineIfRoom(ig_get_frame_height() + ig_style_item_spacing_x() + ig_calc_text_width("Invert"))
        var inv = r.invert
        if UI.checkbox("Invert", &inv) { dispatch(.audio(.setInvert(i, inv))) }
        record(k + "invert")
        if ig_is_item_hovered(0) { UI.tooltip(Self.routeHelp["invert"]!) }
    }

    /// A combo over the cases of `T` (its raw values are the labels); records the combo under `key`
    /// and each open item under "<id>Item:<value>".
    private mutating func choiceCombo<T: CaseIterable & RawRepresentable & Equatable>(
        _ id: String, _ current: T, width: Float, key: String, pick: (T) -> Void
    ) where T.RawValue == String {
        ig_set_next_item_width(width)
        let rect = Self.nextRect(width: width)
        if UI.beginCombo("##" + id, preview: ParamEditor.preview(current.rawValue, width: width)) {
            for c in T.allCases {
                if UI.selectable(c.rawValue, selected: c == current) { pick(c) }
                record(id + "Item:" + c.rawValue)
            }
            ig_end_combo()
        }
        rects[key] = rect
    }

    /// A combo listing only valid targets, grouped by section, with a search field.
    private mutating func targetPicker(_ i: Int, _ r: Route, _ dispatch: (AppAction) -> Void) {
        ig_set_next_item_width(sliderWidth)
        rects["route:\(i):target"] = Self.nextRect(width: sliderWidth)
        let heightLarge: Int32 = 1 << 3
        let preview = ParamEditor.preview(RouteTargetCatalog.name(of: r.target.id), width: sliderWidth)
        let open = "##target".withCString { l in preview.withCString { ig_begin_combo(l, $0, heightLarge) } }
        guard open else {
            if targetPickerOpen == i { targetPickerOpen = nil }
            return
        }
        if targetPickerOpen != i {
            targetPickerOpen = i
            targetQuery = ""
            ig_set_keyboard_focus_here(0)
        }
        ig_set_next_item_width(-1)
        _ = UI.inputText("##targetSearch", &targetQuery, capacity: 64, hint: "Search targets")
        record("targetSearch")
        let groups = RouteTargetCatalog.search(targetQuery)
        if groups.isEmpty { UI.textDisabled("No target matches \"\(targetQuery)\"") }
        for g in groups {
            UI.textDisabled(g.group)
            for item in g.items {
                if UI.selectable("  \(item.name)##\(item.id)", selected: item.id == r.target.id) {
                    dispatch(.audio(.setTarget(i, item.id)))
                    ig_close_current_popup()
                }
                record("targetItem:" + item.id)
            }
        }
        ig_end_combo()
    }

    /// The rectangle the next item of `width` will take (combos: their popups change the last item).
    static func nextRect(width: Float) -> UI.Rect {
        var x: Float = 0, y: Float = 0
        ig_get_cursor_screen_pos(&x, &y)
        return UI.Rect(x0: x, y0: y, x1: x + width, y1: y + ig_get_frame_height())
    }
}
