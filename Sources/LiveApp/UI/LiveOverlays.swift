import ImGuiShim
import LiveCore

extension UI.StyleVar {
    /// ImGuiStyleVar_Alpha (imgui.h 1.86).
    static let alpha: Int32 = 0
}

extension UI {
    /// Colour slots mirrored from imgui.h 1.86 (ImGuiCol_).
    enum Col {
        static let button: Int32 = 21
    }

    /// The name of the window being drawn ("##Menu_00" inside an open menu).
    static var currentWindowName: String { String(cString: ig_current_window_name()) }

    /// The rectangle of the window being drawn.
    static var currentWindowRect: Rect {
        var r = Rect(x0: 0, y0: 0, x1: 0, y1: 0)
        var w: Float = 0, h: Float = 0
        ig_get_window_pos(&r.x0, &r.y0)
        ig_get_window_size(&w, &h)
        r.x1 = r.x0 + w
        r.y1 = r.y0 + h
        return r
    }
}

/// The key-binding overlay (? or F1): every binding from `KeyMap.bindings`,
/// centred over the output. Main thread only (ImGui).
struct KeyHelpOverlay {
    /// "line:<keys>", "close" and "window" rectangles of the last frame.
    private(set) var rects: [String: UI.Rect] = [:]

    mutating func draw(dispatch: (AppAction) -> Void) {
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        ig_set_next_window_pos(0.5 * dw, 0.5 * dh, UI.Cond.always, 0.5, 0.5)
        ig_set_next_window_bg_alpha(0.88)
        // Never larger than the window: at large UI scales the list scrolls.
        ig_set_next_window_size_constraints(0, 0, dw - 16, dh - 16)
        defer { ig_end() }
        let flags = UI.WindowFlags.noTitleBar | UI.WindowFlags.noResize | UI.WindowFlags.noCollapse | UI.WindowFlags.alwaysAutoResize
            | UI.WindowFlags.noSavedSettings | UI.WindowFlags.noMove
        rects.removeAll(keepingCapacity: true)
        guard "Keys##overlay".withCString({ ig_begin($0, nil, flags) }) else { return }
        rects["window"] = UI.currentWindowRect
        UI.text("Keys")
        UI.separator()
        // The key column as wide as its longest entry at the current font.
        let keyColumn = ig_style_window_padding_x() + (KeyMap.bindings.map { ig_calc_text_width($0.keys) }.max() ?? 0)
            + 2 * ig_style_item_spacing_x()
        for b in KeyMap.bindings {
            UIStyle.text(b.keys, UIStyle.theme.text.accent)
            rects["line:" + b.keys] = UI.lastItemRect
            UI.sameLine(keyColumn)
            UI.text(b.help)
        }
        UI.separator()
        UI.textDisabled("Single keys are ignored while typing in a text field.")
        if UI.button("Close (? or F1)") { dispatch(.live(.toggleKeyHelp)) }
        rects["close"] = UI.lastItemRect
    }
}

/// The slot picker (G): all 24 user slots as a grid; a click loads the slot
/// and closes the picker. Main thread only (ImGui).
struct SlotPicker {
    /// "pick:<slot>", "close" and "window" rectangles of the last frame.
    private(set) var rects: [String: UI.Rect] = [:]

    mutating func draw(model: AppModel, dispatch: (AppAction) -> Void) {
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        ig_set_next_window_pos(0.5 * dw, 0.5 * dh, UI.Cond.always, 0.5, 0.5)
        defer { ig_end() }
        let flags = UI.WindowFlags.alwaysAutoResize | UI.WindowFlags.noSavedSettings | UI.WindowFlags.noCollapse
        guard "Slots##picker".withCString({ ig_begin($0, nil, flags) }) else { return }
        rects["window"] = UI.currentWindowRect
        let columns = 6
        for i in 0..<LibraryDocument.slotCount {
            if i % columns != 0 { UI.sameLine() }
            let slot = model.library.slots[i]
            let name = slot.map { String($0.preset.name.prefix(14)) } ?? "—"
            let current = slot != nil && slot?.preset.id == model.currentPreset?.id
            if current { ig_push_style_color(UI.Col.button, 0.55, 0.35, 0.1, 1) }
            if !(slot != nil) { ig_push_style_var_float(UI.StyleVar.alpha, 0.45) }
            let pressed = "\(i + 1)\n\(name)##pick\(i)".withCString { ig_button($0, 120, 44) }
            if !(slot != nil) { ig_pop_style_var(1) }
            if current { ig_pop_style_color(1) }
            rects["pick:\(i)"] = UI.lastItemRect
            if pressed, slot != nil {
                dispatch(.library(.jumpToSlot(i)))
                dispatch(.live(.toggleSlotPicker))
            }
        }
        if UI.button("Close (G)") { dispatch(.live(.toggleSlotPicker)) }
        rects["close"] = UI.lastItemRect
    }
}

/// Small status badges in the bottom-right corner: recording (● REC time,
/// dropped frames), blackout, auto-cycle countdown. Never takes input.
enum LiveIndicators {
    /// The badge texts for the current state (pure; tests read it).
    static func badges(model: AppModel, recording: RecordingStatus, untilNext: Double?) -> [(text: String, red: Bool)] {
        var out: [(String, Bool)] = []
        switch recording.phase {
        case .starting:
            out.append(("● REC starting…", true))
        case .recording:
            let s = Int(recording.seconds)
            var t = String(format: "● REC %d:%02d", s / 60, s % 60)
            if recording.dropped > 0 { t += " · \(recording.dropped) dropped" }
            out.append((t, true))
        case .finishing:
            out.append(("saving video…", false))
        case .idle:
            break
        }
        if model.live.blackout { out.append(("BLACKOUT (B)", true)) }
        if model.playlistOn {
            out.append((untilNext.map { "CYCLE · next in \(Int($0.rounded(.up))) s" } ?? "CYCLE", false))
        }
        return out
    }

    /// Draws the badges on the foreground draw list, bottom-right (notices
    /// are top-right, the stats overlay bottom-left).
    static func draw(model: AppModel, recording: RecordingStatus, untilNext: Double?) {
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        var y: Float = dh - 34
        for b in badges(model: model, recording: recording, untilNext: untilNext) {
            let w = b.text.withCString { ig_calc_text_width($0) }
            let x = dw - w - 18
            let t = UIStyle.theme
            ig_fg_draw_rect_filled(x - 8, y - 4, x + w + 8, y + 20, UIStyle.word(t.surface.popup), 4)
            b.text.withCString { ig_fg_draw_text(x, y, UIStyle.word(b.red ? t.text.error : t.text.normal), $0) }
            y -= 28
        }
    }
}

/// Everything of issue 8 the frame loop draws, honouring H (hide all), Tab
/// (panels) and the overlay toggles — one call per frame inside the ImGui frame.
struct LivePanels {
    var library = LibraryPanel()
    var keyHelp = KeyHelpOverlay()
    var slotPicker = SlotPicker()
    /// Whether the library was open in the last frame (nil before the first).
    private var libraryWasOpen: Bool?

    /// Draws the visible pieces. `recording` and `cycle` are this frame's
    /// recorder status and auto-cycle output.
    mutating func draw(model: AppModel, recording: RecordingStatus, cycle: CycleOutput?, dispatch: (AppAction) -> Void) {
        guard !model.live.allHidden else { return }
        library.untilNext = cycle?.untilNext
        // Opened by the user (L, the menu): it takes the keyboard focus, as the audio panel does.
        let libraryOpen = model.live.libraryPanelVisible
        if libraryOpen, libraryWasOpen == false { library.focusOnNextDraw = true }
        libraryWasOpen = libraryOpen
        if model.uiVisible && libraryOpen { library.draw(model: model, dispatch: dispatch) }
        if model.live.slotPickerOpen { slotPicker.draw(model: model, dispatch: dispatch) }
        if model.live.keyHelpVisible { keyHelp.draw(dispatch: dispatch) }
        // With the panels shown the badges sit in the menu bar (LivePanelsFrame), clear of every panel.
        if !model.uiVisible { LiveIndicators.draw(model: model, recording: recording, untilNext: cycle?.untilNext) }
    }
}
