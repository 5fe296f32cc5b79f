import AudioReactive
import Engine
import Foundation
import GLEngine
import LiveCore
import Storage

/// What the live window reports about itself: the panels' status, the
/// `--stats` lines, the `--state-file` document and the autosaved session.
extension LiveRunner {
    /// What the panels show this frame that is not in the model.
    func panelStatus() -> LivePanelsFrame.Status {
        let window = editorWindow.window
        let engine = pipeline.backend, out = pipeline.outputSize
        let governor = pipeline.governor
        return LivePanelsFrame.Status(
            stats: stats,
            overlayLines: [
                "\(engine.agentCount) agents, field \(engine.fieldWidth)x\(engine.fieldHeight), \(engine.kind.rawValue), output \(out.width)x\(out.height), \(window.vsync.rawValue)",
                audio.status.label,
                "governor: " + (governor.enabled ? governor.summary : "off"),
            ],
            demo: audio.status == .demo,
            remote: remoteEditor.map { ($0.statusLine, $0.synced) },
            host: hostStatus().map { ($0.lines(showToken: model.live.hostTokenShown), $0.remotePeer != nil) },
            displayCount: SDLWindow.displayCount,
            display: (Float(window.size.width), Float(window.size.height)),
            time: clockSeconds,
            control: control.panelStatus(tempo: tempo))
    }

    /// What the window says about remote control when it is a host.
    func hostStatus() -> HostStatus? {
        remoteHost.map { RemoteHostSetup.status(host: $0, link: hostLink, announcer: announcer) }
    }

    /// The session as it is now (window placement, look, locks, audio).
    func currentSession() -> Session {
        let window = editorWindow.window
        var s = startup.session
        if !window.isFullscreen {
            let p = window.position, z = window.size
            s.windowX = p.x; s.windowY = p.y; s.windowWidth = z.width; s.windowHeight = z.height
        }
        s.display = window.displayIndex
        s.fullscreen = window.isFullscreen
        s.uiScale = model.uiScale
        s.presetID = model.currentPreset?.id
        s.params = model.base
        s.locks = model.locks.sorted()
        s.audio = model.audio.config.withoutSolo
        s.audioConfigPath = model.audio.file?.path
        s.source = model.audio.source
        s.dwell = model.live.cycle.dwell
        s.pinnedOnly = model.live.cycle.pinnedOnly
        s.libraryPanel = model.live.libraryPanelVisible
        s.audioPanel = model.audio.panelVisible
        s.osc = model.control.osc
        s.sync = model.control.sync
        s.visualOffsetMs = model.control.visualOffsetMs
        s.midiPanel = model.control.panelVisible
        return s
    }

    /// The engine in use: backend, what computes (GL_RENDERER on the GPU), GPU memory.
    func engineStats() -> JSONNode {
        let e = pipeline.backend
        var f: [(String, JSONNode)] = [("backend", .string(e.kind.rawValue)), ("renderer", .string(e.rendererName)),
                                       ("agentLimit", .int(e.maxAgents))]
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
    func frameTimesLine(_ tick: FrameTick, _ t: FrameStats.FrameTiming, steps: Int, gpuWait: Double) -> String {
        let r = JSONNode.rounded
        let interval = previousFrameTime.map { JSONNode.rounded((tick.time - $0) * 1000, 3) } ?? .null
        previousFrameTime = tick.time
        return JSONNode.object([
            ("t", r(tick.time, 6)), ("intervalMs", interval), ("ms", r(t.total, 3)), ("sim", r(t.sim, 3)),
            ("render", r(t.render, 3)), ("present", r(t.present, 3)), ("gpuWait", r(gpuWait, 3)), ("steps", .int(steps)),
        ]).text
    }

    /// One `--stats` line: frame rate and split, bands, audio, recording, governor.
    func statsLine(elapsed: Double, frames: Int, features: AudioFeatures) -> String {
        let m = stats.meanSplit
        let governor = pipeline.governor
        let r = JSONNode.rounded
        let bands: [(String, JSONNode)] = AudioSourceID.allCases.map { ($0.rawValue, r(Double(features[$0].level), 4)) }
        return JSONNode.object([
            ("t", r(elapsed, 3)), ("frames", .int(frames)), ("fps", r(stats.fps, 2)),
            ("frameMs", .object([("p50", r(stats.percentile(50), 3)), ("p99", r(stats.percentile(99), 3)),
                                 ("max", r(stats.percentile(100), 3))])),
            ("engine", engineStats()),
            ("split", .object([("sim", r(m.sim, 3)), ("render", r(m.render, 3)), ("present", r(m.present, 3)), ("ui", r(m.ui, 3))])),
            ("bands", .object(bands)), ("onsets", .int(audio.onsetsSeen)), ("droppedAudio", .int(audio.droppedSamples)),
            ("audio", .string(audio.status.label)), ("source", model.audio.source.map(JSONNode.string) ?? .null),
            ("captureLatencyMs", audio.captureStatus?.latency.map { r($0 * 1000, 2) } ?? .null),
            ("latency", control.latencyNode(takingOnsets: true)), ("tempo", control.tempoNode(tempo)),
            ("preset", model.currentPreset.map { .string($0.id) } ?? .null),
            ("uiVisible", .bool(model.uiVisible)),
            ("recording", recordingStats(liveSet.recorder.status)),
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

    /// The audio side for `--state-file`: source, config, and the audio
    /// panel's item rectangles in window pixels (scripts and integration
    /// tests aim xdotool clicks with them).
    private func audioState() -> JSONNode {
        let rects = Self.rectMembers(audioShell.panel.rects)
        return .object([
            ("source", model.audio.source.map(JSONNode.string) ?? .null),
            ("status", .string(audioShell.link?.status.label ?? "audio off")),
            ("config", .string(model.audio.config.name)),
            ("file", model.audio.file.map { .string($0.path) } ?? .null),
            ("routes", .int(model.audio.config.routes.count)),
            ("panelVisible", .bool(model.audio.panelVisible)),
            ("panel", .object(model.audio.panelVisible && model.uiVisible ? rects : [])),
        ])
    }

    /// Notices for `--state-file`: the session's history (level and text),
    /// the ids on screen, whether the window is open, and the strip's and
    /// window's item rectangles.
    private func noticesState() -> JSONNode {
        let board = model.notices
        return .object([
            ("history", .array(board.history.map { .object([("id", .int($0.id)), ("level", .string($0.level.rawValue)), ("text", .string($0.text))]) })),
            ("shown", .array(board.visible.map { .int($0.id) })),
            ("hidden", .int(board.hiddenCount)),
            ("windowOpen", .bool(board.windowOpen)),
            ("rects", .object(model.uiVisible ? Self.rectMembers(panels.notices.rects) : [])),
        ])
    }

    /// The parameter editor's controls shown whole (inside its panel), the
    /// menu bar and the window's size in UI pixels, for layout tests at
    /// every UI scale.
    private func controlsState() -> JSONNode {
        let e = panels.editor.rects
        guard model.uiVisible, let win = e["window"] else { return .object([]) }
        let whole = e.filter { $0.key == "window" || ($0.value.x0 >= win.x0 && $0.value.x1 <= win.x1 && $0.value.y0 >= win.y0 && $0.value.y1 <= win.y1) }
        let size = editorWindow.window.size
        return .object([
            ("uiScale", .double(model.uiScale)),
            ("display", .array([.int(size.width), .int(size.height)])),
            ("menuBar", panels.menuBar.map { b in .array([.double(Double(b.x0)), .double(Double(b.y0)), .double(Double(b.x1)), .double(Double(b.y1))]) } ?? .null),
            ("editor", .object(Self.rectMembers(whole))),
            ("openHelp", panels.editor.openHelp.map(JSONNode.string) ?? .null),
            ("keyHelp", .object(model.live.keyHelpVisible ? Self.rectMembers(liveSet.panels.keyHelp.rects) : [])),
            ("library", .object(model.live.libraryPanelVisible ? Self.rectMembers(liveSet.panels.library.rects) : [])),
            ("editorControls", .array(e.keys.filter { $0 != "window" && !$0.hasPrefix("label:") }.sorted().map(JSONNode.string))),
            ("focus", .object([("frame", .int(pipeline.frameCount)),
                               ("control", panels.focus.map(JSONNode.string) ?? .null), ("panel", .string(panels.focusPanel)),
                               ("shown", .bool(panels.focusShown)),
                               ("rect", panels.focusRect.map { f in .array([f.x0, f.y0, f.x1, f.y1].map { .double(Double($0)) }) } ?? .null)])),
        ])
    }

    /// Item rectangles as `name: [x0, y0, x1, y1]` in window pixels, sorted by name.
    static func rectMembers(_ rects: [String: UI.Rect]) -> [(String, JSONNode)] {
        let r = JSONNode.rounded
        return rects.sorted { $0.key < $1.key }.map { k, b in
            (k, .array([r(Double(b.x0), 1), r(Double(b.y0), 1), r(Double(b.x1), 1), r(Double(b.y1), 1)]))
        }
    }

    /// Rewrites the `--state-file` off the frame path (`sync`: waits, for the last one at quit).
    func writeState(_ path: String, sync: Bool = false) {
        var extra: [(String, JSONNode)] = []
        if let h = hostLink {
            extra = [("revision", .int(Int(h.revision))),
                     ("remote", .object([("connected", .bool(h.remoteConnected)), ("connects", .int(h.connects))])),
                     ("listen", .string(remoteHost?.address.description ?? ""))]
            if let s = hostStatus() {
                extra.append(("host", RemoteHostSetup.stateJSON(s, tokenShown: model.live.hostTokenShown,
                                                                label: panels.remoteLabel)))
            }
        }
        let state = remoteEditor?.state(model) ?? HostLink.snapshot(model)
        if let r = remoteEditor { extra = [("revision", .int(Int(state.revision))), ("connected", .bool(r.synced))] }
        extra.append(("audio", audioState()))
        extra.append(("notices", noticesState()))
        extra.append(("controls", controlsState()))
        extra.append(("speech", speechState()))
        extra.append(("liveControl", control.stateNode(model: model, tempo: tempo)))
        StateDumpWriter.shared.write(StateDump.text(state, extra: extra), to: path, sync: sync)
    }
}
