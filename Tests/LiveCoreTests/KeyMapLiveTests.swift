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
