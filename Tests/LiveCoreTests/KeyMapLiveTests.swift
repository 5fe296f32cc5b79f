import TestSupport
import Testing
@testable import LiveCore

/// Live-set keys and the overlay's list of bindings.
@Suite struct KeyMapLiveTests {
    @Test func everyOverlayLineDoesWhatItSays() {
        for b in KeyMap.bindings {
            #expect(KeyMap.action(for: b.example, textFocused: false) == b.action, "\(b.keys)")
        }
        // No two lines show the same keys.
        #expect(Set(KeyMap.bindings.map(\.keys)).count == KeyMap.bindings.count)
    }

    @Test func numberKeysJumpToTheFirstTwentySlots() {
        #expect(KeyMap.action(for: KeyPress(key: .digit(1)), textFocused: false) == .library(.jumpToSlot(0)))
        #expect(KeyMap.action(for: KeyPress(key: .digit(9)), textFocused: false) == .library(.jumpToSlot(8)))
        #expect(KeyMap.action(for: KeyPress(key: .digit(0)), textFocused: false) == .library(.jumpToSlot(9)))
        #expect(KeyMap.action(for: KeyPress(key: .digit(1), shift: true), textFocused: false) == .library(.jumpToSlot(10)))
        #expect(KeyMap.action(for: KeyPress(key: .digit(1), isRepeat: true), textFocused: false) == nil)
    }

    @Test func liveKeysAreIgnoredWhileTypingAndOnRepeat() {
        for key in [Key.space, .letter("b"), .letter("h"), .letter("p"), .letter("r"), .letter("g"), .digit(3), .f1] {
            #expect(KeyMap.action(for: KeyPress(key: key), textFocused: true) == nil)
            #expect(KeyMap.action(for: KeyPress(key: key), textFocused: false) != nil)
            #expect(KeyMap.action(for: KeyPress(key: key, isRepeat: true), textFocused: false) == nil)
        }
        // Plain slash is not the overlay (only "?").
        #expect(KeyMap.action(for: KeyPress(key: .slash), textFocused: false) == nil)
        // Alt or Ctrl with a live key does nothing.
        #expect(KeyMap.action(for: KeyPress(key: .letter("b"), alt: true), textFocused: false) == nil)
        #expect(KeyMap.action(for: KeyPress(key: .letter("b"), ctrl: true), textFocused: false) == nil)
    }

    @Test func liveTogglesThroughTheModel() {
        var m = AppModel(library: LibraryModel(factory: testFactory))
        #expect(m.run(.live(.screenshot)) == [.capture(.screenshot)])
        #expect(m.run(.live(.toggleRecording)) == [.capture(.toggleRecording)])
        m.run(.live(.toggleBlackout), .live(.toggleHideAll), .live(.toggleKeyHelp), .live(.toggleSlotPicker))
        #expect(m.live.blackout && m.live.allHidden && m.live.keyHelpVisible && m.live.slotPickerOpen)
        m.run(.live(.toggleBlackout), .live(.toggleHideAll), .live(.toggleKeyHelp), .live(.toggleSlotPicker))
        #expect(!m.live.blackout && !m.live.allHidden && !m.live.keyHelpVisible && !m.live.slotPickerOpen)
    }
}

/// Alt (tap), F10 and Ctrl+Tab: the menu bar and the panels by keyboard.
@Suite struct MenuAndPanelKeysTests {
    @Test func altTappedAloneOrF10GoesToTheMenuBarEvenFromATextField() {
        var tap = AltTap()
        tap.altDown()
        let tapped = tap.altUp()
        #expect(tapped, "a tap")
        tap.altDown()
        tap.otherInput()  // Alt+click, Alt+arrow: a modifier
        let modifier = tap.altUp()
        #expect(!modifier)
        let releaseAlone = tap.altUp()
        #expect(!releaseAlone, "a release alone is no tap")
        for textFocused in [false, true] {
            #expect(KeyMap.action(for: KeyPress(key: .altTap), textFocused: textFocused) == .ui(.focusMenuBar))
            #expect(KeyMap.action(for: KeyPress(key: .f10), textFocused: textFocused) == .ui(.focusMenuBar))
            #expect(KeyMap.action(for: KeyPress(key: .tab, ctrl: true), textFocused: textFocused) == .ui(.cyclePanel(1)))
            #expect(KeyMap.action(for: KeyPress(key: .tab, ctrl: true, shift: true), textFocused: textFocused) == .ui(.cyclePanel(-1)))
        }
        #expect(KeyMap.action(for: KeyPress(key: .tab), textFocused: false) == .toggleUI, "Tab alone still shows/hides the panels")
    }

    @Test func theModelHandsFocusMovesToTheShellAndKeepsTheLook() {
        var m = AppModel(presets: [])
        #expect(m.handle(.ui(.focusMenuBar)) == [.ui(.focusMenuBar)])
        #expect(m.handle(.ui(.cyclePanel(-1))) == [.ui(.cyclePanel(-1))])
        #expect(m.handle(.ui(.setTheme(.darkRoom))) == [.ui(.applyStyle(.darkRoom, opacity: 1))])
        #expect(m.handle(.ui(.setTheme(.darkRoom))).isEmpty, "no change, no restyle")
        #expect(m.handle(.ui(.setPanelOpacity(0.2))) == [.ui(.applyStyle(.darkRoom, opacity: UITheme.opacityRange.lowerBound))],
                "clamped to where text keeps its contrast")
        _ = m.handle(.ui(.setPanelWidth(.audio, 640)))
        #expect(m.ui.panelWidths.width(.audio) == 640)
    }
}
