import AppTestSupport
import Engine
import ImGuiShim
import Testing
@testable import LiveCore
@testable import LiveApp

/// The editor in real (headless) ImGui frames with injected mouse and keys.
final class EditorRig {
    var model: AppModel
    var editor = ParamEditor()
    var actions: [AppAction] = []
    let preset: Preset

    init() {
        var p = PresetParams()
        p[.simSpeed] = 1
        p[.exposure] = 1.5
        preset = Preset(id: "test", name: "Test", params: p)
        model = AppModel(presets: [preset, Preset(id: "other", name: "Other", params: .defaults)])
        editor.sliderWidth = 300
    }

    func draw() {
        editor.draw(model: model) { a in
            self.actions.append(a)
            _ = self.model.handle(a)
        }
    }

    func rect(_ name: String) throws -> UI.Rect { try #require(editor.rects[name], "no item \(name)") }
}

@Suite(.serialized) struct ParamEditorTests {
    @Test func theHeadlessUIUsesTheAppsFont() {
        #expect(HeadlessImGui.fontPath == UIFonts.defaultPath)
    }

    static let sim = ParamKey.simSpeed
    static var span: Double { sim.spec.span }

    /// Runs `body` on a new rig with `slider` (default: sim speed) hovered, after hover settled.
    func withHovered(_ slider: String = "slider:global.simSpeed",
                             _ body: (HeadlessImGui, EditorRig) throws -> Void) throws {
        try HeadlessImGui.run { ui in
            let rig = EditorRig()
            ui.frames(2, rig.draw)
            let r = try rig.rect(slider)
            ui.moveMouse(to: r.center)
            // The pointer rests on it (0.33 s of frames): then the wheel is the slider's, not the panel's.
            ui.frames(20, rig.draw)
            try body(ui, rig)
        }
    }

    @Test(arguments: [(false, false, 1.0 / 100), (true, false, 1.0 / 1000), (false, true, 1.0 / 10)])
    func arrowsNudgeByRangeFraction(shift: Bool, alt: Bool, fraction: Double) throws {
        try withHovered { ui, rig in
            let before = rig.model.base[Self.sim]
            ui.mods(shift: shift, alt: alt)
            ui.tap(ScanCode.right, rig.draw)
            let up = rig.model.base[Self.sim]
            #expect(abs((up - before) - Self.span * fraction) < 1e-9, "right: \(before) → \(up)")
            ui.tap(ScanCode.left, rig.draw)
            ui.tap(ScanCode.left, rig.draw)
            #expect(abs((before - rig.model.base[Self.sim]) - Self.span * fraction) < 1e-9)
            ui.mods()
        }
    }

    @Test(arguments: [(false, false, 1.0 / 100), (true, false, 1.0 / 1000), (false, true, 1.0 / 10)])
    func wheelNudgesByRangeFraction(shift: Bool, alt: Bool, fraction: Double) throws {
        try withHovered { ui, rig in
            let before = rig.model.base[Self.sim]
            ui.mods(shift: shift, alt: alt)
            ui.wheel(1)
            ui.frame(rig.draw)
            #expect(abs((rig.model.base[Self.sim] - before) - Self.span * fraction) < 1e-9)
            ui.wheel(-2)
            ui.frame(rig.draw)
            #expect(abs((before - rig.model.base[Self.sim]) - Self.span * fraction) < 1e-9)
            ui.mods()
            ui.frame(rig.draw)
            #expect(rig.editor.scrollY == 0, "the wheel over a slider must not scroll the panel")
        }
    }

    @Test func wheelElsewhereScrollsThePanel() throws {
        try HeadlessImGui.run(height: 500) { ui in
            let rig = EditorRig()
            ui.frames(2, rig.draw)
            let label = try rig.rect("label:global.exposure")
            ui.moveMouse(to: label.center)
            ui.frames(2, rig.draw)
            let before = rig.model.base
            ui.wheel(-3)
            ui.frames(2, rig.draw)
            #expect(rig.editor.scrollY > 0)
            #expect(rig.model.base == before)
        }
    }

    @Test func homeAndEndJumpToTheEnds() throws {
        try withHovered { ui, rig in
            ui.tap(ScanCode.end, rig.draw)
            #expect(rig.model.base[Self.sim] == Self.sim.spec.max)
            ui.tap(ScanCode.home, rig.draw)
            #expect(rig.model.base[Self.sim] == Self.sim.spec.min)
        }
    }

    @Test func typedEntryIsExact() throws {
        try withHovered { ui, rig in
            ui.mods(ctrl: true)
            ui.click(rig.draw)
            ui.mods()
            #expect(ig_io_want_text_input(), "Ctrl+click opens typed entry")
            #expect(ShortcutRouter.actions(for: [KeyPress(key: .tab), KeyPress(key: .pageDown)]).isEmpty,
                    "single-key shortcuts are ignored while typing")
            ui.type("2.37")
            ui.frame(rig.draw)
            ui.tap(ScanCode.enter, rig.draw)
            #expect(rig.model.base[Self.sim] == 2.37)
            ui.frame(rig.draw)  // ImGui reports text focus for the next frame
            #expect(!ig_io_want_text_input())
            #expect(ShortcutRouter.actions(for: [KeyPress(key: .tab)]) == [.toggleUI])
        }
    }

    @Test func doubleClickOnLabelResetsExactlyWithoutMovingToThePointer() throws {
        try withHovered { ui, rig in
            ui.tap(ScanCode.right, rig.draw)
            ui.tap(ScanCode.right, rig.draw)
            #expect(rig.model.base[Self.sim] != rig.preset.params[Self.sim])
            ui.moveMouse(to: try rig.rect("label:global.simSpeed").center)
            ui.frame(rig.draw)
            let seen = rig.actions.count
            ui.click(rig.draw)
            ui.click(rig.draw)
            #expect(rig.model.base[Self.sim] == rig.preset.params[Self.sim])
            let setParams = rig.actions[seen...].filter { if case .setParam = $0 { return true }; return false }
            #expect(setParams.isEmpty, "a reset must not first move the value: \(setParams)")
        }
    }

    @Test func lockedParameterSurvivesRandomize() throws {
        try HeadlessImGui.run { ui in
            let rig = EditorRig()
            ui.frames(2, rig.draw)
            ui.moveMouse(to: try rig.rect("lock:global.exposure").center)
            ui.frame(rig.draw)
            ui.click(rig.draw)
            #expect(rig.model.locks.contains("global.exposure"))
            let before = rig.model.base
            ui.moveMouse(to: (20, 20))
            ui.frame(rig.draw)
            rig.actions.removeAll()
            _ = rig.model.handle(.randomize(seed: 99))
            #expect(rig.model.base[.exposure] == before[.exposure])
            #expect(rig.model.base[.decay] != before[.decay])
        }
    }

    @Test func undoRedoRestoreExactValues() throws {
        try withHovered { ui, rig in
            let v0 = rig.model.base
            ui.tap(ScanCode.right, rig.draw)
            let v1 = rig.model.base
            ui.mods(alt: true)
            ui.tap(ScanCode.right, rig.draw)
            ui.mods()
            let v2 = rig.model.base
            _ = rig.model.handle(.undo)
            #expect(rig.model.base == v1)
            _ = rig.model.handle(.undo)
            #expect(rig.model.base == v0)
            _ = rig.model.handle(.redo)
            _ = rig.model.handle(.redo)
            #expect(rig.model.base == v2)
        }
    }

    @Test func aSliderDragUndoesInOneStep() throws {
        try withHovered { ui, rig in
            let before = rig.model.base
            let r = try rig.rect("slider:global.simSpeed")
            ui.moveMouse(to: (r.x0 + 10, r.center.y))
            ui.frame(rig.draw)
            ui.mouseButton(true)
            for i in 1...10 {
                ui.moveMouse(to: (r.x0 + 10 + Float(i) * (r.x1 - r.x0 - 20) / 10, r.center.y))
                ui.frame(rig.draw)
            }
            ui.mouseButton(false)
            ui.frame(rig.draw)
            let sets = rig.actions.filter { if case .setParam = $0 { return true }; return false }.count
            #expect(sets >= 5, "the drag moved the value several times")
            #expect(rig.model.base[Self.sim] > 7)
            _ = rig.model.handle(.undo)
            #expect(rig.model.base == before, "one undo step restores the value before the drag")
        }
    }

    @Test func allSpeciesTabEditsEverySpeciesAsOneStep() throws {
        try withHovered("slider:species.*.moveSpeed") { ui, rig in
            ui.tap(ScanCode.right, rig.draw)
            let v = rig.model.base[.species(0, .moveSpeed)]
            #expect(v != rig.preset.params[.species(0, .moveSpeed)])
            #expect((0..<3).allSatisfy { rig.model.base[.species($0, .moveSpeed)] == v })
            _ = rig.model.handle(.undo)
            #expect(rig.model.base == rig.preset.params)
        }
    }

    @Test func mutateAmountAndMorphStepLikeEverySlider() throws {
        try HeadlessImGui.run { ui in
            let rig = EditorRig()
            ui.frames(2, rig.draw)
            ui.moveMouse(to: try rig.rect("slider:mutateAmount").center)
            ui.frames(2, rig.draw)
            let m0 = rig.editor.mutateAmount
            ui.tap(ScanCode.right, rig.draw)
            #expect(abs(rig.editor.mutateAmount - m0 - 0.49 / 100) < 1e-9, "\(m0) → \(rig.editor.mutateAmount)")
            ui.mods(shift: true)
            ui.tap(ScanCode.left, rig.draw)
            ui.mods()
            #expect(abs(rig.editor.mutateAmount - m0 - 0.49 / 100 * 0.9) < 1e-9)
            ui.tap(ScanCode.end, rig.draw)
            #expect(rig.editor.mutateAmount == 0.5)

            rig.editor.morphTarget = "other"
            ui.moveMouse(to: try rig.rect("slider:morph").center)
            ui.frames(2, rig.draw)
            let base = rig.model.base
            ui.mods(alt: true)
            ui.tap(ScanCode.right, rig.draw)
            ui.mods()
            #expect(abs(rig.editor.morphT - 0.1) < 1e-9)
            #expect(rig.actions.last == .morph(presetID: "other", t: rig.editor.morphT))
            #expect(rig.model.base != base, "the look moved toward the target")
        }
    }

    @Test func everyNonScalarControlHasHelpAndALockThatTheLookToolsRespect() throws {
        try HeadlessImGui.run { ui in
            let rig = EditorRig()
            ui.frames(2, rig.draw)
            for id in ["spawn.pattern", "render.blendMode", "render.background"] {
                _ = try rig.rect("help:" + id)
                _ = try rig.rect("lock:" + id)
            }
            // A species colour: its tab, then its lock.
            ui.moveMouse(to: try rig.rect("tab:0").center)
            ui.frames(2, rig.draw)
            ui.click(rig.draw)
            ui.frames(2, rig.draw)
            _ = try rig.rect("help:species.0.color")
            ui.moveMouse(to: try rig.rect("lock:species.0.color").center)
            ui.frames(2, rig.draw)
            ui.click(rig.draw)
            #expect(rig.model.locks.contains("species.0.color"))
            let colours = (0..<3).map { rig.model.base.color(species: $0) }
            _ = rig.model.handle(.randomize(seed: 7))
            #expect(rig.model.base.color(species: 0) == colours[0], "Randomize keeps the locked colour")
            #expect(rig.model.base.color(species: 1) != colours[1], "and recolours the others")
            // Background and blend mode: locked, a morph to another look leaves them.
            _ = rig.model.handle(.setBackground(RGBColor(r: 200, g: 10, b: 10)))
            _ = rig.model.handle(.setBlendMode(.paint))
            for id in ["render.background", "render.blendMode"] {
                ui.moveMouse(to: try rig.rect("lock:" + id).center)
                ui.frames(2, rig.draw)
                ui.click(rig.draw)
            }
            #expect(rig.model.locks.isSuperset(of: ["render.background", "render.blendMode"]))
            _ = rig.model.handle(.morph(presetID: "other", t: 1))
            #expect(rig.model.base.background == RGBColor(r: 200, g: 10, b: 10) && rig.model.base.blendMode == .paint)
        }
    }
}
