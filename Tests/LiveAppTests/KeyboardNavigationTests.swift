import AppTestSupport
import Engine
import Foundation
import ImGuiShim
import Testing
import TestSupport
@testable import LiveCore
@testable import LiveApp

/// The editor driven by the keyboard alone (Dear ImGui's keyboard
/// navigation, as the window turns it on), in real headless ImGui frames.
@Suite(.serialized) struct KeyboardNavigationTests {
    /// The control whose rectangle holds the keyboard focus's centre (the smallest one).
    static func focused(_ rects: [String: UI.Rect]) -> String? { FocusedControl.key(in: rects) }

    /// The keyboard focus's rectangle, nil when none is shown.
    static func navRect() -> UI.Rect? { FocusedControl.rect(shownOnly: true) }

    /// Walks the focus over the panel whose rectangles `rects` gives (`KeyboardWalk`), in headless frames.
    static func walk(_ ui: HeadlessImGui, draw: () -> Void, rects: () -> [String: UI.Rect], open: (String) -> Bool) -> Set<String> {
        withoutActuallyEscaping(draw) { draw in
            withoutActuallyEscaping(rects) { rects in
                withoutActuallyEscaping(open) { open in
                    KeyboardWalk(press: { move in
                        let code: Int32 = switch move {
                        case .up: ScanCode.up
                        case .down: ScanCode.down
                        case .left: ScanCode.left
                        case .right: ScanCode.right
                        case .space: ScanCode.space
                        }
                        ui.tap(code, draw)
                    }, rect: { navRect().map { [Double($0.x0), Double($0.y0), Double($0.x1), Double($0.y1)] } },
                    focused: { focused(rects()) }, isOpen: open).run()
                }
            }
        }
    }

    /// Every control of `controls` is among those the walk `reached`.
    static func expectReached(_ controls: Set<String>, _ reached: Set<String>) {
        let missed = controls.subtracting(reached).sorted()
        #expect(missed.isEmpty, "not reached by keyboard: \(missed)")
    }

    @Test func everyEditorControlIsReachedByKeyboardAlone() throws {
        try HeadlessImGui.run(height: 3000, navigation: true) { ui in
            let rig = EditorRig()
            ui.frames(3, rig.draw)
            let reached = Self.walk(ui, draw: rig.draw, rects: { rig.editor.rects }) { header in
                // A section is open when one of its controls has a rectangle.
                header != "header:Matrix" || rig.editor.rects.keys.contains { $0.hasPrefix("slider:matrix") }
            }
            let controls = Set(rig.editor.rects.keys.filter { k in
                ["slider:", "lock:", "help:", "choice:", "color:", "button:", "combo:", "header:", "tab:"].contains { k.hasPrefix($0) }
            })
            Self.expectReached(controls, reached)
            #expect(controls.count > 100, "the walk covered the whole editor: \(controls.count)")
        }
    }

    @Test func spaceActivatesASliderArrowsStepItEscClosesAHelpPopover() throws {
        try HeadlessImGui.run(height: 3000, navigation: true) { ui in
            let rig = EditorRig()
            ui.frames(3, rig.draw)
            ui.tap(ScanCode.down, rig.draw)
            // Down to the exposure slider.
            for _ in 0..<40 where Self.focused(rig.editor.rects) != "slider:global.exposure" { ui.tap(ScanCode.down, rig.draw) }
            #expect(Self.focused(rig.editor.rects) == "slider:global.exposure")
            let before = rig.model.base[.exposure]
            ui.tap(ScanCode.right, rig.draw)
            #expect(rig.model.base[.exposure] == before, "a focused slider is not changed by moving past it")
            for _ in 0..<10 where Self.focused(rig.editor.rects) != "slider:global.exposure" { ui.tap(ScanCode.left, rig.draw) }
            ui.tap(ScanCode.space, rig.draw)
            ui.tap(ScanCode.right, rig.draw)
            let step = PreciseSlider.step(span: ParamKey.exposure.spec.span, integer: false, shift: false, alt: false)
            #expect(abs(rig.model.base[.exposure] - (before + step)) < 1e-9, "\(before) → \(rig.model.base[.exposure])")
            ui.mods(shift: true)
            ui.tap(ScanCode.left, rig.draw)
            ui.mods()
            #expect(abs(rig.model.base[.exposure] - (before + step * 0.9)) < 1e-9, "Shift steps a tenth")
            #expect(Self.focused(rig.editor.rects) == "slider:global.exposure", "the focus stayed")
            ui.tap(ScanCode.escape, rig.draw)
            // Right to its help button; Space opens the popover, Esc closes it.
            ui.tap(ScanCode.right, rig.draw)
            #expect(Self.focused(rig.editor.rects) == "help:global.exposure")
            ui.tap(ScanCode.space, rig.draw)
            ui.frame(rig.draw)
            #expect(rig.editor.openHelp == "global.exposure")
            ui.tap(ScanCode.escape, rig.draw)
            ui.frame(rig.draw)
            #expect(rig.editor.openHelp == nil)
            // Space and the arrows belong to the focused control, not to the shortcuts.
            var router = ShortcutRouter()
            let navKeys = router.actions(for: [KeyPress(key: .space), KeyPress(key: .pageDown)], now: 0)
            let letter = router.actions(for: [KeyPress(key: .letter("m"))], now: 0)
            #expect(navKeys.isEmpty)
            #expect(letter.count == 1, "letters still act")
        }
    }

    @Test func everyAudioPanelControlIsReachedByKeyboardAlone() throws {
        let dir = makeTempDir("audio-nav")
        defer { try? FileManager.default.removeItem(at: dir) }
        try HeadlessImGui.run(height: 3000, navigation: true) { ui in
            let rig = AudioPanelRig(dir: dir)
            ui.frames(3, rig.draw)
            let reached = Self.walk(ui, draw: rig.draw, rects: { rig.shell.panel.rects }) { _ in true }
            let shown = ["window", "spectrum", "captureStatus", "captureSource", "editing", "beatLight", "tempo"]  // pictures and text lines
            let controls = Set(rig.shell.panel.rects.keys.filter { k in
                !shown.contains(k) && !k.hasPrefix("label:") && !k.hasPrefix("meter:") && !k.hasSuffix("activity")
            })
            Self.expectReached(controls, reached)
            #expect(controls.count > 10, "\(controls.sorted())")
        }
    }

    /// The MIDI & live-control panel with two bindings: every control, the
    /// bindings' mode, range and delete included, is reached by keys alone,
    /// and its sliders step as the editor's do.
    @Test func everyMidiPanelControlIsReachedByKeyboardAlone() throws {
        let rig = MidiPanelRig()  // its bindings are in the model before the first frame
        try HeadlessImGui.run(height: 3000, navigation: true) { ui in
            ui.frames(3, rig.draw)
            let reached = Self.walk(ui, draw: rig.draw, rects: { rig.panel.rects }) { rig.panel.openSections.contains($0) }
            let controls = Set(rig.panel.rects.keys).subtracting(["window"])
            Self.expectReached(controls, reached)
            #expect(controls.isSuperset(of: ["learnChoice", "learnAction", "binding:1:delete", "syncBars", "fadeBeats", "quantize",
                                             "visualOffset", "header:OSC"]), "\(controls.sorted())")
            // A focused slider steps like the editor's: Space, then Right is 1/100 of the range (2 ms).
            for _ in 0..<60 where Self.focused(rig.panel.rects) != "visualOffset" { ui.tap(ScanCode.up, rig.draw) }
            #expect(Self.focused(rig.panel.rects) == "visualOffset")
            ui.tap(ScanCode.space, rig.draw)
            ui.tap(ScanCode.right, rig.draw)
            #expect(rig.model.control.visualOffsetMs == 2, "\(rig.model.control.visualOffsetMs)")
        }
    }
}

/// The MIDI panel in headless frames, its actions applied to a model.
final class MidiPanelRig {
    var model = AppModel(presets: [Preset(id: "test", name: "Test", params: .defaults)])
    var panel = MidiPanel()
    let status = MidiPanel.Status(midi: "MIDI: ports open", inputs: ["Test controller"], osc: "OSC in: off",
                                  tempo: TempoReading(), latency: LatencyReadout(analysisWindow: 0.02))

    init() {
        _ = model.handle(.control(.togglePanel))
        _ = model.handle(.control(.bind(MidiBinding(control: MidiControl(.cc, channel: 0, number: 21), target: .trigger(.next)))))
        _ = model.handle(.control(.bind(MidiBinding(control: MidiControl(.note, channel: 9, number: 36), target: .trigger(.blackout)))))
    }

    func draw() {
        panel.draw(model: model, status: status) { _ = self.model.handle($0) }
    }
}
