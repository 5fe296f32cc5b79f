import AppTestSupport
import Testing
@testable import LiveApp

/// A panel test rig driven like a user would: the pointer moves to an item
/// (by the rectangle the panel reports), clicks it, types into a field.
/// Rigs provide `draw` (one frame of their panel) and `rect(_:)`.
protocol PanelDriving {
    /// One frame of the rig's panels (inside an ImGui frame).
    func draw()
    /// The rectangle the panel recorded for item `name`.
    func rect(_ name: String) throws -> UI.Rect
}

extension PanelDriving {
    /// The pointer over an item, two frames (hover state settles).
    func hover(_ ui: HeadlessImGui, _ name: String) throws {
        ui.moveMouse(to: try rect(name).center)
        ui.frames(2, draw)
    }

    /// Moves to an item and clicks it.
    func click(_ ui: HeadlessImGui, _ name: String) throws {
        try hover(ui, name)
        ui.click(draw)
        ui.frame(draw)
    }

    /// Clicks a text field, selects all, types `text`.
    func type(_ ui: HeadlessImGui, into field: String, _ text: String) throws {
        try click(ui, field)
        ui.mods(ctrl: true)
        ui.tap(ScanCode.a, draw)
        ui.mods()
        ui.type(text)
        ui.frame(draw)
    }
}
