import AudioReactive
import Engine
import Foundation
import GLEngine
import LiveCore

/// The live window: the frame pipeline driven by the display's clock, with
/// every input (keys, panels, the remote, files, timers) applied through one
/// `ActionDispatcher`, the editor window as the pipeline's last output, and
/// the audio, live-set and remote shells around it. Runs synchronously on
/// the process's main thread (no `await`).
final class LiveRunner {
    let options: LiveOptions
    var startup: LiveStartup
    /// Set once the window is open (`run`).
    var dispatcher: ActionDispatcher!
    var pipeline: FramePipeline!
    var editorWindow: EditorWindow!
    var audioShell: AudioShell!
    var audio: AudioLink!
    var panels = LivePanelsFrame()
    var shortcuts = ShortcutRouter()
    /// The frame clock's time of the current frame (seconds).
    var clockSeconds = 0.0
    var stats = FrameStats()
    var running = true
    var exitCode: Int32 = 0
    /// Remote control: this window is a host (`--listen`) or a remote editor (`physarum remote`).
    var hostLink: HostLink?
    var remoteHost: RemoteHost?
    /// Announces the host on the local network (DNS-SD) when it listens beyond loopback.
    var announcer: HostAnnouncer?
    var remoteEditor: RemoteEditorLink?
    var statsWriter: LineWriter?
    /// Spoken feedback while `model.live.speechOn` (LiveRunner+Speech.swift).
    var speech: SpeechShell?
    /// `--frame-times`: one line per frame.
    var frameTimesWriter: LineWriter?
    /// Start of the previous frame on the frame clock (seconds; nil before the first).
    var previousFrameTime: Double?
    /// At most two frames queued on the GPU (set once GL is up).
    var framesInFlight: GLFrameFence?
    /// MIDI, OSC, tempo sync, visual offset, latency (LiveApp/Control).
    var control: ControlShell!
    /// The instant the MIDI thread's times count from, and how far the frame clock started after it.
    let controlOrigin = ContinuousClock.now
    private var clockShift = 0.0
    /// This frame's tempo (MIDI clock or the beat tracker).
    var tempo = TempoReading()
    private var lastStatsSecond = 0
    private var lastStateSlot = -1

    var liveSet: LiveSet { startup.liveSet }
    var model: AppModel { dispatcher.model }

    init(options: LiveOptions) {
        self.options = options
        startup = LiveStartup(options: options)
        panels.editor.seed = startup.seed
    }

    /// Opens the window and runs until quit. Returns the exit code.
    func run() -> Int32 {
        guard open() else { return 1 }
        defer { stopRemote() }
        var clock = DisplayClock(quitAfter: options.quitAfter) { [unowned self] in !running }
        clock.timerFPS = options.maxFPS ?? 60
        clockShift = (clock.origin - controlOrigin) / .seconds(1)
        while let tick = clock.next() {
            frame(tick)
            clock.timerPacing = editorWindow.window.vsync == .timer
        }
        audioShell.shutdown()
        control.shutdown()
        liveSet.shutdown()
        startup.autosaver?.saveNow(currentSession())
        statsWriter?.flush()
        frameTimesWriter?.flush()
        if let path = options.stateFile { writeState(path, sync: true) }
        return exitCode
    }

    /// One frame: inputs → actions, then the pipeline (the editor window
    /// presents it as its last output), then timing, status files and autosave.
    private func frame(_ tick: FrameTick) {
        let t0 = ContinuousClock.now
        // Waiting for the GPU here, inside the frame's time, keeps the
        // governor seeing GPU-bound frames and the picture close to the audio.
        let gpuWait = framesInFlight?.waitForRoom() ?? 0
        let tw = ContinuousClock.now
        let window = editorWindow.window
        let input = SDLEvents.poll(forward: ImGuiLayer.process)
        if input.quit || input.closedWindows.contains(window.windowID) { running = false }
        if let p = editorWindow.projector, input.closedWindows.contains(p.window.windowID) { dispatcher.apply(.outputWindow(nil)) }
        clockSeconds = tick.time
        dispatcher.apply(.expireNotices(now: tick.time))
        dispatcher.apply(shortcuts.actions(for: input.keys, now: tick.time))
        // Remote control: drain the network's queue (no socket work here).
        hostLink?.pump(model: { self.dispatcher.model }, apply: dispatcher.apply)
        if let p = announcer?.takeProblem() {
            dispatcher.apply(.notice("Remote control: not announced on the local network: \(p); a remote must type the address", .warning))
        }
        if let r = remoteEditor {
            let (reseed, messages) = r.update(model: &dispatcher.model)
            if reseed { dispatcher.reseed() }
            for m in messages { printError("physarum: \(m)") }
        }
        // Live controls: OSC actions (decoded on the OSC thread), MIDI through the bindings.
        control.applyInput(model: { self.dispatcher.model }, clockShift: clockShift, apply: dispatcher.apply)
        // Audio → tempo (MIDI clock or beat tracker) → modulation → simulation → render → outputs.
        // The post chain's parameters latch again just before the render (FramePipeline.lateFeatures), unless the visual offset delays them anyway.
        let lateLatch = model.control.visualOffsetMs == 0
        let heard = audio.frameFeatures(final: !lateLatch)
        pipeline.lateFeatures = lateLatch ? audio.lateFeatures : nil
        let features: AudioFeatures
        (tempo, features) = control.beginFrame(time: tick.time, features: heard, offsetMs: model.control.visualOffsetMs)
        for a in control.dueActions() { dispatcher.applyNow(a) }
        // Auto-cycle and blackout: a preset switch happens at the black point of a fade (on the downbeat when synced).
        dispatcher.apply(liveSet.tick(dt: tick.dt, model: model, tempo: tempo))
        hostLink?.completePush(fadePending: liveSet.cycle.requested != nil, model: { self.dispatcher.model }, apply: dispatcher.apply)
        for n in audio.takeNotices() { dispatcher.apply(.notice(n, .warning)) }
        dispatcher.apply(audioShell.drainActions())
        pipeline.modulator.advanceFade(toward: audio.isDriving ? 1 : 0, elapsed: tick.dt, duration: 1)
        let size = Self.renderSize(drawable: window.drawableSize, scale: pipeline.governor.resolutionFactor)
        let frameInput = FramePipeline.Input(base: model.base, features: features, brightness: liveSet.brightness, outputSize: size)
        let effective = pipeline.simulate(frameInput)
        let t1 = ContinuousClock.now
        pipeline.render(frameInput, params: effective)
        let t2 = ContinuousClock.now
        editorWindow.drawPanels = { [unowned self] in panels.draw(model: model, status: panelStatus(), audio: audioShell, liveSet: liveSet) }
        let delivered = pipeline.deliver(tick: tick)
        framesInFlight?.frameSubmitted()
        let t3 = ContinuousClock.now
        dispatcher.apply(editorWindow.panelActions)
        updateSpeech(now: tick.time)
        hostLink?.publish(model: model)
        control.endFrame(model: model, features: heard, time: tick.time)
        control.measure(audio: audio, latched: audio.latchedAt, presented: DispatchTime.now().uptimeNanoseconds)
        audioShell.latencySummary = control.desk.latency.summary

        var timing = FrameStats.FrameTiming()
        timing.sim = (t1 - tw).milliseconds
        timing.render = (t2 - t1).milliseconds
        timing.present = editorWindow.timing.present
        timing.ui = editorWindow.timing.ui
        timing.total = (t3 - t0).milliseconds
        stats.add(timing)
        frameTimesWriter?.append(frameTimesLine(tick, timing, steps: delivered.steps, gpuWait: gpuWait))
        let governed = Governor.Sample(work: timing.total - editorWindow.timing.swap, sim: timing.sim, render: timing.render)
        if let n = pipeline.governor.update(governed, now: tick.time)?.notice { dispatcher.apply(.notice(n, .warning)) }

        let second = Int(tick.time)
        if second > lastStatsSecond {
            lastStatsSecond = second
            statsWriter?.append(statsLine(elapsed: tick.time, frames: pipeline.frameCount, features: features))
        }
        if let path = options.stateFile, Int(tick.time / options.stateInterval) != lastStateSlot {
            lastStateSlot = Int(tick.time / options.stateInterval)
            writeState(path)
        }
        dispatcher.apply(liveSet.drainActions())
        if let err = startup.autosaver?.takeError() { dispatcher.apply(.notice(err, .error)) }
        startup.autosaver?.offer(currentSession(), now: tick.time)
    }

    /// Render size for a drawable: at most 1920×1080 pixels' worth, same aspect.
    static func renderSize(drawable: (width: Int, height: Int), scale: Double = 1) -> (width: Int, height: Int) {
        let w = max(16, drawable.width), h = max(16, drawable.height)
        let limit = 1920.0 * 1080.0
        let s = min(1, (limit / Double(w * h)).squareRoot()) * scale
        return (max(16, Int(Double(w) * s)), max(16, Int(Double(h) * s)))
    }
}
