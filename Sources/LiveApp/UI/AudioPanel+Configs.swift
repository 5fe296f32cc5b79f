import AudioReactive
import Foundation
import ImGuiShim
import LiveCore

/// The saved-configs section of the audio panel and its yes/no question.
/// Rect keys: "config:<file name>" rows, "configName", "apply", "save",
/// "saveAs", "rename", "delete", "exportPath", "export", "importPath",
/// "import", "refreshConfigs", "yes", "no".
extension AudioPanel {
    mutating func configs(_ model: AppModel, _ dispatch: (AppAction) -> Void) {
        let a = model.audio
        let editing = a.file.map { "\(a.config.name) — \($0.path)" } ?? "\(a.config.name) (not saved to a file)"
        UI.textWrapped("Editing: " + editing + (a.isEdited ? "  · edited" : ""))
        record("editing")
        // Rows in the panel itself, not in a child list: the arrow keys did not
        // enter a child list's rows in the real window (ImGui 1.86), and the
        // panel scrolls anyway.
        if a.entries.isEmpty { UI.wrappedText("(no saved configs)", UIStyle.theme.text.dim) }
        for e in a.entries {
            var label = e.name
            if e.origin == .shipped { label += "  (shipped)" }
            if !e.isValid { label += "  — does not load" }
            let bad = UIStyle.theme.text.error
            if !e.isValid { ig_push_style_color(0, Float(bad.r), Float(bad.g), Float(bad.b), 1) }  // ImGuiCol_Text
            if UI.fittedRow(label, id: "cfg:" + e.url.path, selected: e.url == selectedConfig || (selectedConfig == nil && e.url == a.file)) {
                selectedConfig = e.url
                configName = e.name
            }
            if !e.isValid { ig_pop_style_color(1) }
            record("config:" + e.url.lastPathComponent)
            if ig_is_item_hovered(0) {
                if ig_is_mouse_double_clicked(0), e.isValid { dispatch(.audio(.applyConfig(e.url))) }
                UI.tooltip(e.problem.map { UI.wrap(label + ": " + $0, pixels: UI.readableWidth) }
                           ?? UI.wrap("\(label)\n\(e.url.path)\nDouble-click to apply", pixels: UI.readableWidth))
            }
        }
        ig_separator()
        let selected = a.entries.first { $0.url == (selectedConfig ?? a.file) }
        let isUser = selected?.origin == .user
        if button("Apply", "apply", enabled: selected?.isValid == true) { dispatch(.audio(.applyConfig(selected!.url))) }
        if ig_is_item_hovered(0) { UI.tooltip("Use the selected config (its routes and tuning replace the edited ones; Undo brings them back)") }
        UI.sameLineIfRoom(UI.buttonWidth("Save"))
        if button("Save", "save", enabled: a.file != nil) { dispatch(.audio(.save)) }
        if ig_is_item_hovered(0) { UI.tooltip("Write the edited config back to its file (your configs only; shipped ones need Save as)") }
        UI.sameLineIfRoom(UI.buttonWidth("Delete"))
        if button("Delete", "delete", enabled: isUser) { dispatch(.audio(.delete(selected!.url))) }
        UI.sameLineIfRoom(UI.buttonWidth("Refresh"))
        if button("Refresh##configs", "refreshConfigs") { dispatch(.audio(.refreshConfigs)) }
        // The name field takes what the two buttons after it leave (they go below when the panel is narrow).
        let buttons = UI.buttonWidth("Save as") + UI.buttonWidth("Rename") + 2 * ig_style_item_spacing_x()
        ig_set_next_item_width(max(6 * ig_get_frame_height(), UI.lineRoom - buttons))
        _ = UI.inputText("##configName", &configName, capacity: 4 * AudioConfig.maxNameLength + 1, hint: "Name")
        record("configName")
        UI.sameLineIfRoom(UI.buttonWidth("Save as"))
        let named = !configName.trimmingCharacters(in: .whitespaces).isEmpty
        if button("Save as", "saveAs", enabled: named) { dispatch(.audio(.saveAs(configName))) }
        UI.sameLineIfRoom(UI.buttonWidth("Rename"))
        if button("Rename", "rename", enabled: named && isUser) { dispatch(.audio(.rename(selected!.url, configName))) }
        if let path = FormRows.path("export", button: "Export", &exportPath, hint: "Export to file or folder", rects: &rects) {
            dispatch(.audio(.export(path)))
        }
        if let path = FormRows.path("import", button: "Import", &importPath, hint: "Config JSON file to import", rects: &rects) {
            dispatch(.audio(.importConfig(path)))
        }
    }

    /// The yes/no question of a pending delete or replace (a modal popup).
    mutating func confirmation(_ model: AppModel, _ dispatch: (AppAction) -> Void) {
        switch ConfirmPopup.draw("Confirm##audio", question: model.audio.pending?.question, rects: &rects) {
        case .yes: dispatch(.audio(.confirm))
        case .no: dispatch(.audio(.cancel))
        case nil: break
        }
    }
}
