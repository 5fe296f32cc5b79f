import AppTestSupport
import Foundation
import ImGuiShim
import TestSupport
import Testing
@testable import LiveCore
@testable import LiveApp

/// The library panel with the notices drawn as the window draws them (the
/// band under the top edge, the panels tiled below it), in real headless ImGui frames.
final class NoticeRig: PanelDriving {
    let inner: LivePanelRig
    var notices = NoticesPanel()
    var now = 0.0

    init(dir: String) { inner = LivePanelRig(dir: dir) }

    var model: AppModel { inner.model }

    /// The names of the notices' items that start with `prefix`.
    func items(_ prefix: String) -> Set<String> {
        var out: Set<String> = []
        for k in notices.rects.keys where k.hasPrefix(prefix) { out.insert(k) }
        return out
    }

    func draw() {
        inner.shell.dispatch(.expireNotices(now: now))
        let board = inner.model.notices
        let band = NoticesPanel.band(board, top: 0, width: 1280)
        var arrangement = PanelArrangement()
        arrangement.layout(open: board.windowOpen ? [.library, .notices] : [.library],
                           area: UI.Rect(x0: 0, y0: band?.y1 ?? 0, x1: 1280, y1: 900), widths: PanelWidths())
        inner.panels.library.tile = arrangement.tiles[.library]
        notices.tile = arrangement.tiles[.notices]
        inner.draw()
        notices.draw(board, now: now, band: band) { inner.shell.dispatch($0) }
    }

    func rect(_ name: String) throws -> UI.Rect {
        try #require(notices.rects[name] ?? inner.panels.library.rects[name], "no item \(name)")
    }
}

@Suite(.serialized) struct NoticesPanelTests {
    static func overlaps(_ a: UI.Rect, _ b: UI.Rect) -> Bool { a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

    @Test func anExportErrorShowsInTheBandAboveTheLibraryPanelWhichMovesDownAndItStays() throws {
        let dir = LibraryTestDir()
        try HeadlessImGui.run { ui in
            let rig = NoticeRig(dir: dir.path)
            ui.frames(2, rig.draw)
            let panelBefore = try rig.rect("window")
            try rig.type(ui, into: "search", "cellar")
            try rig.click(ui, "row:factory:cellar")
            try rig.type(ui, into: "exportPath", "/proc/no-such-folder/cellar-with-a-long-enough-name-to-reach-across.json")
            try rig.click(ui, "export")
            rig.inner.shell.settle()
            ui.frames(2, rig.draw)
            let error = try #require(rig.model.notices.items.last)
            #expect(error.level == .error && error.text.contains("/proc/no-such-folder"), "\(error.level): \(error.text)")
            // The band pushes the panel down: nothing of the panel is under it.
            let strip = try rig.rect("strip"), panel = try rig.rect("window")
            #expect(!Self.overlaps(strip, panel), "strip \(strip) and panel \(panel) share no pixels")
            #expect(strip.y1 <= panel.y0 && panel.y0 > panelBefore.y0, "the panel moved down below the band: \(panelBefore) → \(panel)")
            _ = try rig.rect("notice:\(error.id)")
            // Errors do not fade.
            rig.now = 3600
            ui.frames(2, rig.draw)
            #expect(rig.model.notices.items.contains { $0.id == error.id })
            try rig.click(ui, "dismiss:\(error.id)")
            #expect(!rig.model.notices.items.contains { $0.id == error.id })
            #expect(rig.model.notices.history.contains { $0.id == error.id }, "the history keeps it")
        }
    }

    @Test func theWindowListsTheWholeHistory() throws {
        let dir = LibraryTestDir()
        try HeadlessImGui.run { ui in
            let rig = NoticeRig(dir: dir.path)
            for i in 1...29 { rig.inner.shell.dispatch(.notice("Preset skipped: broken-\(i).json: not JSON", .warning)) }
            ui.frames(2, rig.draw)
            #expect(rig.items("notice:").count == rig.model.notices.shownLimit)
            try rig.click(ui, "more")
            #expect(rig.model.notices.windowOpen)
            ui.frames(2, rig.draw)
            let rows = rig.items("row:")
            #expect(rows == Set((1...29).map { "row:\($0)" }), "one row per notice: \(rows.sorted())")
            rig.now = 60  // every warning has faded from the strip; the window still lists them
            ui.frames(2, rig.draw)
            #expect(rig.model.notices.items.isEmpty)
            let later = rig.items("row:")
            #expect(later == rows, "\(later.sorted())")
        }
    }
}
