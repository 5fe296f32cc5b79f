import AudioReactive
import Engine
import Testing
import TestSupport
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

    @Test func theAudioPanelsControlsAreSpokenWithTheirValuesAndTheTooltipsHelp() {
        var m = AppModel(presets: [Preset(id: "t", name: "Test", params: PresetParams())])
        let say = { (key: String) in ControlSpeech.describe(key, model: m) }
        #expect(say("gain")?.text == "Input gain, 0.0 dB")
        _ = m.handleAudio(.setTuning("gain", 6))
        #expect(say("gain")?.text == "Input gain, 6.0 dB", "the value follows the model")
        #expect(say("enabled")?.text == "Master, on")
        _ = m.handleAudio(.setEnabled(false))
        #expect(say("enabled")?.text == "Master, off")
        #expect(say("help:reactivity")?.text == "Help for Reactivity, button")
        #expect(say("help:reactivity")?.hint == AudioControlWords.controlHelp["reactivity"], "the tooltip's words")
        let n = m.audio.config.routes.count
        #expect(say("route:\(n):depth") == nil, "no such route yet")
        _ = m.handleAudio(.addRoute)
        _ = m.handleAudio(.setDepth(n, 0.25))
        #expect(say("route:\(n):depth")?.text == "Route \(n + 1) depth, 0.250")
        #expect(say("route:\(n):depth")?.hint == AudioControlWords.routeHelp["depth"])
        #expect(say("beatTap")?.text == "Tap tempo, button")
        // Every tuning slider says its label and its value with the unit the panel shows.
        for f in AudioTuning.fields {
            #expect(say(AudioControlWords.key(f))?.text == "\(f.label), \(AudioControlWords.valueText(f, m.audio.config.tuning[field: f]))")
        }
    }
}

/// The panels' own words: menus, section headers, library rows, notices, the panel entered, a popover.
@Suite struct PanelSpeechTests {
    @Test func menusHeadersRowsAndNoticesAreSpokenWithTheirState() {
        var m = AppModel(presets: [Preset(id: "t", name: "Test", params: PresetParams())])
        let menus = MenuBarModel.menus(m, displayCount: 2)
        let ctx = SpeechContext(expanded: ["header:Source"], menus: menus)
        let say = { (key: String) in ControlSpeech.describe(key, model: m, context: ctx)?.text }
        #expect(say("menu:View") == "View menu")
        #expect(say("menuItem:View/Fullscreen") == "Fullscreen, F11, off")
        #expect(say("menu:View/Theme") == "Theme, submenu")
        #expect(say("menuItem:View/Theme/Dark room") == "Dark room, off")
        #expect(say("menuItem:Output/Close projector window") == "Close projector window, unavailable")
        #expect(say("header:Source") == "Source section, expanded")
        #expect(say("header:Routes") == "Routes section, collapsed")
        _ = m.handle(.notice("Export failed", .error))
        _ = m.handle(.notice("Saved", .info))
        let newest = m.notices.history.last!.id, older = m.notices.history.first!.id
        #expect(say("row:\(newest)") == "Saved, notice 1 of 2")
        #expect(say("row:\(older)") == "Error: Export failed, notice 2 of 2")
        #expect(say("dismiss:\(older)") == "Dismiss Error: Export failed, button")
        #expect(say("row:slot:0") == "Slot 1, empty")
    }

    /// A library row says its slot, name, pinned and playing; a factory row its name and the same states.
    @Test func libraryRowsSayTheirSlotNamePinnedAndPlaying() {
        var m = AppModel(library: LibraryModel(factory: testFactory))
        m.run(.library(.saveToSlot(2, name: "Ocean drift")), .library(.togglePin("user:1")), .library(.togglePin("blue-storm")))
        let say = { (m: AppModel, key: String) in ControlSpeech.describe(key, model: m, context: SpeechContext())?.text }
        #expect(say(m, "row:slot:2") == "Slot 3, Ocean drift, pinned, playing")
        #expect(say(m, "row:slot:3") == "Slot 4, empty")
        #expect(say(m, "row:factory:blue-storm") == "Factory preset Blue Storm, pinned")
        #expect(say(m, "row:factory:amber-drift") == "Factory preset Amber Drift")
        m.run(.library(.togglePin("user:1")), .jumpTo("amber-drift"))
        #expect(say(m, "row:slot:2") == "Slot 3, Ocean drift")
        #expect(say(m, "row:factory:amber-drift") == "Factory preset Amber Drift, playing")
    }

    @Test func enteringAPanelSaysItsNameFirstAndAPopoverIsReadOnce() {
        var f = SpeechFeedback()
        #expect(f.frame(focus: ("menu:View", "View menu"), panel: "Menu bar", now: 0).map(\.text) == ["Menu bar, View menu"])
        #expect(f.frame(focus: ("menu:Look", "Look menu"), panel: "Menu bar", now: 1).map(\.text) == ["Look menu"], "same panel: no name")
        #expect(f.frame(focus: ("button:undo", "Undo, button"), panel: "Parameters panel", now: 2).map(\.text) == ["Parameters panel, Undo, button"])
        #expect(f.popover(("Exposure", "Brightness.")).map(\.text) == ["Exposure help: Brightness."])
        #expect(f.popover(("Exposure", "Brightness.")).isEmpty, "said once while it stays open")
        #expect(f.popover(nil).isEmpty)
        #expect(f.popover(("Exposure", "Brightness.")).count == 1, "and again when it opens again")
        #expect(PanelLayout.spokenName(window: "##Menu_00") == "Menu bar")
        #expect(PanelLayout.spokenName(window: "Notices") == "Notices window")
        #expect(PanelLayout.spokenName(window: "Audio") == "Audio panel")
    }
}
