import AppTestSupport
import Engine
import Foundation
import ImGuiShim
import Testing
import TestSupport
@testable import LiveCore
@testable import LiveApp

/// The set list panel driven by the keyboard alone, in real headless ImGui
/// frames: every control is reached, every one has words for speech, and
/// Space on its buttons edits and plays the list.
@Suite(.serialized) struct SetListPanelTests {
    /// The panel with three cues (one fading, so its beats slider shows), its actions applied to a model.
    final class Rig {
        var model = AppModel(presets: [Preset(id: "a", name: "Amber", params: .defaults), Preset(id: "b", name: "Blue", params: .defaults),
                                       Preset(id: "c", name: "Cellar", params: .defaults)])
        var panel = SetListPanel()
        var status = SetListStatus()

        init() {
            _ = model.handle(.setList(.togglePanel))
            _ = model.handle(.setList(.loaded(SetList(name: "Test", cues: [
                Cue(preset: "a", length: .bars(4)), Cue(preset: "b", length: .bars(2), transition: .fade(beats: 4)),
                Cue(preset: "c", length: .seconds(20), transition: .morph(beats: 8)),
            ]), problem: nil)))
            _ = model.handle(.setList(.select(1)))
            _ = model.handle(.jumpTo("c"))
        }

        func draw() {
            panel.draw(model: model, status: status) { _ = self.model.handle($0) }
        }
    }

    /// Moves the focus to `key` with the arrows alone (from the top, row by row,
    /// along each row and back) and presses Space on it.
    static func press(_ key: String, _ rig: Rig, _ ui: HeadlessImGui) {
        func there() -> Bool { KeyboardNavigationTests.focused(rig.panel.rects) == key }
        for _ in 0..<40 { ui.tap(ScanCode.up, rig.draw) }
        rows: for _ in 0..<40 where !there() {
            var moved = 0
            for _ in 0..<8 {
                ui.tap(ScanCode.right, rig.draw)
                moved += 1
                if there() { break rows }
            }
            for _ in 0..<moved { ui.tap(ScanCode.left, rig.draw) }
            ui.tap(ScanCode.down, rig.draw)
        }
        #expect(there(), "the focus reaches \(key)")
        ui.tap(ScanCode.space, rig.draw)
    }

    @Test func everyControlIsReachedByKeyboardAndSpoken() throws {
        let rig = Rig()
        try HeadlessImGui.run(height: 3000, navigation: true) { ui in
            ui.frames(3, rig.draw)
            let reached = KeyboardNavigationTests.walk(ui, draw: rig.draw, rects: { rig.panel.rects }) { _ in true }
            let controls = Set(rig.panel.rects.keys).subtracting(["window"])
            KeyboardNavigationTests.expectReached(controls, reached)
            #expect(controls.isSuperset(of: ["setlist:go", "setlist:back", "setlist:hold", "setlist:skip", "setlist:stop", "setlist:cue:0",
                                             "setlist:cue:2", "setlist:unit", "setlist:length", "setlist:transition", "setlist:beats",
                                             "setlist:add", "setlist:up", "setlist:down", "setlist:duplicate", "setlist:delete"]),
                    "\(controls.sorted())")
            let silent = controls.filter { ControlSpeech.describe($0, model: rig.model) == nil }
            #expect(silent.isEmpty, "speech names every control: \(silent.sorted())")
        }
    }

    @Test func spaceOnItsButtonsEditsAndPlaysTheList() throws {
        let rig = Rig()
        try HeadlessImGui.run(height: 3000, navigation: true) { ui in
            ui.frames(3, rig.draw)
            Self.press("setlist:add", rig, ui)
            #expect(rig.model.setList.list.cues.map(\.preset) == ["a", "b", "c", "c"], "the loaded preset added after the selected cue")
            Self.press("setlist:duplicate", rig, ui)
            #expect(rig.model.setList.list.cues.count == 5)
            Self.press("setlist:up", rig, ui)
            Self.press("setlist:delete", rig, ui)
            #expect(rig.model.setList.list.cues.count == 4)
            Self.press("setlist:go", rig, ui)
            #expect(rig.model.setList.transport == .playing)
            Self.press("setlist:hold", rig, ui)
            #expect(rig.model.setList.transport == .held)
            Self.press("setlist:stop", rig, ui)
            #expect(rig.model.setList.transport == .stopped)
        }
    }
}
