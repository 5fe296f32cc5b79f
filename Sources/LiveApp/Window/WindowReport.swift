import AudioReactive
import Engine
import Foundation
import GLEngine
import LiveCore
import Storage

/// What the live window reports about itself, as the session's last
/// feedback but one: the frame statistics (work time per frame, frames
/// shown per second from the presents), the `--frame-times` line, the
/// governor's measurement, the `--stats` line every second and the
/// `--state-file` every `--state-interval`; and the panels' status. Reads
/// the window's parts, never changes them. As a source it posts the
/// governor's notice (a cut below half the agents) at the next drain.
/// Main thread only.
final class WindowReport: FrameFeedback, ActionSource {
    let options: LiveOptions
    let editorWindow: EditorWindow
    let session: LiveSession
    let audio: AudioShell
    let control: ControlShell
    /// The set list (its status for the panel and the state file), set once it exists.
    var setList: SetListShell?
    let liveSet: LiveSet
    let remote: RemoteSide
    let panels: WindowPanels
    let speech: WindowSpeech
    private let statsWriter: LineWriter?
    private let frameTimesWriter: LineWriter?
    private(set) var stats = FrameStats()
    /// The frame clock's time of the last frame (seconds).
    private(set) var clockSeconds = 0.0
    /// Milliseconds the frame waited for the GPU before it started (set by the loop).
    var gpuWait = 0.0
    /// The video outputs beside the window (their lines in the overlay and `--stats`).
    var videoOut: VideoOutputs?
    private var previousFrameTime: Double?
    /// The governor's notice, posted at the next drain.
    private var governorNotice: String?
    private var statsCadence = Cadence(every: 1, skipFirst: true)
    private var stateCadence: Cadence
    private let origin = ContinuousClock.now

    init(options: LiveOptions, editorWindow: EditorWindow, session: LiveSession, audio: AudioShell, control: ControlShell,
         liveSet: LiveSet, remote: RemoteSide, panels: WindowPanels, speech: WindowSpeech,
         statsWriter: LineWriter?, frameTimesWriter: LineWriter?) {
        self.options = options
        self.editorWindow = editorWindow
        self.session = session
        self.audio = audio
        self.control = control
        self.liveSet = liveSet
        self.remote = remote
        self.panels = panels
        self.speech = speech
        self.statsWriter = statsWriter
        self.frameTimesWriter = frameTimesWriter
        stateCadence = Cadence(every: options.stateInterval)
    }

    var pipeline: FramePipeline { session.pipeline }
    var model: AppModel { session.model }

    func frameDone(_ report: FrameReport) {
        let tick = report.tick
        clockSeconds = tick.time
        audio.latencySummary = control.desk.latency.summary
        var timing = FrameStats.FrameTiming()
        timing.sim = report.timing.simulate
        timing.render = report.timing.render
        timing.present = editorWindow.timing.present
        timing.ui = editorWindow.timing.ui
        timing.total = gpuWait + report.timing.total
        stats.add(timing)
        if let presented = editorWindow.lastPresent { stats.presented(at: Self.seconds(presented - origin)) }
        frameTimesWriter?.append(frameTimesLine(tick, timing, steps: report.frame.steps))
        // The governor measures the frame's work (the wait for vsync excluded), split into simulation and render.
        let work = Governor.Sample(work: timing.total - editorWindow.timing.swap, sim: timing.sim, render: timing.render)
        if let n = pipeline.governor.update(work, now: tick.time)?.notice { governorNotice = n }
        if statsCadence.due(at: tick.time) {
            statsWriter?.append(statsLine(elapsed: tick.time, frames: pipeline.frameCount, features: report.inputs.features))
        }
        if let path = options.stateFile, stateCadence.due(at: tick.time) { writeState(path) }
    }

    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        if let n = governorNotice { inbox.post(.notice(n, .warning)) }
        governorNotice = nil
    }

    /// Writes what is still buffered (at quit): the last state file synchronously.
    func finish() {
        statsWriter?.flush()
        frameTimesWriter?.flush()
        if let path = options.stateFile { writeState(path, sync: true) }
    }

    /// What the panels show this frame that is not in the model.
    func panelStatus() -> LivePanelsFrame.Status {
        let window = editorWindow.window
        let engine = pipeline.backend, out = pipeline.outputSize
        let governor = pipeline.governor
        return LivePanelsFrame.Status(
            stats: stats,
            overlayLines: [
                "\(engine.agentCount) agents, field \(engine.fieldWidth)x\(engine.fieldHeight), \(engine.kind.rawValue), output \(out.width)x\(out.height), \(window.vsync.rawValue)",
                audio.link?.status.label ?? "audio off",
                "governor: " + (governor.enabled ? governor.summary : "off"),
            ] + (videoOut?.statusLines ?? []),
            demo: audio.link?.status == .demo,
            remote: remote.editor.map { ($0.statusLine, $0.synced) },
            host: remote.hostStatus.map { ($0.lines(showToken: model.live.hostTokenShown), $0.remotePeer != nil) },
            displayCount: SDLWindow.displayCount,
            display: (Float(window.size.width), Float(window.size.height)),
            time: clockSeconds,
            control: control.panelStatus(tempo: control.tempo),
            setList: setList?.source.status)
    }

    /// The engine in use: backend, what computes (GL_RENDERER on the GPU), GPU memory.
    func engineStats() -> JSONNode {
        let e = pipeline.backend
        var f: [(String, JSONNode)] = [("backend", .string(e.kind.rawValue)), ("renderer", .string(e.rendererName)),
                                       ("agentLimit", .int(model.agentLimit?.count ?? e.maxAgents))]
        if let gl = e as? GLBackend {
            f.append(("gpuAllocatedMiB", JSONNode.rounded(Double(gl.allocatedBytes) / 1_048_576, 1)))
            if let free = GLBackend.freeVideoMemory() { f.append(("gpuFreeMiB", JSONNode.rounded(Double(free) / 1_048_576, 1))) }
        }
        return .object(f)
    }

    /// One `--frame-times` line: the frame's start (s), the interval since
    /// the previous frame's start, its total time and split (ms, the total
    /// includes `gpuWait`, the wait for the GPU to finish the frame before
    /// last), its steps.
    func frameTimesLine(_ tick: FrameTick, _ t: FrameStats.FrameTiming, steps: Int) -> String {
        let r = JSONNode.rounded
        let interval = previousFrameTime.map { JSONNode.rounded((tick.time - $0) * 1000, 3) } ?? .null
        previousFrameTime = tick.time
        return JSONNode.object([
            ("t", r(tick.time, 6)), ("intervalMs", interval), ("ms", r(t.total, 3)), ("sim", r(t.sim, 3)),
            ("render", r(t.render, 3)), ("present", r(t.present, 3)), ("gpuWait", r(gpuWait, 3)), ("steps", .int(steps)),
        ]).text
    }

    /// One `--stats` line: frames shown per second, the work time per frame
    /// and its split, bands, audio, latency, recording, governor (level, its
    /// smoothed work, changes so far and the last decision).
    func statsLine(elapsed: Double, frames: Int, features: AudioFeatures) -> String {
        let m = stats.meanSplit
        let governor = pipeline.governor
        let r = JSONNode.rounded
        let link = audio.link
        let bands: [(String, JSONNode)] = AudioSourceID.allCases.map { ($0.rawValue, r(Double(features[$0].level), 4)) }
        return JSONNode.object([
            ("t", r(elapsed, 3)), ("frames", .int(frames)), ("fps", r(stats.fps, 2)),
            ("frameMs", .object([("p50", r(stats.percentile(50), 3)), ("p99", r(stats.percentile(99), 3)),
                                 ("max", r(stats.percentile(100), 3)), ("mean", r(m.total, 3))])),
            ("engine", engineStats()),
            ("split", .object([("sim", r(m.sim, 3)), ("render", r(m.render, 3)), ("present", r(m.present, 3)), ("ui", r(m.ui, 3))])),
            ("bands", .object(bands)), ("onsets", .int(link?.onsetsSeen ?? 0)),
            ("hitReactions", .object([("count", .int(editorWindow.reactions)), ("framesCurved", .int(editorWindow.curvedFrames)), ("curveMs", r(editorWindow.reactionMs.curve, 2)),
                                      ("presentMs", r(editorWindow.reactionMs.present, 2))])),
            ("droppedAudio", .int(link?.droppedSamples ?? 0)),
            ("audio", .string(link?.status.label ?? "audio off")), ("source", model.audio.source.map(JSONNode.string) ?? .null),
            ("captureLatencyMs", link?.captureStatus?.latency.map { r($0 * 1000, 2) } ?? .null),
            ("latency", control.latencyNode(takingOnsets: true)), ("tempo", control.tempoNode(control.tempo)),
            ("preset", model.currentPreset.map { .string($0.id) } ?? .null),
            ("uiVisible", .bool(model.uiVisible)),
            ("recording", recordingStats(liveSet.recorder.status)), ("videoOut", videoOut?.statsNode ?? .object([])),
            ("agents", .int(Int(governor.adjust(model.base)[.agents]))),
            ("governor", .object([("enabled", .bool(governor.enabled)), ("level", .int(governor.level)),
                                  ("agentFactor", .double(governor.agentFactor)),
                                  ("resolutionFactor", .double(governor.resolutionFactor)),
                                  ("effectLevel", .int(governor.effectLevel)), ("summary", .string(governor.summary)),
                                  ("workMs", governor.smoothedWorkMs.map { r($0, 2) } ?? .null), ("changes", .int(governor.changes)),
                                  ("lastDecision", governor.lastDecision.map { .string($0.summary) } ?? .null)])),
        ]).text
    }

    /// The current (or last) recording for `--stats`: whether it runs, its
    /// phase, frames written (seconds of video) and live frames dropped.
    private func recordingStats(_ r: RecordingStatus) -> JSONNode {
        .object([("active", .bool(r.isActive)), ("phase", .string("\(r.phase)")),
                 ("framesWritten", .int(r.framesWritten)), ("seconds", JSONNode.rounded(r.seconds, 2)),
                 ("dropped", .int(r.dropped)), ("offered", .int(r.offered)), ("offerSeconds", JSONNode.rounded(r.offerSeconds, 6)),
                 ("taking", .bool(r.taking))])
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
