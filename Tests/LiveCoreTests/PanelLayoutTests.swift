import Testing
@testable import LiveCore

/// The panels' tiles: never overlapping, inside the area, at every scale.
@Suite struct PanelLayoutTests {
    typealias P = PanelLayout.Panel

    static func tiles(_ open: [P], width: Double, height: Double, scale: Double, widths: PanelWidths = PanelWidths()) -> [P: PanelLayout.Rect] {
        let menu = 22 * scale
        return PanelLayout.tiles(open: open, area: PanelLayout.Rect(x: 0, y: menu, width: width, height: height - menu),
                                 widths: { widths.width($0) * scale }, minWidth: 320 * scale,
                                 minHeight: 5 * 22 * scale, gap: 4 * scale)
    }

    static func check(_ t: [P: PanelLayout.Rect], open: [P], width: Double, height: Double) {
        #expect(Set(t.keys) == Set(open))
        for (p, r) in t {
            #expect(r.x >= 0 && r.maxX <= width && r.maxY <= height && r.width > 0 && r.height > 0, "\(p): \(r)")
        }
        let list = t.sorted { $0.key.rawValue < $1.key.rawValue }
        for i in list.indices { for j in list.indices where j > i {
            #expect(!list[i].value.overlaps(list[j].value), "\(list[i].key) \(list[i].value) × \(list[j].key) \(list[j].value)")
        } }
    }

    @Test(arguments: [1.0, 1.5, 2.0, 3.0])
    func allPanelsOpenNeverOverlapAtAnyScale(scale: Double) {
        for (w, h) in [(1280.0, 720.0), (1920, 1080), (3840, 2160), (800, 600)] {
            for n in 1...P.allCases.count {
                let open = Array(P.allCases.prefix(n))
                Self.check(Self.tiles(open, width: w, height: h, scale: scale), open: open, width: w, height: h)
            }
            let some: [P] = [.audio, .library]
            Self.check(Self.tiles(some, width: w, height: h, scale: scale), open: some, width: w, height: h)
        }
    }

    @Test func atOneTimesTheEditorIsLeftTheOthersRightEachAtItsWidth() {
        let t = Self.tiles([.parameters, .audio], width: 1920, height: 1080, scale: 1)
        #expect(t[.parameters] == PanelLayout.Rect(x: 0, y: 22, width: 470, height: 1058))
        #expect(t[.audio]?.maxX == 1920 && t[.audio]?.width == 520, "the picture shows between them: \(String(describing: t[.audio]))")
    }

    @Test func whenColumnsWouldBeTooNarrowPanelsShareColumnsButNotSoDeepThatTheyShowOnlyTheirTitles() {
        // 3000 at 1×: every panel at its own width, side by side (they fit).
        let wide = Self.tiles(P.allCases, width: 3000, height: 1080, scale: 1)
        #expect(Set(wide.values.map(\.x)).count == P.allCases.count)
        #expect(wide.allSatisfy { $0.value.width == $0.key.defaultWidth }, "\(wide)")
        // 1280 at 1×: six columns would be about 210 px (a column wants 320): three, panels stacked in each right one.
        let one = Self.tiles(P.allCases, width: 1280, height: 720, scale: 1)
        #expect(Set(one.values.map(\.x)).count == 3, "\(one)")
        #expect(one.values.allSatisfy { $0.width >= 320 })
        // 1280 at 3× (a panel wants 960 × 330 px): no arrangement gives every panel that; the one chosen
        // keeps both of its sides in balance, no tile under 40 % of either.
        let three = Self.tiles(P.allCases, width: 1280, height: 720, scale: 3)
        #expect(three.values.allSatisfy { $0.width >= 0.4 * 960 && $0.height >= 0.4 * 330 }, "\(three)")
        // Six columns would be about 210 px wide, one column 110 px tall tiles: neither is taken.
        #expect((2...4).contains(Set(three.values.map(\.x)).count), "\(three)")
    }

    @Test func aWidthTheUserChoseIsKeptAndClamped() {
        var w = PanelWidths()
        w.set(.audio, 700)
        let t = Self.tiles([.parameters, .audio], width: 1920, height: 1080, scale: 1, widths: w)
        #expect(t[.audio]?.width == 700)
        w.set(.library, 10)
        #expect(w.width(.library) == PanelWidths.range.lowerBound)
        w.set(.library, .nan)
        #expect(w.width(.library) == PanelWidths.range.lowerBound, "a NaN width is ignored")
    }
}
