import Engine
import TestSupport
import Testing
@testable import LiveCore

/// The preset library through the app's action layer (pure: no files).
@Suite struct LibraryModelTests {
    func model() -> AppModel { AppModel(library: LibraryModel(factory: testFactory)) }

    @Test func saveIntoEmptySlotAdoptsTheLookAndAsksForThumbnailAndWrite() throws {
        var m = model()
        m.run(.setParam(.exposure, 2.5))
        #expect(m.isEdited)
        let effects = m.run(.library(.saveToSlot(2, name: "  My Look  ")))
        let slot = try #require(m.library.slots[2])
        #expect(slot.preset.name == "My Look")
        #expect(slot.preset.id == "user:1")
        #expect(slot.preset.params[.exposure] == 2.5)
        #expect(slot.preset.tags == ["calm", "warm"])  // tags of the preset it was made from
        // The saved look is now the loaded preset, unedited; play order starts with it.
        #expect(m.currentPreset?.id == "user:1" && !m.isEdited)
        #expect(m.presets.map(\.id) == ["user:1"] + testFactory.map(\.id))
        let lib = AppModel.libraryEffects(effects)
        #expect(lib == [.writeLibrary(m.library.document), .writeThumbnail(presetID: "user:1")])
        #expect(m.notices.items.last?.text == "Saved \"My Look\" in slot 3")
    }

    @Test func overwriteAsksAndOnlyYesReplaces() throws {
        var m = model()
        m.run(.library(.saveToSlot(0, name: "First")))
        let before = m.library
        m.run(.setParam(.exposure, 3))
        // Asking changes nothing and writes nothing.
        let asked = m.run(.library(.saveToSlot(0, name: "Second")))
        #expect(AppModel.libraryEffects(asked).isEmpty)
        #expect(m.library.slots == before.slots)
        #expect(m.library.pending == .overwrite(slot: 0, name: "Second"))
        // No keeps the slot.
        m.run(.library(.cancel))
        #expect(m.library.slots == before.slots && m.library.pending == nil)
        // Yes replaces it, keeping the slot's id and pin.
        m.run(.library(.togglePin("user:1")), .library(.saveToSlot(0, name: "Second")))
        let done = m.run(.library(.confirm))
        let s = try #require(m.library.slots[0])
        #expect(s.preset.name == "Second" && s.preset.params[.exposure] == 3 && s.preset.id == "user:1" && s.pinned)
        #expect(AppModel.libraryEffects(done).contains(.writeThumbnail(presetID: "user:1")))
        // A second confirm does nothing.
        #expect(m.run(.library(.confirm)).isEmpty)
    }

    @Test func anotherActionAbandonsAPendingQuestion() {
        var m = model()
        m.run(.library(.saveToSlot(0, name: "First")), .library(.saveToSlot(0, name: "Second")))
        m.run(.library(.togglePin("cellar")))
        #expect(m.library.pending == nil)
        m.run(.library(.confirm))
        #expect(m.library.slots[0]?.preset.name == "First")
    }

    @Test func renameLimitsTo64Characters() {
        var m = model()
        m.run(.library(.saveToSlot(0, name: "A")))
        m.run(.library(.renameSlot(0, String(repeating: "x", count: 64))))
        #expect(m.library.slots[0]?.preset.name.count == 64)
        let before = m.library
        m.run(.library(.renameSlot(0, String(repeating: "y", count: 65))))
        #expect(m.library == before)
        #expect(m.notices.items.last?.text == "A preset name has at most 64 characters")
        m.run(.library(.renameSlot(0, "   ")))
        #expect(m.library == before)
        #expect(m.notices.items.last?.text == "A preset needs a name")
        // Control characters are removed.
        m.run(.library(.renameSlot(0, "Tab\there")))
        #expect(m.library.slots[0]?.preset.name == "Tabhere")
        m.run(.library(.renameSlot(5, "Nobody")))
        #expect(m.notices.items.last?.text == "Slot 6 is empty")
    }

    @Test func moveSwapsWithTheNeighbourAndStopsAtTheEnds() {
        var m = model()
        m.run(.library(.saveToSlot(0, name: "A")), .library(.saveToSlot(1, name: "B")))
        m.run(.library(.moveSlot(1, by: -1)))
        #expect(m.library.slots[0]?.preset.name == "B" && m.library.slots[1]?.preset.name == "A")
        #expect(m.presets.prefix(2).map(\.name) == ["B", "A"])
        #expect(AppModel.libraryEffects(m.run(.library(.moveSlot(0, by: -1)))).isEmpty)
        m.run(.library(.moveSlot(1, by: 1)))
        #expect(m.library.slots[2]?.preset.name == "A" && m.library.slots[1] == nil)
        #expect(AppModel.libraryEffects(m.run(.library(.moveSlot(23, by: 1)))).isEmpty)
    }

    @Test func deleteAsksThenRemovesTheSlotAndItsThumbnail() {
        var m = model()
        m.run(.library(.saveToSlot(4, name: "Gone")))
        m.run(.library(.deleteSlot(4)))
        #expect(m.library.slots[4] != nil && m.library.pending == .delete(slot: 4))
        let e = m.run(.library(.confirm))
        #expect(m.library.slots[4] == nil)
        #expect(AppModel.libraryEffects(e) == [.writeLibrary(m.library.document), .removeThumbnails(["user:1"])])
        // The look stays; it is no longer a library preset.
        #expect(m.currentPreset == nil)
    }

    @Test func pinsWorkOnUserAndFactoryPresets() {
        var m = model()
        m.run(.library(.saveToSlot(0, name: "Mine")))
        m.run(.library(.togglePin("user:1")), .library(.togglePin("cellar")), .library(.togglePin("amber-drift")))
        #expect(m.library.pinnedIDs == ["user:1", "amber-drift", "cellar"])
        m.run(.library(.togglePin("amber-drift")))
        #expect(m.library.pinnedIDs == ["user:1", "cellar"])
        let before = m.library
        m.run(.library(.togglePin("nope")))
        #expect(m.library == before)
    }

    @Test func searchMatchesNameAndTagsIgnoringCaseAndAccents() {
        var m = model()
        var p = PresetParams()
        p[.exposure] = 2
        m.run(.library(.importLoaded(Preset(id: "x", name: "Warm Night", tags: ["live"], params: p), file: "f.json")))
        #expect(m.library.search("").count == 5)
        #expect(m.library.search("calm").map(\.preset.id) == ["amber-drift", "cellar"])
        #expect(m.library.search("WARM").map(\.preset.name) == ["Warm Night", "Amber Drift", "Dune Café"])
        #expect(m.library.search("cafe").map(\.preset.id) == ["dune"])
        #expect(m.library.search("warm live").map(\.slot) == [0])
        #expect(m.library.search("zebra").isEmpty)
    }

    @Test func importIntoAFullLibraryChangesNothingAndSaysWhy() {
        var m = model()
        for i in 0..<24 { m.run(.library(.saveToSlot(i, name: "S\(i + 1)"))) }
        #expect(m.library.firstFreeSlot == nil)
        let before = m.library
        let presets = m.presets
        let e = m.run(.library(.importPreset(path: "/tmp/x.json")))
        #expect(e == [.logNotice(LibraryModel.fullMessage)])
        #expect(m.library == before && m.presets == presets)
        #expect(m.notices.items.last?.text == LibraryModel.fullMessage)
        // A read that completes after the library filled up changes nothing either.
        _ = m.run(.dismissNotice(m.notices.items.last!.id))
        m.run(.library(.importLoaded(testFactory[0], file: "x.json")))
        #expect(m.library == before)
        #expect(m.notices.items.last?.text == LibraryModel.fullMessage)
    }

    @Test func importGoesToTheFirstFreeSlotWithAFreshID() {
        var m = model()
        m.run(.library(.saveToSlot(0, name: "Zero")))
        #expect(AppModel.libraryEffects(m.run(.library(.importPreset(path: "/p.json")))) == [.readPreset(path: "/p.json")])
        m.run(.library(.importLoaded(testFactory[1], file: "/p.json")))
        #expect(m.library.slots[1]?.preset.id == "user:2")
        #expect(m.library.slots[1]?.preset.name == "Blue Storm" && m.library.slots[1]?.preset.params == testFactory[1].params)
    }

    @Test func keepOnlyPinnedAndResetAsk() {
        var m = model()
        for (i, n) in ["A", "B", "C"].enumerated() { m.run(.library(.saveToSlot(i, name: n))) }
        m.run(.library(.togglePin("user:2")), .library(.togglePin("dune")))
        m.run(.library(.keepOnlyPinned))
        #expect(m.library.pending == .keepOnlyPinned(removing: 2) && m.library.userCount == 3)
        let e = m.run(.library(.confirm))
        #expect(m.library.slots.map { $0?.preset.name } == [nil, "B"] + Array(repeating: nil, count: 22))
        #expect(AppModel.libraryEffects(e).contains(.removeThumbnails(["user:1", "user:3"])))
        m.run(.library(.resetToFactory), .library(.confirm))
        #expect(m.library.userCount == 0 && m.library.pinnedIDs.isEmpty)
        #expect(m.presets.map(\.id) == testFactory.map(\.id))
        // Ids are never reused after a reset.
        m.run(.library(.saveToSlot(0, name: "New")))
        #expect(m.library.slots[0]?.preset.id == "user:4")
    }

    @Test func jumpToSlotLoadsItsPresetOrSaysItIsEmpty() {
        var m = model()
        m.run(.jumpTo("cellar"), .library(.saveToSlot(3, name: "Four")))
        m.run(.jumpTo("dune"))
        let e = m.run(.library(.jumpToSlot(3)))
        #expect(m.currentPreset?.name == "Four" && e.contains(.reseed))
        let before = m.currentPreset
        m.run(.library(.jumpToSlot(7)))
        #expect(m.currentPreset == before && m.notices.items.last?.text == "Slot 8 is empty")
    }

    @Test func exportNamesThePreset() {
        var m = model()
        let e = m.run(.library(.exportPreset(id: "cellar", path: "/tmp/out.json")))
        #expect(AppModel.libraryEffects(e) == [.writePreset(testFactory[2], path: "/tmp/out.json")])
        m.run(.library(.exportPreset(id: "user:9", path: "/tmp/out.json")))
        #expect(m.notices.items.last?.text == "There is no preset 'user:9' to export")
    }
}
