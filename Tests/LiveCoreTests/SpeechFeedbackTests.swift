import Engine
import Testing
@testable import LiveCore

/// What spoken feedback says, frame by frame (no speech service here; the
/// real one is in LiveAppTests.SpokenFeedbackTests).
@Suite struct SpeechFeedbackTests {
    @Test func aNewFocusIsSaidAtOnceAndADragAtMostTwiceASecondEndingOnItsValue() {
        var f = SpeechFeedback(valueInterval: 0.5)
        #expect(f.frame(focus: ("slider:a", "Exposure, 1.000"), now: 0).map(\.text) == ["Exposure, 1.000"])
        #expect(f.frame(focus: ("slider:a", "Exposure, 1.000"), now: 0.1).isEmpty, "nothing changed")
        var said: [String] = []
        // 2 s of a drag, a new value every frame.
        for i in 1...120 {
            said += f.frame(focus: ("slider:a", "Exposure, \(1 + Double(i) / 100)"), now: 0.1 + Double(i) / 60).map(\.text)
        }
        #expect(said.count >= 3 && said.count <= 5, "\(said)")
        // It stops: the value it settled on is said once the interval has passed.
        let settle = (0..<40).flatMap { i in f.frame(focus: ("slider:a", "Exposure, 2.2"), now: 2.2 + Double(i) / 60).map(\.text) }
        #expect(settle == ["Exposure, 2.2"])
        #expect(f.frame(focus: ("lock:a", "Lock Exposure, unlocked"), now: 3).map(\.kind) == [.focus])
        #expect(f.frame(focus: nil, now: 3.1).isEmpty)
    }

    @Test func noticesAfterTheFirstLookAreSaidABurstIsCounted() {
        var board = NoticeBoard()
        _ = board.post("old", .info)
        var f = SpeechFeedback()
        #expect(f.notices(board).isEmpty, "what was there before is not read out")
        _ = board.post("Export failed", .error)
        #expect(f.notices(board).map(\.text) == ["Error: Export failed"])
        for i in 0..<6 { _ = board.post("Preset skipped \(i)", .warning) }
        #expect(f.notices(board).map(\.text) == ["Warning: Preset skipped 0", "Warning: Preset skipped 1", "Warning: Preset skipped 2",
                                                   "and 3 more notices"])
    }

    @Test func theWordsOfAControlComeFromTheTableAndTheModel() {
        var p = PresetParams()
        p[.exposure] = 1.5
        var m = AppModel(presets: [Preset(id: "t", name: "Test", params: p)])
        #expect(ControlSpeech.describe("slider:global.exposure", model: m)?.text == "Exposure, 1.500")
        #expect(ControlSpeech.describe("slider:global.simSpeed", model: m)?.text.hasSuffix("steps/frame") == true)
        #expect(ControlSpeech.describe("lock:global.exposure", model: m)?.text == "Lock Exposure, unlocked")
        _ = m.handle(.toggleLock("global.exposure"))
        #expect(ControlSpeech.describe("lock:global.exposure", model: m)?.text == "Lock Exposure, locked")
        #expect(ControlSpeech.describe("button:randomize", model: m)?.text == "Randomize, button")
        #expect(ControlSpeech.describe("help:global.exposure", model: m)?.hint == ControlWordTable.hint("global.exposure"))
        #expect(ControlSpeech.describe("choice:render.blendMode", model: m)?.text == "Blend mode, additive")
        #expect(ControlSpeech.describe("combo:preset", model: m)?.text == "Preset, Test")
        #expect(ControlSpeech.describe("window", model: m) == nil)
    }
}
