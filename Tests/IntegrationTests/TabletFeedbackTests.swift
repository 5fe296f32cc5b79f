import Foundation
import LiveCore
import Testing
import TestSupport

/// The tablet layout's values sent back (`--osc-feedback`), received by
/// liblo's `oscdump` as a tablet would: every fader and toggle of
/// configs/osc/tablet-layout.json gets its value, and a change made
/// elsewhere (here over OSC in) comes back on its address, so the
/// tablet's faders follow.
@Suite(.serialized) struct TabletFeedbackTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(.enabled(if: OSCTools.available, "oscsend and oscdump are needed (liblo-tools; scripts/test installs them)"))
    func everyLayoutValueIsSentAndFollowsChanges() throws {
        let fx = try RemoteFixture()
        try FileManager.default.copyItem(at: Self.repo.appendingPathComponent("configs/osc"), to: fx.dir.appendingPathComponent("configs/osc"))
        let layoutURL = Self.repo.appendingPathComponent("configs").appendingPathComponent(OSCLayout.shippedPath)
        let layout = try OSCLayout.decode(Data(contentsOf: layoutURL), file: layoutURL.path)
        for c in layout.controls {
            #expect(c.target == "tempo" || ControlTarget(id: c.target) != nil, "\(c.label): '\(c.target)' is a target the app takes")
        }
        let dump = try OSCTools.Dump(in: fx.dir)
        defer { dump.stop() }
        let w = try OSCControlTests.open(fx, extra: ["--demo", "--preset", "alpha", "--osc-feedback", "127.0.0.1:\(dump.port)"])
        defer { w.app.stop() }
        // Every fader and toggle (the tempo once one is known) and the status lines.
        try OSCTools.send(port: w.port, "/physarum/tempo", "f", "120")
        // Those with a value here: not morph (a move, no lasting value), no route past the config's.
        let routes = try #require(w.live?["routeDepths"] as? [Any]).count
        let valued = layout.controls.filter { c in
            guard c.kind != .button else { return false }
            if c.target == "tempo" { return true }
            switch ControlTarget(id: c.target) {
            case .morph?, nil: return false
            case .routeDepth(let i)?: return i < routes
            default: return true
            }
        }
        #expect(valued.count > 20, "\(valued.count) of the layout's \(layout.controls.count) controls")
        let addresses = valued.map(\.address) + ["/physarum/status/preset", "/physarum/status/setlist"]
        #expect(poll(seconds: 30) { let t = dump.text; return addresses.allSatisfy { t.contains(" \($0) ") } },
                "missing: \(addresses.filter { !dump.text.contains(" \($0) ") })")
        // A change made elsewhere comes back on its address.
        try OSCTools.send(port: w.port, "/physarum/param/effects.vignette", "f", "0.61")
        // oscdump prints "f 0.610000".
        #expect(poll(seconds: 30) { dump.text.contains("/physarum/param/effects.vignette f 0.61") }, "\(dump.text.suffix(2000))")
        try OSCTools.send(port: w.port, "/physarum/blackout", "i", "1")
        #expect(poll(seconds: 30) { dump.text.contains("/physarum/blackout f 1.000000") }, "\(dump.text.suffix(2000))")
        try OSCTools.send(port: w.port, "/physarum/preset/next")
        #expect(poll(seconds: 30) { dump.text.contains("/physarum/status/preset s \"beta\"") },
                "\(dump.text.suffix(2000))")
    }
}
