import AppTestSupport
import Engine
import Foundation
import ImGuiShim
import TestSupport
import Testing
@testable import LiveCore
@testable import LiveApp

/// The library panel, key overlay and slot picker in real (headless) ImGui
/// frames, with the real action layer, library store and I/O worker, and the
/// auto-cycle ticked as the frame loop does.
final class LivePanelRig: PanelDriving {
    let shell: LibraryStoreTests.Shell
    var panels = LivePanels()
    var cycle = AutoCycle()
    var lastCycle: CycleOutput?
    var alphas: [Double] = []
    var switches: [String] = []

    init(dir: String) {
        shell = LibraryStoreTests.Shell(dir: dir)
        // The panel starts hidden in the app; L (or View ▸ Library) opens it.
        shell.dispatch(KeyMap.action(for: KeyPress(key: .letter("l")), textFocused: false)!)
    }

    var model: AppModel { shell.model }

    /// Runs `body` in a headless ImGui with a fresh rig over a new library folder, after two frames.
    static func run(_ body: (HeadlessImGui, LivePanelRig, LibraryTestDir) throws -> Void) throws {
        let dir = LibraryTestDir()
        try HeadlessImGui.run { ui in
            let rig = LivePanelRig(dir: dir.path)
            ui.frames(2, rig.draw)
            try body(ui, rig, dir)
        }
    }

    /// One frame's UI; actions go through the model and its effects to the worker.
    func draw() {
        panels.draw(model: shell.model, recording: RecordingStatus(), cycle: lastCycle) { shell.dispatch($0) }
    }

    /// A frame of the loop: tick the cycle (switches through the action layer), then the UI.
    func loopFrame(_ ui: HeadlessImGui, dt: Double = 1.0 / 60) {
        let out = cycle.tick(dt: dt, input: shell.model.cycleInput)
        lastCycle = out
        alphas.append(out.alpha)
        if let id = out.switchTo {
            switches.append(id)
            shell.dispatch(.jumpTo(id))
        }
        ui.frame(draw)
    }

    /// Key presses as the loop routes them (ImGui decides whether a text field has focus).
    func press(_ key: KeyPress) {
        for a in ShortcutRouter.actions(for: [key]) { shell.dispatch(a) }
    }

    func rect(_ name: String) throws -> UI.Rect { try #require(panels.library.rects[name], "no item \(name)") }
}

@Suite(.serialized) struct LibraryPanelTests {
    @Test func saveRenameMoveUpPinRestartLeavesTheLibraryExactlyAsLeft() throws {
        try LivePanelRig.run { ui, rig, dir in
            rig.shell.dispatch(.setParam(.exposure, 2.75))  // an edit from the parameter editor
            // Save into slot 3.
            try rig.click(ui, "row:slot:2")
            #expect(rig.panels.library.selection == .slot(2))
            try rig.type(ui, into: "name", "Night Drive")
            try rig.click(ui, "save")
            #expect(rig.model.library.slots[2]?.preset.name == "Night Drive")
            #expect(rig.model.library.slots[2]?.preset.params[.exposure] == 2.75)
            // Rename it.
            try rig.type(ui, into: "name", "Night Drive II")
            try rig.click(ui, "rename")
            #expect(rig.model.library.slots[2]?.preset.name == "Night Drive II")
            // Move it up: it is in slot 2 now, still selected.
            try rig.click(ui, "up")
            #expect(rig.model.library.slots[1]?.preset.name == "Night Drive II" && rig.model.library.slots[2] == nil)
            #expect(rig.panels.library.selection == .slot(1))
            // Pin it, and pin a factory preset too.
            try rig.click(ui, "pin")
            // Factory presets are below the 24 slots: find one by searching.
            try rig.type(ui, into: "search", "cellar")
            try rig.click(ui, "row:factory:cellar")
            try rig.click(ui, "pin")
            #expect(rig.model.library.pinnedIDs == ["user:1", "cellar"])
            rig.shell.settle()
            // Restart: a new app reads the library from disk.
            let again = LivePanelRig(dir: dir.path)
            #expect(again.model.library.document == rig.model.library.document)
            let slot = try #require(again.model.library.slots[1])
            #expect(slot.preset.name == "Night Drive II" && slot.pinned && slot.preset.params[.exposure] == 2.75)
            #expect(again.model.library.pinnedIDs == ["user:1", "cellar"])
            #expect(FileManager.default.fileExists(atPath: dir.file("physarum/thumbnails/user-1.png")))
            // And it shows: the restarted panel lists the slot under its number.
            ui.frames(2, again.draw)
            #expect(again.panels.library.rects["row:slot:1"] != nil)
        }
    }

    @Test func overwriteAsksInAModalAndNoKeepsTheSlot() throws {
        try LivePanelRig.run { ui, rig, dir in
            try rig.click(ui, "row:slot:0")
            try rig.type(ui, into: "name", "One")
            try rig.click(ui, "save")
            rig.shell.dispatch(.setParam(.exposure, 4))
            try rig.type(ui, into: "name", "Two")
            try rig.click(ui, "save")
            #expect(rig.model.library.pending == .overwrite(slot: 0, name: "Two"))
            ui.frames(2, rig.draw)
            try rig.click(ui, "no")
            #expect(rig.model.library.pending == nil && rig.model.library.slots[0]?.preset.name == "One")
            try rig.click(ui, "save")
            ui.frames(2, rig.draw)
            try rig.click(ui, "yes")
            #expect(rig.model.library.slots[0]?.preset.name == "Two" && rig.model.library.slots[0]?.preset.params[.exposure] == 4)
        }
    }

    @Test func importIntoAFullLibraryChangesNothingAndShowsTheNotice() throws {
        let dir = LibraryTestDir()
        try HeadlessImGui.run { ui in
            let rig = LivePanelRig(dir: dir.path)
            for i in 0..<24 { rig.shell.dispatch(.library(.saveToSlot(i, name: "Slot \(i + 1)"))) }
            rig.shell.settle()
            let before = rig.model.library
            let fileBefore = try #require(dir.read("physarum/library.json"))
            let good = try dir.write("good.json", Preset(id: "g", name: "Good", params: .defaults).fileText)
            ui.frames(2, rig.draw)
            try rig.type(ui, into: "importPath", good)
            try rig.click(ui, "import")
            rig.shell.settle()
            #expect(rig.model.library == before)
            #expect(dir.read("physarum/library.json") == fileBefore)
            #expect(rig.model.notices.items.last?.text == LibraryModel.fullMessage)
        }
    }

    @Test func searchFiltersTheListAndTypingInItTriggersNoShortcut() throws {
        try LivePanelRig.run { ui, rig, dir in
            try rig.type(ui, into: "search", "calm")
            rig.press(KeyPress(key: .letter("b")))  // the same key press the loop sees
            #expect(!rig.model.live.blackout)
            ui.frames(2, rig.draw)
            let rows = rig.panels.library.rects.keys.filter { $0.hasPrefix("row:") }.sorted()
            #expect(rows == ["row:factory:amber-drift", "row:factory:cellar"])
        }
    }

    @Test func autoCycleFromThePanelFadesSwitchesToPinnedAndReturns() throws {
        try LivePanelRig.run { ui, rig, dir in
            for id in ["amber-drift", "dune"] {
                try rig.type(ui, into: "search", id.prefix(4) + "")
                try rig.click(ui, "row:factory:" + id)
                try rig.click(ui, "pin")
            }
            try rig.type(ui, into: "search", "amber")
            try rig.click(ui, "row:factory:amber-drift")
            #expect(rig.model.currentPreset?.id == "amber-drift" && rig.model.live.cycle.pinnedOnly)
            rig.shell.dispatch(.live(.setDwell(3)))
            try rig.click(ui, "cycle")
            #expect(rig.model.playlistOn)
            let s = rig.model.live.cycle
            for _ in 0..<Int((3 + s.fadeOut + s.hold + s.fadeIn + 0.5) * 60) { rig.loopFrame(ui) }
            // Blue Storm and Cellar are not pinned: the cycle goes straight to Dune.
            #expect(rig.switches == ["dune"] && rig.model.currentPreset?.id == "dune")
            let a = rig.alphas
            let black = try #require(a.firstIndex(of: 0))
            #expect(black >= 3 * 60 + Int(s.fadeOut * 60) - 2)
            #expect(a[..<(black - Int(s.fadeOut * 60) - 1)].allSatisfy { $0 == 1 })  // full during the dwell
            #expect(a[black..<(black + Int(s.hold * 60))].allSatisfy { $0 == 0 })  // holds black
            #expect(a.last == 1)  // and returns
            #expect(rig.lastCycle?.untilNext.map { $0 > 2 && $0 <= 3 } == true)
        }
    }

    @Test func blackoutKeyFadesOutAndBack() {
        let dir = LibraryTestDir()
        HeadlessImGui.run { ui in
            let rig = LivePanelRig(dir: dir.path)
            ui.frames(2, rig.draw)
            rig.press(KeyPress(key: .letter("b")))
            for _ in 0..<90 { rig.loopFrame(ui) }
            #expect(rig.alphas.first! < 1 && rig.alphas.last == 0)
            #expect(LiveIndicators.badges(model: rig.model, recording: RecordingStatus(), untilNext: nil).map(\.text) == ["BLACKOUT (B)"])
            rig.press(KeyPress(key: .letter("b")))
            rig.alphas = []
            for _ in 0..<90 { rig.loopFrame(ui) }
            #expect(rig.alphas.first! > 0 && rig.alphas.last == 1)
            #expect(zip(rig.alphas, rig.alphas.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }

    @Test func keyOverlayListsEveryBindingAndSlotPickerReachesSlot24() throws {
        let dir = LibraryTestDir()
        try HeadlessImGui.run { ui in
            let rig = LivePanelRig(dir: dir.path)
            rig.shell.dispatch(.library(.saveToSlot(23, name: "Last")))
            rig.shell.dispatch(.jumpTo("cellar"))
            rig.press(KeyPress(key: .slash, shift: true))
            ui.frames(2, rig.draw)
            for b in KeyMap.bindings { #expect(rig.panels.keyHelp.rects["line:" + b.keys] != nil, "\(b.keys)") }
            ui.moveMouse(to: try #require(rig.panels.keyHelp.rects["close"]).center)
            ui.frame(rig.draw)
            ui.click(rig.draw)
            #expect(!rig.model.live.keyHelpVisible)
            // G opens the picker; slot 24 is one click away.
            rig.press(KeyPress(key: .letter("g")))
            ui.frames(2, rig.draw)
            ui.moveMouse(to: try #require(rig.panels.slotPicker.rects["pick:23"]).center)
            ui.frame(rig.draw)
            ui.click(rig.draw)
            #expect(rig.model.currentPreset?.name == "Last" && !rig.model.live.slotPickerOpen)
            // H hides everything: no panel is drawn.
            rig.press(KeyPress(key: .letter("h")))
            ui.frames(2, rig.draw)
            #expect(ig_draw_vertex_count() == 0)
        }
    }

    @Test func theDwellSliderStepsLikeEverySlider() throws {
        let dir = LibraryTestDir()
        try HeadlessImGui.run { ui in
            let rig = LivePanelRig(dir: dir.path)
            ui.frames(2, rig.draw)
            ui.moveMouse(to: try rig.rect("dwell").center)
            ui.frames(2, rig.draw)
            let d0 = rig.model.live.cycle.dwell
            let span = CycleSettings.dwellRange.upperBound - CycleSettings.dwellRange.lowerBound
            ui.tap(ScanCode.right, rig.draw)
            #expect(abs(rig.model.live.cycle.dwell - d0 - span / 100) < 1e-9, "\(d0) → \(rig.model.live.cycle.dwell)")
            ui.tap(ScanCode.home, rig.draw)
            #expect(rig.model.live.cycle.dwell == CycleSettings.dwellRange.lowerBound)
        }
    }
}
