import ImGuiShim
import LiveCore

/// The MIDI learn gesture on any control: right-click the last item to arm
/// learn on its target (again to disarm); while armed, the item shows a
/// hint and the next CC, note or pitch bend binds it. Call right after the item.
enum MidiLearn {
    static func gesture(_ target: ControlTarget, model: AppModel, dispatch: (AppAction) -> Void) {
        if ig_is_item_clicked(1) { dispatch(.control(.learn(target))) }
        if model.control.learning == target {
            if ig_is_item_hovered(0) { UI.tooltip("MIDI learn: move a knob, fader or pad to bind it (right-click again to cancel)") }
            UI.sameLine()
            UIStyle.text("MIDI?", UIStyle.theme.text.warning)
        } else if ig_is_item_hovered(0), ig_is_mouse_clicked(1) == false, let b = model.control.bindings.first(where: { $0.target == target }) {
            UI.tooltip("MIDI: \(b.control.label) (\(b.mode.label)); right-click to learn again")
        }
    }
}
