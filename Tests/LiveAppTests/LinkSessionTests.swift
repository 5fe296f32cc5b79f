import AudioReactive
import Engine
import Foundation
import LiveCore
import Testing
@testable import LiveApp
import TestSupport

/// Ableton Link against a second peer on loopback: a `LinkPeer` in this test
/// process, built against the same library (Link finds peers on the same
/// machine through multicast on every interface, loopback included). The
/// app's side is a real `LiveSession` with the window's `LinkSource`, live
/// controls (`ControlShell`, no MIDI or OSC) and auto-cycle, ticked on the
/// pipeline's clock. Serialized: peers of the two tests would meet.
@Suite(.serialized) struct LinkSessionTests {
    /// Stands in for the beat tracker's features (what a tap or OSC /tempo leaves).
    final class Tracker: ActionSource {
        var held: Float?
        func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
            guard let held else { return }
            inputs.heard.beat.tempo = held
            inputs.heard.beat.held = true
            inputs.heard.beat.confidence = 1
        }
    }

    /// The app's session: tracker, Link, live controls, auto-cycle, in the window's order.
    final class App {
        let session: LiveSession
        let tracker = Tracker()
        let link: LinkSource
        let control: ControlShell
        let cycle = AutoCycleSource()

        init(linkTime: ((LinkPeer, Double) -> Int64)? = nil) {
            var model = AppModel(library: LibraryModel(factory: testFactory))
            _ = model.handle(.live(.setPinnedOnly(false)))
            var start = model.base
            start[.agents] = 1000
            _ = model.handle(.setParam(.agents, 1000))
            let pipeline = FramePipeline(field: (32, 18), output: (32, 18), params: start, seed: 3, threads: 1)
            session = LiveSession(model: model, pipeline: pipeline, seed: 3)
            link = LinkSource(linkTime: linkTime)
            control = ControlShell(files: FileWorker(name: "test.link"), analysisWindow: 0, audio: nil)
            control.link = link
            session.add(source: tracker)
            session.add(source: link)
            session.add(source: control)
            session.add(source: cycle)
            session.add(feedback: control)
        }

        var tempo: TempoReading { session.lastReport?.inputs.tempo ?? TempoReading() }
    }

    /// Ticks `app` in real time (frame times from the session's start) until `done`, at most `seconds`.
    static func tickUntil(_ app: App, seconds: Double, start: ContinuousClock.Instant, index: inout Int, _ done: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let t = (ContinuousClock.now - start) / .seconds(1)
            app.session.tick(FrameTick(index: index, time: t, dt: 1.0 / 60))
            index += 1
            if done() { return true }
            Thread.sleep(forTimeInterval: 0.005)  // a frame's pace; the test waits on Link's network threads
        }
        return false
    }

    /// A peer already in its session for more than half a second at `bpm`, as
    /// a DJ's is when the VJ joins: when two sessions meet, Link keeps the one
    /// that is older by more than 0.5 s (ableton/link/Sessions.hpp,
    /// SESSION_EPS), else the one with the lower random id. Polled on Link's clock.
    static func establishedPeer(bpm: Double) throws -> LinkPeer {
        let peer = try #require(LinkPeer(bpm: bpm))
        peer.enabled = true
        let made = peer.now
        _ = poll(seconds: 5) { peer.now - made > 700_000 }
        return peer
    }

    @Test func tempoSetOnEitherSideReachesTheOther() throws {
        let peer = try Self.establishedPeer(bpm: 128)
        defer { peer.enabled = false }
        let app = App()
        let start = ContinuousClock.now
        app.link.frameOrigin = start
        var i = 0
        app.tracker.held = 100  // held before joining (a tap): not pushed to the session
        _ = Self.tickUntil(app, seconds: 5, start: start, index: &i) { app.tempo.source == .tracker }
        app.session.apply(.control(.setLink(true)))
        #expect(Self.tickUntil(app, seconds: 20, start: start, index: &i) {
            app.link.reading?.peers ?? 0 >= 1 && peer.peers >= 1 && app.tempo.source == .link && abs(app.tempo.bpm - 128) < 0.01
        }, "the two peers find each other; the app takes the session's tempo: \(app.tempo)")
        #expect(abs(peer.state(at: peer.now, quantum: 4).bpm - 128) < 0.01, "a tempo held from before joining is not pushed")
        // Peer → app: the peer proposes 140 BPM.
        var t0 = ContinuousClock.now
        peer.propose(tempo: 140, at: peer.now)
        #expect(Self.tickUntil(app, seconds: 10, start: start, index: &i) { abs(app.tempo.bpm - 140) < 0.01 && app.tempo.source == .link })
        let toApp = (ContinuousClock.now - t0) / .seconds(1)
        // App → peer: the tracker holds a new tempo (a tap, Lock, OSC /tempo); the app proposes it.
        t0 = ContinuousClock.now
        app.tracker.held = 132
        #expect(Self.tickUntil(app, seconds: 10, start: start, index: &i) { abs(peer.state(at: peer.now, quantum: 4).bpm - 132) < 0.01 })
        let toPeer = (ContinuousClock.now - t0) / .seconds(1)
        // Reported, not asserted (no durations in the suite: CI machines are busy).
        print(String(format: "Link tempo: peer → app %.3f s, app → peer %.3f s", toApp, toPeer))
    }

    @Test func aFourBarCycleSwitchesOnThePeersBarBoundary() throws {
        let peer = try Self.establishedPeer(bpm: 128)
        defer { peer.enabled = false }
        // Frame times map to Link's clock from `origin` (set once the peers agree), so the
        // session runs on the pipeline's offline clock, faster than real time.
        nonisolated(unsafe) var origin: Int64 = 0
        let app = App(linkTime: { _, t in origin + Int64((t * 1e6).rounded()) })
        app.session.apply([.control(.setLink(true)), .control(.setSyncBars(4)), .control(.setFadeBeats(1)), .togglePlaylist])
        app.session.tick(FrameTick(index: 0, time: 0, dt: 1.0 / 60))  // makes the app's peer
        let appPeer = try #require(app.link.peer)
        #expect(poll(seconds: 20) { appPeer.peers >= 1 && abs(appPeer.state(at: appPeer.now, quantum: 4).bpm - 128) < 0.01 },
                "the app joined the peer's session at its tempo")
        origin = peer.now
        let fps = 60.0
        var clock = OfflineClock(fps: fps, count: 60 * 40)
        var switches: [Double] = []
        var last = app.session.model.currentPreset?.id
        while let tick = clock.next() {
            let r = app.session.tick(FrameTick(index: tick.index + 1, time: tick.time, dt: tick.dt))
            // The first tick jumps from the set-up tick (Link time 0) to `origin`: not a bar of the run.
            if r.model.currentPreset?.id != last, tick.time > 0 { switches.append(tick.time) }
            last = r.model.currentPreset?.id
        }
        // The peer's 4-bar boundaries (beats 16k at quantum 4) on the frame clock.
        let firstBeat = peer.state(at: origin, quantum: 4).beat
        let bars = (1...12).map { k in ((firstBeat / 16).rounded(.down) + Double(k)) * 16 }
        let boundaries = bars.map { Double(peer.time(atBeat: $0, quantum: 4) - origin) / 1e6 }.filter { $0 > 1e-3 && $0 <= Double(60 * 40 - 1) / fps }  // reached by a tick after the first
        print("Link 4-bar switches at \(switches.map { String(format: "%.4f", $0) }) — peer boundaries \(boundaries.map { String(format: "%.4f", $0) })")
        #expect(switches.count == boundaries.count, "one switch per 4 bars: \(switches) vs \(boundaries)")
        // Link time is whole microseconds (the frame's time rounded): a boundary that falls within
        // half a microsecond of a frame may be reached by the next frame.
        for (s, b) in zip(switches, boundaries) {
            #expect(s >= b - 1e-3 && s - b < 1 / fps + 1e-6, "switch at \(s) s, the peer's bar starts at \(b) s: within the frame that reaches it")
        }
    }

    @Test func leavingLinkFallsBackToThePreviousTempoSource() throws {
        let peer = try Self.establishedPeer(bpm: 128)
        defer { peer.enabled = false }
        let app = App()
        let start = ContinuousClock.now
        app.link.frameOrigin = start
        app.tracker.held = 100
        var i = 0
        #expect(Self.tickUntil(app, seconds: 5, start: start, index: &i) { app.tempo.source == .tracker && abs(app.tempo.bpm - 100) < 0.01 })
        app.session.apply(.control(.setLink(true)))
        #expect(Self.tickUntil(app, seconds: 20, start: start, index: &i) { app.tempo.source == .link && abs(app.tempo.bpm - 128) < 0.01 },
                "joined: the session's tempo: \(app.tempo)")
        app.session.apply(.control(.setLink(false)))
        #expect(Self.tickUntil(app, seconds: 5, start: start, index: &i) { app.tempo.source == .tracker && abs(app.tempo.bpm - 100) < 0.01 },
                "left: the tracker's tempo again: \(app.tempo)")
        #expect(app.session.model.notices.history.contains { $0.text.hasPrefix("Link: left") })
    }
}
