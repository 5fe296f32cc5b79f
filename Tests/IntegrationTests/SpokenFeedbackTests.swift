import AppTestSupport
import CSDL2
import Engine
import Foundation
import TestSupport
import Testing
@testable import LiveApp
@testable import LiveCore

/// Spoken feedback through a real speech-dispatcher whose only output module
/// writes every message it speaks to a file (scripts/services-private.sh),
/// fed by the editor driven by the keyboard in real headless ImGui frames.
@Suite(.serialized) struct SpokenFeedbackTests {
    /// The parameter editor on a two-preset model, its actions applied.
    final class Rig {
        var model: AppModel
        var editor = ParamEditor()

        init() {
            var p = PresetParams()
            p[.simSpeed] = 1
            p[.exposure] = 1.5
            model = AppModel(presets: [Preset(id: "test", name: "Test", params: p), Preset(id: "other", name: "Other", params: .defaults)])
            editor.sliderWidth = 300
        }

        func draw() { editor.draw(model: model) { _ = self.model.handle($0) } }
    }

    @Test func theFocusedControlsLabelAndValueAreSpokenInOrderAndADragIsRateLimited() throws {
        let services = PrivateServices()
        try services.speechDispatcher()
        let socket = try #require(services.environment["SPEECHD_ADDRESS"]?.split(separator: ":", maxSplits: 1).last.map(String.init))
        try HeadlessImGui.run(height: 3000, navigation: true) { ui in
            let rig = Rig()
            let speech = SpeechShell(output: SpeechOutput(socketPath: socket), feedback: SpeechFeedback(valueInterval: 0.5))
            var now = 0.0
            let draw = {
                rig.draw()
                now += 1.0 / 60  // headless frames are 1/60 s apart
                speech.frame(focus: FocusedControl.key(in: rig.editor.rects), model: rig.model, now: now)
            }
            ui.frames(3, draw)
            ui.tap(ScanCode.down, draw)
            // Down to sim speed, then Up to exposure (the row above); each is heard before moving on
            // (a new focus interrupts what was not said yet, as a screen reader does).
            for _ in 0..<40 where FocusedControl.key(in: rig.editor.rects) != "slider:global.simSpeed" { ui.tap(ScanCode.down, draw) }
            #expect(FocusedControl.key(in: rig.editor.rects) == "slider:global.simSpeed")
            #expect(poll(seconds: 20) { services.spoken.contains("Sim speed, 1.000 steps/frame") }, "\(services.spoken)")
            for _ in 0..<10 where FocusedControl.key(in: rig.editor.rects) != "slider:global.exposure" { ui.tap(ScanCode.up, draw) }
            #expect(FocusedControl.key(in: rig.editor.rects) == "slider:global.exposure")
            #expect(poll(seconds: 20) {
                let heard = services.spoken
                return heard.firstIndex(of: "Sim speed, 1.000 steps/frame").map { heard[$0...].contains("Exposure, 1.500") } ?? false
            }, "label and value, in the order reached: \(services.spoken)")

            // A drag by keyboard: Space activates the slider, Right held for 60 frames (1 s).
            ui.tap(Int32(SDL_SCANCODE_SPACE.rawValue), draw)
            let before = speech.recent.count
            let start = now
            for _ in 0..<30 { ui.tap(ScanCode.right, draw) }
            let dragSeconds = now - start
            ui.frames(40, draw)  // the value settles; the last one is said
            let values = speech.recent.dropFirst(before).filter { $0.kind == .value }.map(\.text)
            let final = "Exposure, " + ControlSpeech.valueText(ParamKey.exposure.spec, rig.model.base[.exposure])
            #expect(rig.model.base[.exposure] > 1.5, "the drag changed the value")
            #expect(values.count >= 2 && Double(values.count) <= dragSeconds / 0.5 + 2,
                    "at most one value per 0.5 s during a \(dragSeconds) s drag: \(values)")
            #expect(values.last == final, "the value it settled on is said: \(values)")
            #expect(poll(seconds: 20) { services.spoken.last == final }, "speech-dispatcher spoke the final value last: \(services.spoken.suffix(5))")
        }
    }

    @Test func newNoticesAreSpokenAndHelpOnRequest() throws {
        let services = PrivateServices()
        try services.speechDispatcher()
        let socket = try #require(services.environment["SPEECHD_ADDRESS"]?.split(separator: ":", maxSplits: 1).last.map(String.init))
        var model = AppModel(presets: [Preset(id: "a", name: "A", params: .defaults)])
        _ = model.handle(.notice("Before speech started", .info))
        let speech = SpeechShell(output: SpeechOutput(socketPath: socket))
        speech.frame(focus: nil, model: model, now: 0)
        _ = model.handle(.notice("Export failed: /x is not writable", .error))
        speech.frame(focus: nil, model: model, now: 0.1)
        speech.help(focus: "slider:global.exposure", model: model)
        // speech-dispatcher orders them by priority and speaks a long text sentence by sentence.
        #expect(poll(seconds: 20) {
            services.spoken.contains("Error: Export failed: /x is not writable")
                && services.spoken.contains { $0.hasPrefix("Exposure, 1.000: Brightness of the trails") }
        }, "the new notice and the help: \(services.spoken)")
        let heard = services.spoken
        #expect(!heard.contains { $0.contains("Before speech started") }, "notices from before are not read out")
    }
}
