import AudioReactive
import Engine
import Testing
@testable import LiveCore

/// The documented OSC addresses and what each one asks of the app.
@Suite struct OSCAddressSpaceTests {
    static func actions(_ address: String, _ args: OSCArgument...) -> [AppAction]? {
        try? OSCAddressSpace.actions(for: OSCMessage(address, args)).get()
    }

    static func rejected(_ address: String, _ args: OSCArgument...) -> String? {
        if case .failure(let e) = OSCAddressSpace.actions(for: OSCMessage(address, args)) { return e.reason }
        return nil
    }

    @Test func everyDocumentedAddressMapsToItsAction() {
        #expect(Self.actions("/physarum/param/effects.vignette", .float(0.75)) == [.setParam(.vignette, 0.75)])
        #expect(Self.actions("/physarum/param/global.exposure", .int(100)) == [.setParam(.exposure, 8)], "clamped to the range")
        #expect(Self.actions("/physarum/route/2/depth", .double(-0.5)) == [.audio(.setDepth(1, -0.5))])
        #expect(Self.actions("/physarum/preset/next") == [.next])
        #expect(Self.actions("/physarum/preset/prev") == [.previous])
        #expect(Self.actions("/physarum/preset/slot", .int(3)) == [.library(.jumpToSlot(2))])
        #expect(Self.actions("/physarum/blackout", .int(1)) == [.live(.setBlackout(true))])
        #expect(Self.actions("/physarum/blackout", .int(0)) == [.live(.setBlackout(false))])
        #expect(Self.actions("/physarum/cycle", .bool(true)) == [.live(.setCycling(true))])
        #expect(Self.actions("/physarum/tempo", .float(128)) == [.audio(.beat(.setTempo(128)))])
        #expect(Self.actions("/physarum/tap") == [.audio(.beat(.tap))])
        #expect(Self.actions("/physarum/mutate") == [.mutate(amount: 0.1, seed: 0)])
        #expect(Self.actions("/physarum/randomize") == [.randomize(seed: 0)])
        #expect(Self.actions("/physarum/morph", .float(0.5)) == [.control(.morph(0.5))])
    }

    @Test func badMessagesAreRejectedWithAReason() {
        #expect(Self.rejected("/other/thing") != nil)
        #expect(Self.rejected("/physarum/param/nope", .float(1))?.contains("unknown parameter") == true)
        #expect(Self.rejected("/physarum/param/global.agents", .float(1))?.contains("respawns") == true)
        // A parameter that exists but is not a number is named as such, not "unknown".
        let pattern = Self.rejected("/physarum/param/spawn.pattern", .float(1))
        #expect(pattern?.hasPrefix("'spawn.pattern' is a choice (random, ") == true && pattern?.contains("not a number") == true, "\(pattern ?? "")")
        #expect(Self.rejected("/physarum/param/species.1.color", .string("#ff0000"))?.hasPrefix("'species.1.color' is a colour (#rrggbb), not a number") == true)
        #expect(Self.rejected("/physarum/param/render.blendMode", .float(1))?.contains("unknown") == false)
        #expect(Self.rejected("/physarum/param/effects.vignette") == "expects one number")
        #expect(Self.rejected("/physarum/param/effects.vignette", .string("x")) == "expects one number")
        #expect(Self.rejected("/physarum/param/effects.vignette", .float(.nan)) == "expects one number")
        #expect(Self.rejected("/physarum/route/0/depth", .float(1)) != nil)
        #expect(Self.rejected("/physarum/preset/slot", .int(25)) != nil)
        #expect(Self.rejected("/physarum/preset/slot", .float(2.5)) != nil)
        #expect(Self.rejected("/physarum/preset/next", .int(1)) != nil)
        #expect(Self.rejected("/physarum/tempo", .float(5)) != nil)
        #expect(Self.rejected("/physarum/blackout") != nil)
        #expect(Self.rejected("/physarum/", .int(1)) != nil)
    }

    @Test func switchesAreSetNotToggledSoARepeatedMessageChangesNothing() {
        var m = AppModel(presets: [Preset(id: "a", name: "A", params: PresetParams())])
        for _ in 0..<3 { for a in Self.actions("/physarum/blackout", .int(1))! { _ = m.handle(a) } }
        #expect(m.live.blackout)
        for _ in 0..<2 { for a in Self.actions("/physarum/cycle", .int(1))! { _ = m.handle(a) } }
        #expect(m.playlistOn)
        for a in Self.actions("/physarum/cycle", .int(0))! { _ = m.handle(a) }
        #expect(!m.playlistOn)
    }
}
