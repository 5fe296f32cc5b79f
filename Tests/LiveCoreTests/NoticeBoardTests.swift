import Testing
@testable import LiveCore

/// Notices: errors stay, infos and warnings fade, nothing is dropped
/// without a word, the history keeps everything.
@Suite struct NoticeBoardTests {
    @Test func errorsStayUntilDismissedInfosAndWarningsFade() {
        var b = NoticeBoard()
        b.post("saved", .info)
        b.post("odd file", .warning)
        b.post("export failed", .error)
        b.expire(now: 10)  // the first frame that shows them
        #expect(b.items.count == 3)
        b.expire(now: 10 + b.infoSeconds - 0.5)
        #expect(b.items.map(\.text) == ["saved", "odd file", "export failed"])
        #expect(b.opacity(b.items[0], now: 10 + b.infoSeconds - 0.5) == 0.5, "the info fades over its last second")
        b.expire(now: 10 + b.infoSeconds)
        #expect(b.items.map(\.text) == ["odd file", "export failed"])
        b.expire(now: 10 + b.warningSeconds)
        #expect(b.items.map(\.text) == ["export failed"])
        b.expire(now: 10_000)
        #expect(b.items.map(\.text) == ["export failed"], "an error stays")
        #expect(b.opacity(b.items[0], now: 10_000) == 1)
        b.dismiss(b.items[0].id)
        #expect(b.items.isEmpty)
        #expect(b.history.map(\.text) == ["saved", "odd file", "export failed"], "the history keeps all")
    }

    @Test func twentyNineProblemsAreAllKeptAndTheStripSaysHowManyItLeavesOut() {
        var b = NoticeBoard()
        for i in 1...29 {
            let fresh = b.post("Preset skipped: broken-\(i).json", .warning)
            #expect(fresh)
        }
        #expect(b.items.count == 29 && b.history.count == 29)
        #expect(b.visible.count == b.shownLimit)
        #expect(b.hiddenCount == 29 - b.shownLimit)
        #expect(b.visible.last?.text == "Preset skipped: broken-29.json", "the newest are shown")
        #expect(b.counts.warnings == 29)
    }

    @Test func errorsComeFirstOnTheStrip() {
        var b = NoticeBoard()
        b.post("Export failed: read-only folder", .error)
        for i in 1...10 { b.post("info \(i)", .info) }
        #expect(b.visible.first?.text == "Export failed: read-only folder", "an error is never pushed off by infos")
        #expect(b.visible.count == b.shownLimit && b.hiddenCount == 6)
    }

    @Test func aRepeatCountsAndShowsAgain() {
        var b = NoticeBoard()
        let first = b.post("Screenshot saved", .info)
        #expect(first)
        b.expire(now: 0)
        b.expire(now: 100)
        #expect(b.items.isEmpty)
        let again = b.post("Screenshot saved", .info)
        #expect(!again, "not logged again")
        #expect(b.items.count == 1 && b.items[0].repeats == 1 && b.history.count == 1)
        b.expire(now: 101)
        #expect(b.items.count == 1, "shown afresh")
    }

    @Test func actionsDismissAllAndToggleTheWindow() {
        var m = AppModel(presets: [])
        _ = m.handle(.notice("a", .error))
        _ = m.handle(.notice("b", .error))
        _ = m.handle(.dismissAllNotices)
        #expect(m.notices.items.isEmpty && m.notices.history.count == 2)
        _ = m.handle(.toggleNoticesWindow)
        #expect(m.notices.windowOpen)
        let effects = m.handle(.notice("c", .info))
        #expect(effects == [.logNotice("c")], "every new notice goes to stderr")
    }
}
