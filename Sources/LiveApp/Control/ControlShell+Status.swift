import AudioReactive
import Dispatch
import Foundation
import LiveCore
import Storage

/// What the live controls report: the latency readout's measurements, the
/// `--stats` members and the `--state-file` object.
extension ControlShell {
    /// One frame's latency measurements, after its present: the frame took
    /// its features at `latched` (the post chain's late latch, or the frame
    /// start) and presented at `presented` (uptime ns); every onset it showed
    /// is measured whole (AudioLink.takeOnsets).
    func measure(audio: AudioLink, latched: UInt64, presented: UInt64) {
        desk.latency.server = audio.captureStatus?.latency
        // Until onsets are measured: a sound's hop waited for this frame between the newest hop's age and the oldest's.
        let hop = AnalysisLayout.standard().hopSeconds
        let wait = audio.newestHopAge(at: latched).map { $0 + Double(max(audio.lastFrameHops - 1, 0)) * hop / 2 }
        desk.latency.addFrame(latchToPresent: presented >= latched ? Double(presented - latched) / 1e9 : 0, hopAge: wait)
        let shown = audio.takeOnsets()
        guard !shown.isEmpty else { return }
        let wall = Date().timeIntervalSince1970
        for (t, taken, reaction) in shown {
            // A hit reaction showed it before this frame's present did.
            let at = reaction ?? presented
            let o = desk.latency.addOnset(batchTail: t.batchTail, decision: t.decision,
                                          queue: taken >= t.queuedUptime ? Double(taken - t.queuedUptime) / 1e9 : 0,
                                          frame: at >= taken ? Double(at - taken) / 1e9 : 0)
            shownOnsets.append((wall - Double(presented &- min(at, presented)) / 1e9, o))
        }
        if shownOnsets.count > 64 { shownOnsets.removeFirst(shownOnsets.count - 64) }
    }

    /// What the MIDI panel shows besides the model.
    func panelStatus(tempo: TempoReading) -> MidiPanel.Status {
        var oscLine = osc.map { o in
            let s = o.stats
            return "In on UDP \(o.address): \(s.accepted) messages taken, \(s.rejected) refused, \(s.dropped) lost"
        } ?? "In: off (--osc-in [ADDR:]PORT)"
        oscLine += oscOut.map { "\nOut to \($0.destination.label): \($0.sent) frames sent" } ?? "\nOut: off (--osc-out HOST:PORT)"
        oscLine += oscState.map { "\nTablet feedback to \($0.destination.label): \($0.sent) values sent" } ?? "\nTablet feedback: off (--osc-feedback HOST:PORT)"
        return MidiPanel.Status(midi: midiStatus, inputs: midi?.connected.inputs ?? [], osc: oscLine, tempo: tempo, latency: desk.latency,
                                link: link?.reading)
    }

    /// The latency parts in milliseconds and their sum, and, taken since the
    /// last call, each onset shown: the wall-clock time (Unix seconds) of its
    /// present and its own parts (scripts/latency-probe reads them).
    func latencyNode(takingOnsets: Bool = false) -> JSONNode {
        let l = desk.latency, r = JSONNode.rounded
        func ms(_ s: Double) -> JSONNode { r(s * 1000, 2) }
        var onsets: [JSONNode] = []
        if takingOnsets {
            onsets = shownOnsets.map { w, o in
                .object([("present", r(w, 4)), ("captureMs", ms(o.capture)), ("analysisMs", ms(o.analysis)),
                         ("queueMs", ms(o.queue)), ("frameMs", ms(o.frame)), ("offsetMs", ms(o.offset)), ("totalMs", ms(o.total))])
            }
            shownOnsets.removeAll()
        }
        return .object([("captureMs", ms(l.capture)), ("serverMs", l.server.map(ms) ?? .null), ("analysisMs", ms(l.analysis)),
                        ("queueMs", ms(l.queue)), ("frameMs", ms(l.frame)), ("offsetMs", r(l.offset * 1000, 1)),
                        ("totalMs", ms(l.total)), ("onsetsMeasured", .int(l.onsets)), ("onsets", .array(onsets))])
    }

    /// The tempo source, BPM, beat position and bar length.
    func tempoNode(_ t: TempoReading) -> JSONNode {
        .object([("source", .string(t.source.rawValue)), ("bpm", JSONNode.rounded(t.bpm, 2)),
                 ("beat", t.beat.map { JSONNode.rounded($0, 3) } ?? .null), ("beatsPerBar", .double(t.beatsPerBar))])
    }

    /// The `link` object of the state file: settings and, while joined, the session.
    func linkNode(_ s: LinkSettings) -> JSONNode {
        var m: [(String, JSONNode)] = [("enabled", .bool(s.enabled)), ("quantum", .double(s.quantum)), ("startStopSync", .bool(s.startStopSync))]
        if let r = link?.reading {
            m += [("peers", .int(r.peers)), ("bpm", JSONNode.rounded(r.bpm, 3)), ("beat", JSONNode.rounded(r.beat, 3)),
                  ("phase", JSONNode.rounded(r.phase, 3)), ("playing", .bool(r.playing))]
        }
        return .object(m)
    }

    /// The `liveControl` object of the state file: OSC counters (and where
    /// decoding ran), MIDI status and bindings, tempo, sync, latency.
    func stateNode(model: AppModel, tempo: TempoReading) -> JSONNode {
        var oscNode: [(String, JSONNode)] = [("inPort", osc.map { .int($0.address.port) } ?? .null),
                                             ("inAddress", osc.map { .string($0.address.description) } ?? .null)]
        if let s = osc?.stats {
            oscNode += [("packets", .int(s.packets)), ("accepted", .int(s.accepted)), ("rejected", .int(s.rejected)),
                        ("dropped", .int(s.dropped)), ("droppedByKernel", .int(s.droppedByKernel)), ("droppedActions", .int(s.droppedActions)),
                        ("decodedOnOSCThread", .int(s.decodedOnOSCThread)),
                        ("decodedOnFrameThread", .int(s.decodedOnFrameThread))]
        }
        oscNode += [("out", oscOut.map { .string($0.destination.label) } ?? .null), ("framesSent", .int(oscOut?.sent ?? 0)),
                    ("feedback", oscState.map { .string($0.destination.label) } ?? .null), ("feedbackSent", .int(oscState?.sent ?? 0))]
        let c = model.control
        let bindings: [JSONNode] = c.bindings.map { b in
            .object([("control", .string(b.control.label)), ("target", .string(b.target.id)), ("mode", .string(b.mode.rawValue))])
        }
        let ports = midi?.connected
        return .object([
            ("osc", .object(oscNode)),
            ("midi", .object([("status", .string(midiStatus)), ("received", .int(midi?.received ?? 0)), ("sent", .int(midi?.sent ?? 0)),
                              ("inputs", .array((ports?.inputs ?? []).map(JSONNode.string))),
                              ("outputs", .array((ports?.outputs ?? []).map(JSONNode.string))),
                              ("learning", c.learning.map { .string($0.id) } ?? .null), ("bindings", .array(bindings)),
                              ("templates", .array(c.activeTemplates.map { .string($0.id) })),
                              ("templatesChosen", .array(c.chosenTemplates.map(JSONNode.string))),
                              ("templatesAvailable", .array(c.templates.map { .string($0.id) })),
                              ("activeBindings", .int(c.active.count)),
                              ("bindingsFile", .string(bindingsURL.path))])),
            ("tempo", tempoNode(tempo)),
            ("link", linkNode(c.link)),
            ("sync", .object([("bars", .int(c.sync.bars)), ("fadeBeats", .double(c.sync.fadeBeats)), ("quantize", .bool(c.sync.quantize))])),
            ("visualOffsetMs", .double(c.visualOffsetMs)),
            ("blackout", .bool(model.live.blackout)),
            ("routeDepths", .array(model.audio.config.routes.map { JSONNode.rounded($0.depth, 4) })),
            ("latency", latencyNode()),
            ("panelVisible", .bool(c.panelVisible)),
        ])
    }
}
