import Testing
@testable import LiveCore

/// WCAG AA for the panels' text in both themes, computed from the themes' own colours.
@Suite struct UIThemeTests {
    @Test func theContrastFormulaGivesWCAGsReferenceValues() {
        #expect(abs(ThemeColor.white.contrast(with: .black) - 21) < 1e-9)
        #expect(ThemeColor.white.contrast(with: .white) == 1)
        // #777777 on white is the classic "just fails" grey: 4.48:1.
        #expect(abs(ThemeColor(hex: 0x777777).contrast(with: .white) - 4.48) < 0.01)
        #expect(abs(ThemeColor(hex: 0x767676).contrast(with: .white) - 4.54) < 0.01)
        // Half-transparent black over white is the mid grey of the encoded values.
        #expect(ThemeColor.black.alpha(0.5).over(.white) == ThemeColor(0.5, 0.5, 0.5))
    }

    @Test(arguments: UITheme.ID.allCases)
    func everyTextColourMeetsAAOnEveryBackgroundItIsDrawnOn(id: UITheme.ID) {
        let theme = id.theme
        for opacity in [UITheme.opacityRange.lowerBound, UITheme.defaultOpacity, UITheme.opacityRange.upperBound] {
            let pairs = theme.textPairs(opacity: opacity)
            #expect(pairs.count > 40)
            for p in pairs {
                let ratio = p.text.contrast(with: p.background)
                #expect(ratio >= 4.5, "\(p.name) at opacity \(opacity): \(ratio)")
            }
        }
    }

    @Test func theLowestOpacityIsTheLowestThatHolds() {
        // Below the range, some text over a white picture falls under 4.5:1 in a theme: the range is not arbitrary.
        let lower = UITheme.opacityRange.lowerBound - 0.1
        let failing = UITheme.ID.allCases.flatMap { $0.theme.textPairs(opacity: lower) }.filter { $0.text.contrast(with: $0.background) < 4.5 }
        #expect(!failing.isEmpty)
    }

    @Test func theDarkRoomThemeIsDimmerAndWarmerWithLargerTargets() {
        let s = UITheme.standard, d = UITheme.darkRoom
        #expect(d.text.normal.relativeLuminance < s.text.normal.relativeLuminance / 2, "dimmer text")
        #expect(d.surface.window.relativeLuminance <= s.surface.window.relativeLuminance, "no brighter background")
        for c in [d.text.normal, d.text.dim, d.text.accent, d.surface.button, d.surface.grab] {
            #expect(c.r > c.b, "warm: more red than blue in \(c)")
        }
        #expect(d.metrics.framePadding.y > s.metrics.framePadding.y && d.metrics.grabMinSize > s.metrics.grabMinSize)
        #expect(d.metrics.itemSpacing.y > s.metrics.itemSpacing.y)
    }
}
