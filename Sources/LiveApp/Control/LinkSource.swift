import Foundation
import LiveCore

/// Ableton Link as a session source: follows the model's Link settings
/// (join, leave, start/stop sync), reads the session on the frame's time
/// (tempo, beat and bar phase in the quantum) into `TickInputs.link` for the
/// live controls' tempo, proposes the app's own tempo changes (a tap, Lock,
/// OSC `/tempo`: the beat tracker's held tempo) and says when peers come and
/// go. Registered after audio (it reads the tracker) and before the live
/// controls (which make Link the tempo). Main thread only.
final class LinkSource: ActionSource {
    /// The Link instance, made when first joined.
    private(set) var peer: LinkPeer?
    private var proposer = LinkTempoProposer()
    private var lastPeers = 0
    private var unavailable = false
    /// The frame's time (seconds on the frame clock) → Link's clock (µs); nil: by `frameOrigin`.
    private let linkTime: ((LinkPeer, Double) -> Int64)?
    /// The frame clock's zero (set by the driver once its clock exists).
    var frameOrigin = ContinuousClock.now
    /// The last reading (the panel and the state file show it).
    private(set) var reading: LinkReading?

    /// `linkTime` maps a frame's time to Link's clock (tests on an offline
    /// clock); by default both clocks are read now: Link's now minus how long
    /// ago the frame's time was on the frame clock (from `frameOrigin`).
    init(linkTime: ((LinkPeer, Double) -> Int64)? = nil) {
        self.linkTime = linkTime
    }

    private func micros(_ peer: LinkPeer, _ t: Double) -> Int64 {
        if let linkTime { return linkTime(peer, t) }
        let ago = (ContinuousClock.now - frameOrigin) / .seconds(1) - t
        return peer.now - Int64((ago * 1e6).rounded())
    }

    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        let settings = inbox.model.control.link
        let joined = settings.enabled && connect(inbox, bpm: Double(inputs.heard.beat.tempo))
        if let peer, peer.enabled != joined { peer.enabled = joined }
        if let peer { peer.startStopSync = settings.startStopSync }
        guard joined, let peer else {
            reading = nil
            _ = proposer.update(joined: false, tracker: inputs.heard.beat)
            return
        }
        let micros = micros(peer, inputs.tick.time)
        if let bpm = proposer.update(joined: true, tracker: inputs.heard.beat) {
            peer.propose(tempo: bpm, at: micros)
        }
        let s = peer.state(at: micros, quantum: settings.quantum)
        let peers = peer.peers
        reading = LinkReading(bpm: s.bpm, beat: s.beat, phase: s.phase, playing: s.playing, peers: peers,
                              quantum: settings.quantum, startStopSync: settings.startStopSync)
        inputs.link = reading
        if peers != lastPeers {
            inbox.post(.notice("Link: \(peers) peer\(peers == 1 ? "" : "s") in the session, \(String(format: "%.1f", s.bpm)) BPM", .info))
            lastPeers = peers
        }
    }

    /// Proposes start or stop to the session (a `.control(.linkTransport)` effect).
    func transport(playing: Bool, quantum: Double) {
        guard let peer, peer.enabled else { return }
        peer.propose(playing: playing, at: peer.now, quantum: quantum)
    }

    /// Makes the peer on first use; false (once said) when Link cannot start.
    private func connect(_ inbox: ActionInbox, bpm: Double) -> Bool {
        if peer != nil { return true }
        if unavailable { return false }
        guard let p = LinkPeer(bpm: bpm >= 20 ? bpm : 120) else {
            unavailable = true
            inbox.post(.notice("Link: cannot start (no network service)", .error))
            return false
        }
        peer = p
        lastPeers = 0
        return true
    }
}
