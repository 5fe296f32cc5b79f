import Engine
import Foundation
import Testing
@testable import LiveCore

/// Small editor behaviours: the agent override, the session's memory of the
/// cycle and the panels, letters typed after a text field lost focus.
@Suite struct EditorBasicsTests {
    static let presets = (0..<3).map { i -> Preset in
        var p = PresetParams()
        p[.agents] = Double(300_000 + 200_000 * i)
        return Preset(id: "p\(i)", name: "P\(i)", params: p)
    }

    @Test func theAgentOverrideAppliesToEveryPresetLoaded() {
        var m = AppModel(presets: Self.presets)
        m.agentOverride = 20_000
        #expect(m.base[.agents] == 20_000 && !m.isEdited)
        _ = m.handle(.next)
        #expect(m.currentPreset?.id == "p1" && m.base[.agents] == 20_000)
        _ = m.handle(.jumpTo("p2"))
        #expect(m.base[.agents] == 20_000 && !m.isEdited)
        _ = m.handle(.resetAll)
        #expect(m.base[.agents] == 20_000)
        var free = AppModel(presets: Self.presets)
        _ = free.handle(.jumpTo("p2"))
        #expect(free.base[.agents] == 700_000, "without the override each preset keeps its own count")
    }

    @Test func theSessionRemembersDwellPinnedOnlyAndOpenPanels() throws {
        let s = Session(dwell: 42, pinnedOnly: false, libraryPanel: true, audioPanel: true)
        let back = try Session.decode(Data(s.jsonText.utf8), file: "session.json")
        #expect(back.dwell == 42 && back.pinnedOnly == false && back.libraryPanel && back.audioPanel)
        let plain = try Session.decode(Data(Session().jsonText.utf8), file: "session.json")
        #expect(plain.dwell == nil && plain.pinnedOnly == nil && !plain.libraryPanel && !plain.audioPanel)
        #expect(throws: (any Error).self) {
            try Session.decode(Data(#"{"format":1,"cycle":{"dwell":9000}}"#.utf8), file: "session.json")
        }
    }

    @Test func theSessionRemembersTheThemeOpacityPanelWidthsAndTheNoticesWindow() throws {
        var s = Session()
        s.ui = UISettings(theme: .darkRoom, panelOpacity: 0.93, panelWidths: PanelWidths([.audio: 610, .library: 380]))
        s.noticesWindow = true
        let back = try Session.decode(Data(s.jsonText.utf8), file: "session.json")
        #expect(back.ui == s.ui && back.noticesWindow)
        #expect(try Session.decode(Data(Session().jsonText.utf8), file: "session.json").ui == UISettings())
        for bad in [#"{"format":1,"ui":{"theme":"neon"}}"#, #"{"format":1,"ui":{"panelOpacity":0.2}}"#,
                    #"{"format":1,"ui":{"panelWidths":{"audio":-5}}}"#] {
            #expect(throws: (any Error).self, "\(bad)") { try Session.decode(Data(bad.utf8), file: "session.json") }
        }
    }

    @Test func lettersTypedRightAfterATextFieldLostFocusFireNoShortcut() {
        var g = TypingGuard(pause: 1)
        func feed(_ keys: [KeyPress], _ focused: Bool, _ now: Double) -> [KeyPress] { g.filter(keys, textFocused: focused, now: now) }
        let r = KeyPress(key: .letter("r")), h = KeyPress(key: .letter("h"))
        #expect(feed([r], true, 0) == [r], "in the field the keys are the field's")
        // The click missed: the field lost focus, typing goes on.
        #expect(feed([h], false, 0.3).isEmpty)
        #expect(feed([r], false, 1.0).isEmpty, "each letter extends the pause")
        #expect(feed([KeyPress(key: .letter("l"), shift: true)], false, 1.8).isEmpty)
        // Keys that do not type pass at once.
        let f11 = KeyPress(key: .f11), ctrlZ = KeyPress(key: .letter("z"), ctrl: true), tab = KeyPress(key: .tab)
        #expect(feed([f11, ctrlZ, tab], false, 2.0) == [f11, ctrlZ, tab])
        // After a pause, single keys are shortcuts again.
        #expect(feed([r], false, 3.0) == [r])
        var fresh = TypingGuard()
        let passed = fresh.filter([r], textFocused: false, now: 0)
        #expect(passed == [r], "without a text field nothing is held back")
    }
}
