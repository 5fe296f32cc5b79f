import AudioReactive
import Engine
import TestSupport
import Testing
@testable import LiveCore

/// A whole live session driven on the offline clock through stand-ins for
/// the window's inputs — keys, an OSC message, a MIDI control change, a
/// remote editor's edit and the live set's auto-cycle — checking what a
/// user sees (every input reaches the very frame it arrived for) and the
/// order of a tick: every source drained before the pipeline runs, every
/// feedback after it.
@Suite struct LiveSessionTests {
    /// What happened, in order, across the session.
    final class Log {
        var events: [String] = []
    }

    /// A source that posts what `actions` has for the tick's frame index.
    final class ScriptedSource: ActionSource {
        let name: String
        let log: Log
        let actions: (Int, AppModel) -> [AppAction]
        init(_ name: String, _ log: Log, actions: @escaping (Int, AppModel) -> [AppAction]) {
            self.name = name
            self.log = log
            self.actions = actions
        }
        func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
            log.events.append("drain \(name)")
            inbox.post(actions(inputs.tick.index, inbox.model))
        }
    }

    /// MIDI as the window's control shell feeds it: messages through the desk's bindings, one at a time.
    final class MidiSource: ActionSource {
        let desk = ControlDesk()
        let log: Log
        var messages: [Int: [MidiMessage]] = [:]
        init(_ log: Log) { self.log = log }
        func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
            log.events.append("drain midi")
            let timed = (messages[inputs.tick.index] ?? []).map { TimedMidiMessage($0, time: inputs.tick.time) }
            desk.midi(timed, model: { inbox.model }, apply: { inbox.post($0) })
        }
    }

    /// The remote host's network side: events queued by the test, states published back.
    final class FakeTransport: HostTransport {
        var queued: [HostEvent] = []
        var published: [RemoteState] = []
        func drain() -> [HostEvent] {
            defer { queued.removeAll() }
            return queued
        }
        func publish(_ state: RemoteState, connection: Int) { published.append(state) }
        func reject(_ message: String, connection: Int) {}
    }

    /// Logs the source, then delegates (the real `HostLink`, `AutoCycleSource`).
    final class Logged: ActionSource, FrameFeedback {
        let name: String
        let log: Log
        let source: (any ActionSource)?
        let feedback: (any FrameFeedback)?
        var reports: [FrameReport] = []
        init(_ name: String, _ log: Log, source: (any ActionSource)? = nil, feedback: (any FrameFeedback)? = nil) {
            self.name = name
            self.log = log
            self.source = source
            self.feedback = feedback
        }
        func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
            log.events.append("drain \(name)")
            source?.drain(&inputs, into: inbox)
        }
        func frameDone(_ report: FrameReport) {
            log.events.append("feedback \(name)")
            reports.append(report)
            feedback?.frameDone(report)
        }
    }

    /// The pipeline's output: logs when the frame reaches it and what it was made from.
    final class Output: FrameOutput {
        let log: Log
        var params: [PresetParams] = []
        init(_ log: Log) { self.log = log }
        func show(_ frame: FramePipeline.Frame, picture: FramePicture) {
            log.events.append("pipeline")
            params.append(frame.params)
        }
    }

    @Test func everyInputReachesItsFrameDrainedBeforeThePipelineAndFedBackAfter() throws {
        let log = Log()
        var model = AppModel(library: LibraryModel(factory: testFactory))
        _ = model.handle(.live(.setDwell(3)))
        _ = model.handle(.live(.setPinnedOnly(false)))
        _ = model.handle(.control(.bind(MidiBinding(control: MidiControl(.cc, channel: 0, number: 7), target: .param(.bloom)))))
        var start = model.base
        start[.agents] = 2000
        _ = model.handle(.setParam(.agents, 2000))
        let pipeline = FramePipeline(field: (64, 36), output: (64, 36), params: start, seed: 5, threads: 2)
        let output = Output(log)
        pipeline.add(output)
        let session = LiveSession(model: model, pipeline: pipeline, seed: 5)

        // Keys: B (blackout) on frame 420, B again on frame 500 (after the cycle's fade in).
        let keys = ScriptedSource("keys", log) { i, _ in
            i == 420 || i == 500 ? [KeyMap.action(for: KeyPress(key: .letter("b")), textFocused: false)].compactMap { $0 } : []
        }
        // OSC: exposure on frame 3 (decoded as the OSC thread does).
        let osc = ScriptedSource("osc", log) { i, _ in
            guard i == 3 else { return [] }
            return (try? OSCAddressSpace.actions(for: OSCMessage("/physarum/param/global.exposure", [.float(2.5)])).get()) ?? []
        }
        // MIDI: the bloom knob swept from 0 to full in one frame (soft takeover picks it up on the way).
        let midi = MidiSource(log)
        midi.messages[5] = [.controlChange(channel: 0, controller: 7, value: 0), .controlChange(channel: 0, controller: 7, value: 127)]
        // The remote: connects on frame 1, edits the vignette on frame 7.
        let transport = FakeTransport()
        let link = HostLink(host: transport, onDisconnect: .hold)
        let remote = Logged("remote", log, source: link, feedback: link)
        // The live set's auto-cycle, started on frame 2 (a remote connecting pauses cycling, so after it).
        let cycle = AutoCycleSource()
        let cycled = Logged("cycle", log, source: cycle)
        let playlist = ScriptedSource("playlist", log) { i, m in i == 2 && !m.playlistOn ? [.togglePlaylist] : [] }
        let watcher = Logged("watcher", log)

        for s in [keys, osc, midi, remote, playlist, cycled] as [any ActionSource] { session.add(source: s) }
        session.add(feedback: remote)
        session.add(feedback: watcher)

        var clock = OfflineClock(fps: 60, count: 520)
        var switchedAt: Int?
        let firstPreset = session.model.currentPreset?.id
        var brightnessAt499 = 1.0
        while let tick = clock.next() {
            if tick.index == 1 { transport.queued = [.connected(connection: 1, push: nil)] }
            if tick.index == 7 { transport.queued = [.params(seq: 1, [.scalar(.vignette, 0.9)])] }
            log.events.removeAll()
            let report = session.tick(tick)
            // The tick's order: every source, then the pipeline's output, then every feedback.
            #expect(log.events == ["drain keys", "drain osc", "drain midi", "drain remote", "drain playlist", "drain cycle",
                                   "pipeline", "feedback remote", "feedback watcher"], "frame \(tick.index)")
            let shown = try #require(output.params.last)
            switch tick.index {
            case 3: #expect(shown[.exposure] == 2.5, "OSC reaches the frame it arrived for")
            case 5: #expect(shown[.bloom] == ParamRegistry.scalars[ParamKey.bloom.index].max, "MIDI reaches its frame")
            case 7:
                #expect(shown[.vignette] == 0.9, "the remote's edit reaches its frame")
                #expect(transport.published.last?.params[.vignette] == 0.9, "the state published after the frame has it")
            case 420: #expect(report.model.live.blackout && report.inputs.brightness < 1, "B fades the same frame")
            case 499: brightnessAt499 = report.inputs.brightness
            default: break
            }
            if switchedAt == nil, report.model.currentPreset?.id != firstPreset { switchedAt = tick.index }
        }
        #expect(brightnessAt499 == 0, "the blackout fade reached black")
        #expect(session.model.live.blackout == false)
        // The remote stayed connected.
        #expect(link.remoteConnected)
        // Auto-cycle: dwell 3 s + fade out 1.5 s from frame 2: the switch lands at the black point.
        let at = try #require(switchedAt, "auto-cycle switched")
        #expect(abs(at - 272) <= 2, "switched at frame \(at)")
        let feedbackSaw = try #require(watcher.reports.first { $0.tick.index == at })
        #expect(feedbackSaw.model.currentPreset?.id != firstPreset, "feedback sees the switch of its own tick")
    }

    @Test func aRemoteEditorsLookArrivesAsAnActionAndReseedsOnlyOnAPresetChange() {
        var model = AppModel(library: LibraryModel(factory: testFactory))
        var base = model.base
        base[.agents] = 1000
        _ = model.handle(.setParam(.agents, 1000))
        let pipeline = FramePipeline(field: (32, 18), output: (32, 18), params: base, seed: 1, threads: 1)
        let session = LiveSession(model: model, pipeline: pipeline, seed: 1)
        let seed0 = session.dispatcher.seed
        let undoSteps = session.model.history.undoStack.count
        var look = session.model.base
        look[.exposure] = 3
        session.apply(.adoptRemoteLook(presetID: session.model.currentPreset?.id, base: look, reseed: false))
        #expect(session.model.base[.exposure] == 3)
        #expect(session.dispatcher.seed == seed0, "same preset: no reseed")
        #expect(session.model.history.undoStack.count == undoSteps, "adopting the host's look is no undo step")
        let other = testFactory[1].id
        session.apply(.adoptRemoteLook(presetID: other, base: look, reseed: true))
        #expect(session.model.currentPreset?.id == other)
        #expect(session.dispatcher.seed == seed0 + 1, "a new preset reseeds")
    }

    @Test func cadenceIsDueOncePerSlot() {
        var c = Cadence(every: 0.5)
        let due = [0.0, 0.1, 0.49, 0.5, 0.7, 1.2, 1.3].filter { c.due(at: $0) }
        #expect(due == [0.0, 0.5, 1.2])
        var s = Cadence(every: 1, skipFirst: true)
        #expect([0.0, 0.9, 1.0, 1.5, 2.1].filter { s.due(at: $0) } == [1.0, 2.1])
    }
}
