import Engine
import Foundation
import TestSupport
import Testing
@testable import LiveCore
@testable import LiveApp

/// The library on disk: real files in a temporary XDG data home, written by
/// the real I/O worker.
@Suite struct LibraryStoreTests {
    @Test func directoryFollowsXDG() {
        #expect(LibraryStore.defaultDirectory(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]).path == "/d/physarum")
        #expect(LibraryStore.defaultDirectory(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"]).path == "/h/.local/share/physarum")
        #expect(LibraryStore.defaultDirectory(environment: ["HOME": "/h"]).path == "/h/.local/share/physarum")
    }

    /// The shell's part: execute library effects on the worker and feed replies back.
    final class Shell {
        var model: AppModel
        let io: LibraryIO
        let worker: FileWorker<AppAction>
        var frame = RGBAImage(width: 64, height: 36)

        init(dir: String, factory: [Preset] = testFactory) {
            let store = LibraryStore(directory: URL(fileURLWithPath: dir + "/physarum"))
            let loaded = store.load()
            model = AppModel(library: LibraryModel(factory: factory, document: loaded.document, loadProblem: loaded.problem))
            if let n = loaded.notice { model.run(.notice(n, .warning)) }
            worker = FileWorker(name: "test.io")
            io = LibraryIO(store: store, worker: worker)
        }

        func dispatch(_ a: AppAction) {
            for e in model.handle(a) {
                if case .library(let le) = e {
                    for r in io.perform(le, thumbnail: { Thumbnail.make(from: self.frame.pixels, width: self.frame.width, height: self.frame.height) }) {
                        dispatch(r)
                    }
                }
            }
        }

        /// Waits for the worker and applies its replies.
        func settle() {
            _ = poll(seconds: 10) { worker.isIdle }
            for r in worker.drainReplies() { dispatch(r) }
            _ = poll(seconds: 10) { worker.isIdle }
        }

        deinit { worker.shutdown(timeout: 10) }
    }

    @Test func savedLibrarySurvivesARestartWithThumbnails() throws {
        let dir = LibraryTestDir()
        let a = Shell(dir: dir.path)
        // Left half red, right half blue.
        for y in 0..<36 { for x in 0..<64 { let i = (y * 64 + x) * 4; a.frame.pixels[i] = x < 32 ? 255 : 0; a.frame.pixels[i + 2] = x < 32 ? 0 : 255 } }
        a.dispatch(.setParam(.exposure, 2.2))
        a.dispatch(.library(.saveToSlot(1, name: "Red Blue")))
        a.dispatch(.library(.saveToSlot(0, name: "Other")))
        a.dispatch(.library(.moveSlot(1, by: -1)))
        a.dispatch(.library(.togglePin("user:1")))
        a.dispatch(.library(.togglePin("cellar")))
        a.settle()
        let b = Shell(dir: dir.path)
        #expect(b.model.library.document == a.model.library.document)
        #expect(b.model.library.slots[0]?.preset.name == "Red Blue" && b.model.library.pinnedIDs == ["user:1", "cellar"])
        #expect(b.model.notices.items.isEmpty)
        // Thumbnail: a real 160×90 PNG of the frame, letterboxed to 16:9 (64×36 is 16:9: no bars).
        let png = try #require(dir.read("physarum/thumbnails/user-1.png"))
        let thumb = try PNGCodec.decode([UInt8](png))
        #expect(thumb.width == 160 && thumb.height == 90)
        #expect(thumb.pixel(x: 10, y: 45) == (255, 0, 0, 255) && thumb.pixel(x: 150, y: 45) == (0, 0, 255, 255))
        // No temporary files are left behind.
        #expect(dir.names("physarum") == ["library.json", "thumbnails"])
    }

    @Test func anUnreadableLibraryIsKeptAndMovedAsideOnlyOnTheFirstSave() throws {
        let dir = LibraryTestDir()
        let broken = "{\"format\": 2, \"slots\": [ oops ]}"
        try dir.write("physarum/library.json", broken)
        let a = Shell(dir: dir.path)
        #expect(a.model.library.userCount == 0 && a.model.library.loadProblem != nil)
        let notice = try #require(a.model.notices.items.last?.text)
        #expect(notice.contains("library.json:1:") && notice.contains("the file is kept"))
        // Edits that are not library changes leave the file alone; so does a restart.
        a.dispatch(.setParam(.exposure, 3))
        a.settle()
        #expect(dir.read("physarum/library.json") == Data(broken.utf8))
        // The first save moves the bad file aside (bytes intact) and writes a new library.
        a.dispatch(.library(.saveToSlot(0, name: "Fresh")))
        a.settle()
        let aside = try #require(dir.names("physarum").first { $0.hasPrefix("library.json.unreadable-") })
        #expect(dir.read("physarum/" + aside) == Data(broken.utf8))
        #expect(a.model.notices.items.contains { $0.text.contains("kept as") && $0.text.contains(aside) })
        // The next start loads what was saved.
        let b = Shell(dir: dir.path)
        #expect(b.model.library.slots[0]?.preset.name == "Fresh" && b.model.library.loadProblem == nil)
    }

    @Test func importingABadFileChangesNothingAndSaysWhy() throws {
        let dir = LibraryTestDir()
        let a = Shell(dir: dir.path)
        a.dispatch(.library(.saveToSlot(0, name: "Keep")))
        a.settle()
        let before = a.model.library
        let fileBefore = dir.read("physarum/library.json")
        let bad = try dir.write("bad.json", "{\"format\":1,\"name\":\"x\",\"params\":{\"global.exposure\":\"bright\"}}")
        a.dispatch(.library(.importPreset(path: bad)))
        a.settle()
        #expect(a.model.library == before)
        #expect(dir.read("physarum/library.json") == fileBefore)
        let text = try #require(a.model.notices.items.last?.text)
        #expect(text.hasPrefix("Not a valid preset, nothing imported: \(bad):1:"))
        #expect(text.contains("params.global.exposure") && text.contains("expected a number"))
        a.dispatch(.library(.importPreset(path: dir.file("missing.json"))))
        a.settle()
        #expect(a.model.notices.items.last?.text.contains("No such file") == true)
        #expect(a.model.library == before)
    }

    @Test func exportThenImportGivesTheSameLook() throws {
        let dir = LibraryTestDir()
        let a = Shell(dir: dir.path)
        a.dispatch(.setParam(.exposure, 0.42))
        a.dispatch(.library(.saveToSlot(3, name: "Travel")))
        // A folder path gets <name>.json inside.
        a.dispatch(.library(.exportPreset(id: "user:1", path: dir.path + "/out/")))
        a.settle()
        let file = dir.file("out/travel.json")
        #expect(a.model.notices.items.last?.text == "Exported \"Travel\" to \(file)")
        a.dispatch(.library(.importPreset(path: file)))
        a.settle()
        let imported = try #require(a.model.library.slots[0])
        #expect(imported.preset.name == "Travel" && imported.preset.params == a.model.library.slots[3]?.preset.params)
        #expect(imported.preset.id == "user:2")
        // An existing file that is not a preset is never replaced.
        let other = try dir.write("notes.txt", "my notes")
        a.dispatch(.library(.exportPreset(id: "cellar", path: other)))
        a.settle()
        #expect(dir.read("notes.txt") == Data("my notes".utf8))
        #expect(a.model.notices.items.last?.text.contains("is not a preset file") == true)
    }

    @Test func deletingRemovesTheThumbnail() throws {
        let dir = LibraryTestDir()
        let a = Shell(dir: dir.path)
        a.dispatch(.library(.saveToSlot(0, name: "T")))
        a.settle()
        #expect(dir.names("physarum/thumbnails") == ["user-1.png"])
        a.dispatch(.library(.deleteSlot(0)))
        a.dispatch(.library(.confirm))
        a.settle()
        #expect(dir.names("physarum/thumbnails").isEmpty)
    }
}
