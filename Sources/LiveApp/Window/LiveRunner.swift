import AudioReactive
import Engine
import Foundation
import LiveCore

/// The live window: opens it (`WindowSetup`), builds the one `LiveSession`
/// and registers the window's inputs and outputs on it, then runs it on the
/// display's clock until quit. Every input is a session source and every
/// output a feedback or a pipeline output; nothing here is wired per frame.
/// Runs synchronously on the process's main thread (no `await`).
final class LiveRunner {
    let options: LiveOptions
    private var running = true
    private var exitCode: Int32 = 0

    init(options: LiveOptions) { self.options = options }

    /// Opens the window and runs until quit. Returns the exit code.
    func run() -> Int32 {
        var startup = LiveStartup(options: options)
        guard let setup = WindowSetup.open(options: options, startup: &startup) else { return 1 }
        let editorWindow = setup.editorWindow, pipeline = setup.pipeline, liveSet = startup.liveSet
        liveSet.attachGL()  // library thumbnails as GL textures of the editor window
        // Frame outputs beside the window share the recorder's fanout; they see the frame before the panels are drawn on it.
        let videoOut = VideoOutputs(fanout: liveSet.recorder.fanout, settings: .init(options: options)) { [unowned editorWindow] in
            (editorWindow.projector?.window ?? editorWindow.window).drawableSize
        }
        startup.model.videoOut.streamURL = options.stream
        startup.model.videoOut.v4l2Device = options.v4l2
        pipeline.add(liveSet)
        pipeline.add(videoOut)
        pipeline.add(editorWindow)
        let session = LiveSession(model: startup.model, pipeline: pipeline, seed: startup.seed)
        session.dispatcher.log = { printError("physarum: \($0)") }

        let link = AudioLink(options: options, source: startup.model.audio.source, settings: startup.model.audio.config.tuning)
        let audio = AudioShell(io: AudioIO(store: startup.configStore, files: liveSet.worker), pipeline: pipeline)
        audio.attach(link, model: session.model)
        let layout = AnalysisLayout.standard()
        let control = ControlShell(files: liveSet.worker,
                                   analysisWindow: (Double(layout.windows.min() ?? 1024) / 2 + Double(layout.hop)) / layout.sampleRate,
                                   audio: link)
        control.oscInFromSession = startup.startingOSC(options: options).fromSession  // its start-up notice says so
        let controlOrigin = ContinuousClock.now
        session.dispatcher.keepForLater = { [unowned control, unowned session] a in control.desk.hold(a, sync: session.model.control.sync) }
        let remote: RemoteSide
        do {
            remote = try RemoteSide.start(options: options, model: session.model, maxAgents: options.maxAgents ?? HostLink.defaultMaxAgents)
        } catch {
            printError("physarum: \(error)")
            return 1
        }
        defer { remote.stop() }
        let panels = WindowPanels(seed: startup.seed)
        let speech = WindowSpeech(panels: panels)
        let report = WindowReport(options: options, editorWindow: editorWindow, session: session, audio: audio, control: control,
                                  liveSet: liveSet, remote: remote, panels: panels, speech: speech,
                                  statsWriter: setup.statsWriter, frameTimesWriter: setup.frameTimesWriter)
        let restored = startup.session
        let autosave = startup.autosaver.map { WindowAutosave(saver: $0) { [window = editorWindow.window] in restored.updated(window: window, model: $0) } }

        // Sources, drained in this order each tick: the window (panels, keys),
        // the remote editor, audio, Ableton Link (it reads the tracker), live
        // controls (tempo needs the audio and Link), the live set (auto-cycle
        // needs the tempo), the set list, the host, the governor's notice,
        // speech, autosave.
        session.add(source: WindowInput(editorWindow: editorWindow, pipeline: pipeline))
        remote.registerEarly(on: session)
        session.add(source: audio)
        // The picture's features latch again just before the post chain.
        pipeline.lateFeatures = { [unowned audio] in audio.link?.lateFeatures() }
        // A hit heard while the simulation steps shows on the picture on screen at once.
        let hitReaction = HitReaction(pipeline: pipeline, editorWindow: editorWindow, audio: audio)
        hitReaction.enabled = !options.noHitReaction
        hitReaction.attach()
        let linkSource = LinkSource()
        control.link = linkSource
        session.add(source: linkSource)
        session.add(source: control)
        session.add(source: liveSet)
        let setList = SetListShell(files: liveSet.worker)
        report.setList = setList
        control.setListStatus = { [unowned setList] in setList.source.status }
        session.add(source: setList)
        session.add(source: videoOut)
        remote.registerLate(on: session, fadingThrough: liveSet.autoCycle)
        session.add(source: report)  // the governor's notice
        session.add(source: speech)
        if let autosave { session.add(source: autosave) }
        // Feedbacks after each frame (the host's state was registered above).
        session.add(feedback: control)
        session.add(feedback: speech)
        session.add(feedback: report)
        if let autosave { session.add(feedback: autosave) }

        report.videoOut = videoOut
        let effects = WindowEffects(editorWindow: editorWindow, liveSet: liveSet, audio: audio, control: control, setList: setList, speech: speech,
                                    videoOut: videoOut, panels: panels, quit: { [unowned self] in running = false })
        session.dispatcher.perform = { [unowned session] in effects.perform($0, model: session.model) }
        editorWindow.drawPanels = { [unowned session, unowned report, unowned panels] in
            panels.frame.draw(model: session.model, status: report.panelStatus(), audio: audio, liveSet: liveSet)
        }
        if let path = options.screenshot {
            editorWindow.screenshot = (path, options.screenshotAt)
            editorWindow.screenshotTaken = { [unowned self] error in
                if let error {
                    printError("physarum: --screenshot: \(error)")
                    exitCode = 1
                }
                running = false
            }
        }

        // Every notice of the start (all of them, however many) on stderr once.
        for n in session.model.notices.history { printError("physarum: \(n.text)") }
        session.apply(control.start(noMIDI: options.noMIDI, verbose: options.verbose, origin: controlOrigin))
        session.apply(setList.start())
        if let f = session.model.audio.file { session.apply(audio.perform(.watch(f), model: session.model)) }
        session.apply(startup.startActions(options: options))
        session.apply(VideoOutputs.startActions(options))

        var clock = DisplayClock(quitAfter: options.quitAfter) { [unowned self] in !running }
        clock.timerFPS = options.maxFPS ?? 60
        clock.whileWaiting = { [unowned hitReaction] in hitReaction.check()?() }
        control.clockShift = (clock.origin - controlOrigin) / .seconds(1)
        linkSource.frameOrigin = clock.origin
        while let tick = clock.next() {
            // Waiting for the GPU inside the frame's time keeps the governor
            // seeing GPU-bound frames and the picture close to the audio.
            report.gpuWait = setup.fence.waitForRoom()
            session.tick(tick)
            setup.fence.frameSubmitted()
            clock.timerPacing = editorWindow.window.vsync == .timer
        }

        audio.shutdown()
        control.shutdown()
        videoOut.shutdown()
        liveSet.shutdown()
        autosave?.saver.saveNow(restored.updated(window: editorWindow.window, model: session.model))
        report.finish()
        return exitCode
    }
}
