import ImGuiShim
import LiveCore

/// The main menu bar: view toggles and the projector output window.
/// Main thread only.
enum MenuBar {
    /// Draws the menu bar; returns its rectangle (nil when not drawn).
    @discardableResult
    static func draw(model: AppModel, displayCount: Int, dispatch: (AppAction) -> Void) -> UI.Rect? {
        guard ig_begin_main_menu_bar() else { return nil }
        defer { ig_end_main_menu_bar() }
        let bar = UI.currentWindowRect
        if ig_begin_menu("View", true) {
            if ig_menu_item("Fullscreen", "F11", model.fullscreen, true) { dispatch(.toggleFullscreen) }
            if ig_menu_item("Panels", "Tab", model.uiVisible, true) { dispatch(.toggleUI) }
            if ig_menu_item("Stats overlay", "F3", model.overlayVisible, true) { dispatch(.toggleOverlay) }
            if ig_menu_item("Audio panel", "A", model.audio.panelVisible, true) { dispatch(.audio(.togglePanel)) }
            if ig_menu_item("Library", "L", model.live.libraryPanelVisible, true) { dispatch(.live(.toggleLibraryPanel)) }
            if ig_menu_item("MIDI & live control", nil, model.control.panelVisible, true) { dispatch(.control(.togglePanel)) }
            if ig_menu_item("Set list", "S", model.setList.panelVisible, true) { dispatch(.setList(.togglePanel)) }
            if ig_menu_item("Keys", "?", false, true) { dispatch(.live(.toggleKeyHelp)) }
            if "Notices (\(model.notices.history.count))".withCString({ ig_menu_item($0, nil, model.notices.windowOpen, true) }) {
                dispatch(.toggleNoticesWindow)
            }
            if ig_menu_item("Speak controls", nil, model.live.speechOn, true) { dispatch(.live(.toggleSpeech)) }
            ig_separator()
            if ig_menu_item("UI larger", "Ctrl +", false, true) { dispatch(.uiScaleStep(1)) }
            if ig_menu_item("UI smaller", "Ctrl -", false, true) { dispatch(.uiScaleStep(-1)) }
            ig_end_menu()
        }
        if ig_begin_menu("Output", true) {
            for d in 0..<max(1, displayCount) {
                let label = "Projector window on display \(d + 1)"
                if label.withCString({ ig_menu_item($0, nil, model.outputDisplay == d, true) }) {
                    dispatch(.outputWindow(model.outputDisplay == d ? nil : d))
                }
            }
            if ig_menu_item("Close projector window", nil, false, model.outputDisplay != nil) { dispatch(.outputWindow(nil)) }
            ig_end_menu()
        }
        if ig_begin_menu("Look", true) {
            if ig_menu_item("Undo", "Ctrl+Z", false, true) { dispatch(.undo) }
            if ig_menu_item("Redo", "Ctrl+Shift+Z", false, true) { dispatch(.redo) }
            if ig_menu_item("Next preset", "PageDown", false, true) { dispatch(.next) }
            if ig_menu_item("Previous preset", "PageUp", false, true) { dispatch(.previous) }
            ig_end_menu()
        }
        return bar
    }
}
