import AudioReactive
import Engine
import Foundation
import GLEngine
import LiveCore

extension LiveRunner {
    /// Opens the window and GL, builds the pipeline and its outputs, starts
    /// audio, stats and remote control. False (with one line on stderr) when
    /// the window cannot work.
    func open() -> Bool {
        let session = startup.session
        let window: SDLWindow
        let size = options.windowSize ?? (session.windowWidth, session.windowHeight)
        // The GPU engine needs an OpenGL 4.3 context; `auto` falls back to 3.3 (and the CPU).
        let versions: [(Int32, Int32)] = switch options.backend {
        case .cpu: [(3, 3)]
        case .gpu: [(4, 3)]
        case .auto: [(4, 3), (3, 3)]
        }
        var opened: SDLWindow?
        var lastError: Error?
        for v in versions where opened == nil {
            do {
                opened = try SDLWindow(title: "Physarum Live", width: size.width, height: size.height,
                                       display: options.display ?? session.display,
                                       fullscreen: options.fullscreen || session.fullscreen,
                                       position: options.display == nil && options.windowSize == nil ? session.windowX.flatMap { x in session.windowY.map { (x, $0) } } : nil,
                                       swapInterval: options.maxFPS == nil ? nil : 0, glVersion: v)
            } catch {
                lastError = error
            }
        }
        if let opened {
            window = opened
        } else {
            let error = lastError!
            printError("physarum: no display available (\(error)); use `physarum render` for frames without one")
            return false
        }
        let gui: ImGuiLayer
        do {
            editorWindow = EditorWindow(window: window, presenter: try GLPresenter(), gui: try ImGuiLayer(window: window, scale: startup.model.uiScale))
            gui = editorWindow.gui
        } catch {
            printError("physarum: OpenGL setup failed: \(error)")
            return false
        }
        if let n = gui.fontNotice { _ = startup.model.handle(.notice(n, .warning)) }
        liveSet.attachGL()  // library thumbnails as GL textures of the editor window
        do {
            statsWriter = try options.stats.map { try LineWriter(path: $0) }
        } catch {
            printError("physarum: --stats: \(error)")
            return false
        }
        do {
            frameTimesWriter = try options.frameTimes.map { try LineWriter(path: $0, backlog: 4096) }
        } catch {
            printError("physarum: --frame-times: \(error)")
            return false
        }

        let field = options.field ?? (1280, 720)
        do {
            window.makeCurrent()
            let engine = try EngineSetup.make(options.backend, contextCurrent: true, field: field, output: (16, 16),
                                              params: startup.model.base, seed: startup.seed,
                                              threads: options.threads ?? Simulation.defaultThreads)
            pipeline = FramePipeline(backend: engine, params: startup.model.base)
        } catch {
            printError("physarum: --backend \(options.backend.rawValue): \(error)")
            return false
        }
        pipeline.governor.enabled = !options.noGovernor
        // The CPU engine's picture is presented as soon as it is done: no second frame queued behind the GPU's.
        framesInFlight = GLFrameFence(limit: pipeline.backend.kind == .cpu ? 1 : 2)
        pipeline.add(liveSet)
        pipeline.add(editorWindow)
        dispatcher = ActionDispatcher(model: startup.model, pipeline: pipeline, seed: startup.seed)
        dispatcher.log = { printError("physarum: \($0)") }
        dispatcher.perform = { [unowned self] in perform($0) }
        audioShell = AudioShell(io: AudioIO(store: startup.configStore, files: liveSet.worker), pipeline: pipeline)
        audio = AudioLink(options: options, source: model.audio.source, settings: model.audio.config.tuning)
        audioShell.attach(audio, model: model)
        let layout = AnalysisLayout.standard()
        control = ControlShell(files: liveSet.worker,
                               analysisWindow: (Double(layout.windows.min() ?? 1024) / 2 + Double(layout.hop)) / layout.sampleRate)
        dispatcher.keepForLater = { [unowned self] a in control.desk.hold(a, sync: model.control.sync) }
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
        do {
            try startRemote()
        } catch {
            printError("physarum: \(error)")
            return false
        }
        // Every notice of the start (all of them, however many) on stderr once.
        for n in model.notices.history { printError("physarum: \(n.text)") }
        dispatcher.apply(control.start(noMIDI: options.noMIDI, origin: controlOrigin))
        if let d = options.outputDisplay { dispatcher.apply(.outputWindow(d)) }
        if let f = model.audio.file { dispatcher.apply(audioShell.perform(.watch(f), model: model)) }
        if let saved = startup.restored ? session : nil {
            if let d = saved.dwell { dispatcher.apply(.live(.setDwell(d))) }
            if let p = saved.pinnedOnly { dispatcher.apply(.live(.setPinnedOnly(p))) }
            if saved.libraryPanel { dispatcher.apply(.live(.toggleLibraryPanel)) }
        }
        if options.audioPanel || (startup.restored && session.audioPanel) { dispatcher.apply(.audio(.togglePanel)) }
        // Live controls: OSC endpoints from the options, else the session; sync and offset from the session.
        let saved = startup.restored ? session : nil
        dispatcher.apply(.control(.setOSC(OSCSettings(inPort: options.oscIn ?? saved?.osc.inPort,
                                                      outTarget: options.oscOut ?? saved?.osc.outTarget))))
        if let s = saved?.sync {
            dispatcher.apply([.control(.setSyncBars(s.bars)), .control(.setFadeBeats(s.fadeBeats)), .control(.setQuantize(s.quantize))])
        }
        if let ms = saved?.visualOffsetMs { dispatcher.apply(.control(.setVisualOffset(ms))) }
        if options.midiPanel || saved?.midiPanel == true { dispatcher.apply(.control(.togglePanel)) }
        if options.noUI && model.uiVisible { dispatcher.apply(.toggleUI) }
        if options.speak { dispatcher.apply(.live(.toggleSpeech)) }
        return true
    }

    /// The shell's part of an effect (the dispatcher does reseeds and notices).
    func perform(_ effect: AppEffect) -> [AppAction] {
        switch effect {
        case .setFullscreen(let on):
            editorWindow.window.setFullscreen(on)
        case .setOutputWindow(let d):
            if let n = editorWindow.setProjector(display: d) { return [.notice(n.text, n.level)] }
        case .applyUIScale(let s):
            editorWindow.gui.setScale(s)
        case .quit:
            running = false
        case .library, .capture:
            return liveSet.perform(effect)
        case .audio(let e):
            return audioShell.perform(e, model: model)
        case .speakHelp:
            speakHelp()
        case .control(let e):
            return control.perform(e)
        case .reseed, .logNotice:
            break
        }
        return []
    }

    /// Starts the host's listener or the remote's connection.
    func startRemote() throws {
        if let listen = options.listen {
            let host = try RemoteHostSetup.start(listen: listen, token: options.token)
            remoteHost = host
            announcer = RemoteHostSetup.announce(host)
            let link = HostLink(host: host, onDisconnect: options.onDisconnect, maxAgents: options.maxAgents ?? HostLink.defaultMaxAgents)
            // A pushed look fades through black like the auto-cycle does.
            link.requestFade = { [liveSet] id in liveSet.cycle.request(id) }
            hostLink = link
        }
        if let target = options.remote {
            let editor = try RemoteEditorLink.connect(to: target, model: model)
            remoteEditor = editor
            dispatcher.observer = editor
        }
    }

    func stopRemote() {
        announcer = nil  // withdraws the announcement
        remoteHost?.stop()
        remoteEditor?.client.stop()
    }
}
