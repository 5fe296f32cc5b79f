import Testing
@testable import LiveCore

/// The first UI scale from a desktop's X resources (Xft.dpi ÷ 96).
@Suite struct DesktopScaleTests {
    @Test func xftDpiGivesTheScaleToAQuarterWithinOneToThree() {
        #expect(DesktopScale.fromXResources("Xft.dpi:\t192\n") == 2)
        #expect(DesktopScale.fromXResources("Xcursor.size: 24\nXft.antialias: 1\nXft.dpi: 144\nXft.hinting: 1\n") == 1.5)
        #expect(DesktopScale.fromXResources("Xft.dpi: 120") == 1.25)
        #expect(DesktopScale.fromXResources("Xft.dpi: 96") == 1)
        #expect(DesktopScale.fromXResources("Xft.dpi: 72") == 1, "never below 1")
        #expect(DesktopScale.fromXResources("Xft.dpi: 480") == 3, "never above 3")
    }

    @Test func noDpiOrAnUnreadableOneGivesNoScale() {
        #expect(DesktopScale.fromXResources("") == nil)
        #expect(DesktopScale.fromXResources("Xft.antialias: 1\n") == nil)
        #expect(DesktopScale.fromXResources("Xft.dpi: big\n") == nil)
        #expect(DesktopScale.fromXResources("Xft.dpi: nan\n") == nil)
        #expect(DesktopScale.fromXResources("Xft.dpi: -192\n") == nil)
        #expect(DesktopScale.fromXResources("XXft.dpi: 192\n") == nil)
    }
}
