import Foundation
import Testing
import TestSupport

/// Ableton Link from where a user stands: the real window joins a Link
/// session with Ableton's own `LinkHut` peer on this machine (over
/// loopback), driven only from outside — OSC into the app, keys into
/// LinkHut — and read from `--state-file` and LinkHut's status line. A
/// tempo set on either side reaches the other; leaving Link falls back to
/// the tempo the beat tracker held. (The bar-phase timing on the pipeline's
/// clock is LinkSessionTests'.)
@Suite(.serialized) struct LinkHutTests {
    @Test(.enabled(if: LinkHut.available && JackServer.available && OSCTools.available,
                   "LinkHut (ableton-link-utils), jackd2 and oscsend are needed (scripts/test installs them)"))
    func tempoGoesBothWaysWithLinkHutAndLeavingFallsBack() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let hut = try LinkHut(environment: jack.environment)
        defer { hut.stop() }
        #expect(poll(seconds: 30) { hut.status != nil }, "LinkHut draws its status line")
        hut.press("a")
        #expect(poll(seconds: 10) { hut.status?.enabled == true }, "LinkHut joined Link")
        let hutJoined = ContinuousClock.now

        let fx = try RemoteFixture()
        let w = try OSCControlTests.open(fx, extra: ["--demo", "--preset", "alpha", "--state-interval", "0.05"])
        defer { w.app.stop() }
        var tempo: (source: String, bpm: Double) {
            let t = w.live?["tempo"] as? [String: Any]
            return (t?["source"] as? String ?? "", (t?["bpm"] as? NSNumber)?.doubleValue ?? 0)
        }
        var linkPeers: Int { (w.live?["link"] as? [String: Any])?["peers"] as? Int ?? 0 }

        // A tempo held before joining (OSC /tempo, like a tap or Lock): the fallback later.
        try OSCTools.send(port: w.port, "/physarum/tempo", "f", "90")
        #expect(poll(seconds: 30) { tempo.source == "tracker" && abs(tempo.bpm - 90) < 0.01 }, "held before joining: \(tempo)")

        // The session before the app joins: LinkHut's alone (another Link peer on
        // this network, e.g. a second run of this test, would share its tempo changes).
        let alone = try #require(hut.status)
        try #require(alone.peers == 0, "no other Link peer is on this network before the app joins: \(alone)")
        // Link keeps the session founded first, but two founded within 0.5 s of
        // each other are ordered by their random ids: LinkHut's session must be
        // older than that when the app joins (the app founds its own at the join).
        _ = poll(seconds: 2, every: 0.05) { ContinuousClock.now - hutJoined > .seconds(1.5) }
        try OSCTools.send(port: w.port, "/physarum/link", "i", "1")
        let met = poll(seconds: 30) {
            guard let h = hut.status else { return false }
            return linkPeers >= 1 && h.peers >= 1 && tempo.source == "link" && abs(tempo.bpm - h.tempo) < 0.01
        }
        #expect(met, "the app and LinkHut share one session: app \(tempo) peers \(linkPeers), LinkHut \(String(describing: hut.status)); \(w.app.stderr.suffix(1500))")
        try #require(met)
        // Joining leaves the session's tempo alone (the joiner takes the session's
        // tempo; the one it held before is not proposed).
        #expect(abs(tempo.bpm - alone.tempo) < 0.01 && abs(tempo.bpm - 90) > 0.5,
                "the session keeps LinkHut's \(alone.tempo) BPM, not the app's held 90: \(tempo)")

        // LinkHut → app: its "e" key raises the session's tempo by 1 BPM.
        let before = try #require(hut.status?.tempo)
        var t0 = ContinuousClock.now
        hut.press("e")
        #expect(poll(seconds: 10) { abs(tempo.bpm - (before + 1)) < 0.01 && tempo.source == "link" }, "LinkHut's tempo reaches the app: \(tempo)")
        let toApp = (ContinuousClock.now - t0) / .seconds(1)

        // App → LinkHut: OSC /tempo is proposed to the session.
        t0 = ContinuousClock.now
        try OSCTools.send(port: w.port, "/physarum/tempo", "f", "133")
        #expect(poll(seconds: 10) { abs((hut.status?.tempo ?? 0) - 133) < 0.01 }, "the app's tempo reaches LinkHut: \(String(describing: hut.status))")
        let toHut = (ContinuousClock.now - t0) / .seconds(1)
        #expect(poll(seconds: 10) { tempo.source == "link" && abs(tempo.bpm - 133) < 0.01 }, "the app follows the session: \(tempo)")
        print(String(format: "LinkHut → app %.3f s, app → LinkHut %.3f s (state file every 0.05 s, LinkHut redraws every ~0.03 s)", toApp, toHut))

        // Leaving: the beat tracker's held tempo again.
        try OSCTools.send(port: w.port, "/physarum/tempo", "f", "97")
        #expect(poll(seconds: 10) { abs((hut.status?.tempo ?? 0) - 97) < 0.01 })
        try OSCTools.send(port: w.port, "/physarum/link", "i", "0")
        #expect(poll(seconds: 10) { tempo.source == "tracker" && abs(tempo.bpm - 97) < 0.01 }, "left: the tracker's held tempo: \(tempo)")
        #expect(poll(seconds: 10) { hut.status?.peers == 0 }, "LinkHut sees the app leave: \(String(describing: hut.status))")
    }
}
