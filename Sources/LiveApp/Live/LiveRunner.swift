import AudioReactive
import Engine
import Foundation
import ImGuiShim
import Storage

/// The live window: SDL2 + OpenGL, the frame loop of DESIGN.md, ImGui panels.
/// Runs synchronously on the process's main thread (no `await`).
final class LiveRunner {
    let options: LiveOptions
    private var model: AppModel
    private var editor = ParamEditor()
    /// Modulator, capture, audio panel and its file/source work (AudioShell.swift).
    private let audioShell: AudioShell
    private var stats = FrameStats()
    private var governor = Governor()
    private var stepCredit = StepCredit()
    private var running = true
    private var session: Session
    private let autosaver: SessionAutosaver?
    private let startTime = ContinuousClock.now
    private var seedCounter: UInt64
    /// Library, auto-cycle, blackout, capture and their panels (issue 8; LiveSet.swift).
    private let liveSet: LiveSet
    private var exitCode: Int32 = 0
    /// Remote control (issue 9): this window is a host (`--listen`) or a remote editor (`physarum remote`).
    private var hostLink: HostLink?
    private var remoteEditor: RemoteEditorLink?
    /// The output-only (projector) window and its presenter.
    private var output: (window: SDLWindow, presenter: GLPresenter)?

    init(options: LiveOptions) {
        self.options = options
        let catalog = PresetCatalog.factory()
        var restored: Session?
        var notices: [String] = []
        if let n = catalog.notice { notices.append(n) }
        for p in catalog.problems { notices.append("Preset skipped: \(p)") }
        let liveSet = LiveSet(factory: catalog.presets)
        self.liveSet = liveSet
        notices += liveSet.startupNotices
        if options.noSession {
            autosaver = nil
        } else {
            let url = Session.defaultURL()
            let (s, notice) = Session.load(from: url)
            restored = s
            if let notice { notices.append(notice) }
            autosaver = SessionAutosaver(url: url)
        }
        session = restored ?? Session()
        var start: Preset?
        if let name = options.preset, name.hasSuffix(".json") {
            // A preset file (e.g. one exported from the library, or configs/bench/all-effects.json).
            do { start = try PresetSource.resolve(name) } catch { notices.append("--preset: \(error); starting with the first preset") }
        } else if let name = options.preset {
            start = catalog.preset(named: name)
            if start == nil { notices.append("There is no preset '\(name)'; starting with the first one") }
        }
        model = AppModel(library: liveSet.initialLibrary, start: start ?? restored?.presetID.flatMap { id in
            catalog.preset(named: id) ?? liveSet.initialLibrary.playOrder.first { $0.id == id }
        })
        if start == nil, let s = restored, let p = s.params {
            model.restoreSession(presetID: s.presetID, base: p, locks: Set(s.locks), uiScale: s.uiScale)
        } else if let s = restored {
            model.restoreSession(presetID: model.currentPreset?.id, base: model.base, locks: Set(s.locks), uiScale: s.uiScale)
        }
        if let a = options.agents { _ = model.handle(.setParam(.agents, Double(a))) }
        audioShell = AudioShell(io: AudioIO(store: AudioConfigStore(), files: liveSet.worker))
        let audioStart = Self.startingAudioConfig(options: options, session: restored, store: audioShell.io.store)
        if let n = audioStart.notice { notices.append(n) }
        model.audio = AudioModel(config: audioStart.config, file: audioStart.file, source: options.source ?? restored?.source)
        audioShell.configure(model)
        seedCounter = options.seed ?? UInt64(UInt32(truncatingIfNeeded: Int(Date().timeIntervalSince1970 * 1000)))
        editor.seed = seedCounter
        for n in notices { _ = model.handle(.notice(n, .warning)) }
        governor.enabled = !options.noGovernor
    }

    /// Opens the window and runs until quit. Returns the exit code.
    func run() -> Int32 {
        let window: SDLWindow
        let size = options.windowSize ?? (session.windowWidth, session.windowHeight)
        do {
            window = try SDLWindow(title: "Physarum Live", width: size.width, height: size.height,
                                   display: options.display ?? session.display,
                                   fullscreen: options.fullscreen || session.fullscreen,
                                   position: options.display == nil && options.windowSize == nil ? session.windowX.flatMap { x in session.windowY.map { (x, $0) } } : nil)
        } catch {
            printError("physarum: no display available (\(error)); use `physarum render` for frames without one")
            return 1
        }
        let presenter: GLPresenter
        let gui: ImGuiLayer
        do {
            presenter = try GLPresenter()
            gui = try ImGuiLayer(window: window, scale: model.uiScale)
        } catch {
            printError("physarum: OpenGL setup failed: \(error)")
            return 1
        }
        if let n = gui.fontNotice { _ = model.handle(.notice(n, .warning)) }
        liveSet.attachGL()  // library thumbnails as GL textures of the editor window
        let audio = AudioLink(options: options, source: model.audio.source,
                              settings: model.audio.config.tuning)
        audioShell.attach(audio, model: model)
        let statsWriter: LineWriter?
        do {
            statsWriter = try options.stats.map { try LineWriter(path: $0) }
        } catch {
            printError("physarum: --stats: \(error)")
            return 1
        }
        do {
            try startRemote()
        } catch {
            printError("physarum: \(error)")
            return 1
        }
        defer { stopRemote() }
        let threads = options.threads ?? Simulation.defaultThreads
        let field = options.field ?? (1280, 720)
        let sim = Simulation(width: field.width, height: field.height, params: model.base,
                             seed: options.seed ?? seedCounter, threads: threads)
        var renderer: Renderer?
        var image = RGBAImage(width: 16, height: 16)
        let clock = ContinuousClock()
        var lastStatsSecond = 0
        var lastStateSecond = -1
        var frameIndex = 0
        var lastFrameStart = clock.now
        for n in model.notices.items { printError("physarum: \(n.text)") }
        if let d = options.outputDisplay { apply(.outputWindow(d), sim: sim, renderer: renderer, window: window, gui: gui) }
        if let f = model.audio.file { _ = audioShell.perform(.watch(f), model: model) }
        if options.audioPanel { apply(.audio(.togglePanel), sim: sim, renderer: renderer, window: window, gui: gui) }
        if options.noUI && model.uiVisible { apply(.toggleUI, sim: sim, renderer: renderer, window: window, gui: gui) }

        while running {
            let t0 = clock.now
            let input = SDLEvents.poll(feedImGui: true)
            if input.quit || input.closedWindows.contains(window.windowID) { running = false }
            if let o = output, input.closedWindows.contains(o.window.windowID) {
                apply(.outputWindow(nil), sim: sim, renderer: renderer, window: window, gui: gui)
            }
            for a in ShortcutRouter.actions(for: input.keys) { apply(a, sim: sim, renderer: renderer, window: window, gui: gui) }
            // Remote control: drain the network's queue (no socket work here).
            hostLink?.pump(model: { self.model }, apply: { self.apply($0, sim: sim, renderer: renderer, window: window, gui: gui) })
            if let r = remoteEditor {
                let (reseed, messages) = r.update(model: &model)
                if reseed { self.reseed(sim: sim, renderer: renderer) }
                for m in messages { printError("physarum: \(m)") }
            }
            // Auto-cycle and blackout: a preset switch happens at the black point of a fade.
            let frameSeconds = frameIndex > 0 ? max(0.001, min(0.1, (t0 - lastFrameStart).seconds)) : 1.0 / 60
            lastFrameStart = t0
            for a in liveSet.tick(dt: frameSeconds, model: model) { apply(a, sim: sim, renderer: renderer, window: window, gui: gui) }
            hostLink?.completePush(fadePending: liveSet.cycle.requested != nil, model: { self.model },
                                   apply: { self.apply($0, sim: sim, renderer: renderer, window: window, gui: gui) })

            // Audio → modulation → simulation.
            let features = audio.frameFeatures()
            for n in audio.takeNotices() { apply(.notice(n, .warning), sim: sim, renderer: renderer, window: window, gui: gui) }
            for a in audioShell.drainActions() { apply(a, sim: sim, renderer: renderer, window: window, gui: gui) }
            audioShell.modulator.advanceFade(toward: audio.isDriving ? 1 : 0, elapsed: frameSeconds, duration: 1)
            let effective = governor.adjust(audioShell.modulator.process(base: model.base, features: features))
            sim.step(effective, count: stepCredit.steps(speed: effective[.simSpeed]))
            let t1 = clock.now

            // Render at the drawable's size (capped so huge screens stay fluid; GL scales up).
            let drawable = window.drawableSize
            let out = Self.renderSize(drawable: drawable, scale: governor.resolutionFactor)
            if renderer == nil || renderer!.width != out.width || renderer!.height != out.height {
                renderer = Renderer(width: out.width, height: out.height, threads: threads)
            }
            renderer!.render(sim: sim, params: effective, into: &image)
            // Output brightness (fades, blackout), pending thumbnails/screenshots, recording.
            for a in liveSet.finish(&image, time: (clock.now - startTime).seconds) { apply(a, sim: sim, renderer: renderer, window: window, gui: gui) }
            let t2 = clock.now

            // The output-only window gets the picture before the panels are
            // blended into it (GL copies the pixels at upload).
            if let o = output {
                o.window.makeCurrent()
                image.pixels.withUnsafeBytes { o.presenter.upload(pixels: $0.baseAddress!, width: image.width, height: image.height) }
            }
            window.makeCurrent()
            let t3 = clock.now

            gui.beginFrame()
            let display = (Float(window.size.width), Float(window.size.height))
            var uiActions: [AppAction] = []
            if model.uiVisible && !model.live.allHidden {
                MenuBar.draw(model: model, displayCount: SDLWindow.displayCount) { uiActions.append($0) }
                editor.draw(model: model) { uiActions.append($0) }
                audioShell.drawUI(model: model) { uiActions.append($0) }
                StatusPanels.notices(model.notices, displayWidth: display.0) { uiActions.append($0) }
            }
            liveSet.drawUI(model: model) { uiActions.append($0) }
            if model.overlayVisible && !model.live.allHidden {
                StatusPanels.overlay(stats: stats, lines: [
                    "\(sim.agentCount) agents, field \(sim.width)x\(sim.height), output \(image.width)x\(image.height), \(window.vsync.rawValue)",
                    audio.status.label,
                    "governor: " + (governor.enabled ? governor.summary : "off"),
                ], displayHeight: display.1)
            }
            if audio.status == .demo { StatusPanels.demoLabel(displayWidth: display.0) }
            if let r = remoteEditor { RemoteStatusLabel.draw(r.statusLine, connected: r.synced, displayWidth: display.0, displayHeight: display.1) }
            // With a software GL the panels are blended into the frame on the
            // CPU (cheaper than rasterising them again); otherwise GL draws
            // them over the picture.
            let panelsInImage = gui.endFrame(blendingInto: &image)
            let t4 = clock.now

            image.pixels.withUnsafeBytes { presenter.upload(pixels: $0.baseAddress!, width: image.width, height: image.height) }
            presenter.draw(viewport: (0, 0, drawable.width, drawable.height), drawable: drawable)
            if !panelsInImage { gui.drawOverPicture() }
            if let path = options.screenshot, (clock.now - startTime).seconds >= options.screenshotAt {
                do {
                    try PNGCodec.write(presenter.readBack(width: drawable.width, height: drawable.height), to: path)
                } catch {
                    printError("physarum: --screenshot: \(error)")
                    exitCode = 1
                }
                running = false
            }
            for a in uiActions { apply(a, sim: sim, renderer: renderer, window: window, gui: gui) }
            hostLink?.publish(model: model)
            let t5a = clock.now
            window.swap()
            if let o = output {
                // Same frame, no UI (uploaded above); this window's swap paces the loop.
                o.window.makeCurrent()
                let size = o.window.drawableSize
                o.presenter.draw(viewport: (0, 0, size.width, size.height), drawable: size)
                o.window.swap()
                window.makeCurrent()
            }
            let t5 = clock.now

            var timing = FrameStats.FrameTiming()
            timing.sim = (t1 - t0).seconds * 1000
            timing.render = (t2 - t1).seconds * 1000
            timing.present = ((t3 - t2) + (t5 - t4)).seconds * 1000
            timing.ui = (t4 - t3).seconds * 1000
            timing.total = (t5 - t0).seconds * 1000
            stats.add(timing)
            frameIndex += 1
            let swapMs = (t5 - t5a).seconds * 1000
            governor.update(frameMs: timing.total, workMs: timing.total - swapMs, now: (t5 - startTime).seconds)

            let elapsed = (clock.now - startTime).seconds
            let second = Int(elapsed)
            if second > lastStatsSecond {
                lastStatsSecond = second
                statsWriter?.append(statsLine(elapsed: elapsed, frames: frameIndex, audio: audio, features: features))
            }
            if let path = options.stateFile, second != lastStateSecond {
                lastStateSecond = second
                writeState(path)
            }
            for a in liveSet.drainActions() { apply(a, sim: sim, renderer: renderer, window: window, gui: gui) }
            if let err = autosaver?.takeError() { apply(.notice(err, .error), sim: sim, renderer: renderer, window: window, gui: gui) }
            autosaver?.offer(currentSession(window), now: elapsed)
            if let q = options.quitAfter, elapsed >= q { running = false }
            if window.vsync == .timer {
                let budget = 1.0 / 60 - (clock.now - t0).seconds
                if budget > 0.001 { Thread.sleep(forTimeInterval: budget) }
            }
        }
        audioShell.shutdown()
        liveSet.shutdown()
        autosaver?.saveNow(currentSession(window))
        statsWriter?.flush()
        if let path = options.stateFile { writeState(path) }
        return exitCode
    }

    /// Render size for a drawable: at most 1920×1080 pixels' worth, same aspect.
    static func renderSize(drawable: (width: Int, height: Int), scale: Double = 1) -> (width: Int, height: Int) {
        let w = max(16, drawable.width), h = max(16, drawable.height)
        let limit = 1920.0 * 1080.0
        let s = min(1, (limit / Double(w * h)).squareRoot()) * scale
        return (max(16, Int(Double(w) * s)), max(16, Int(Double(h) * s)))
    }

    private func apply(_ action: AppAction, sim: Simulation, renderer: Renderer?, window: SDLWindow, gui: ImGuiLayer) {
        var a = action
        switch a {
        case .randomize(seed: 0):
            seedCounter &+= 1
            a = .randomize(seed: seedCounter)
        case .mutate(let amount, seed: 0):
            seedCounter &+= 1
            a = .mutate(amount: amount, seed: seedCounter)
        default:
            break
        }
        // A remote editor sends intents to its host instead of applying them.
        if remoteEditor?.intercept(a) == true { return }
        let before = model.base
        defer { remoteEditor?.mirror(from: before, to: model.base) }
        for effect in model.handle(a) {
            switch effect {
            case .reseed:
                reseed(sim: sim, renderer: renderer)
            case .sessionChanged:
                break
            case .setFullscreen(let on):
                window.setFullscreen(on)
            case .setOutputWindow(let d):
                setOutput(display: d, editor: window)
            case .applyUIScale(let s):
                gui.setScale(s)
            case .logNotice(let text):
                printError("physarum: \(text)")
            case .quit:
                running = false
            case .library, .capture:
                for a in liveSet.perform(effect) { apply(a, sim: sim, renderer: renderer, window: window, gui: gui) }
            case .audio(let e):
                for a in audioShell.perform(e, model: model) { apply(a, sim: sim, renderer: renderer, window: window, gui: gui) }
            }
        }
    }

    private func reseed(sim: Simulation, renderer: Renderer?) {
        seedCounter &+= 1
        sim.reset(seed: seedCounter, params: model.base)
        renderer?.resetHistory()
        audioShell.modulator.reset()
    }

    /// Starts the host's listener or the remote's connection (LiveRunner+Remote would be one more file).
    private func startRemote() throws {
        if let listen = options.listen {
            let link = HostLink(host: try RemoteHostSetup.start(listen: listen, token: options.token), onDisconnect: options.onDisconnect)
            // A pushed look fades through black like the auto-cycle does.
            link.requestFade = { [liveSet] id in liveSet.cycle.request(id) }
            hostLink = link
        }
        if let target = options.remote {
            let client: RemoteClient
            do {
                client = try RemoteClient(target: target.host, token: target.token, push: target.push)
            } catch {
                throw RuntimeFailure("remote: \(error)")
            }
            remoteEditor = RemoteEditorLink(client: client)
            client.setLook(RemoteEditorLink.look(model))  // before connecting: `--push` sends it
            client.start()
        }
    }

    private func stopRemote() {
        hostLink?.host.stop()
        remoteEditor?.client.stop()
    }

    private func setOutput(display: Int?, editor: SDLWindow) {
        output = nil
        editor.makeCurrent()
        guard let d = display else {
            editor.setSwapInterval(editor.vsync == .timer ? 0 : (editor.vsync == .adaptive ? -1 : 1))
            return
        }
        if d >= SDLWindow.displayCount {
            _ = model.handle(.notice("Display \(d + 1) is not connected; the projector window opens on display 1", .warning))
            printError("physarum: display \(d + 1) is not connected; the projector window opens on display 1")
        }
        do {
            let w = try SDLWindow(title: "Physarum Live — output", width: 1280, height: 720,
                                  display: min(d, SDLWindow.displayCount - 1), fullscreen: true)
            let p = try GLPresenter()
            output = (w, p)
            // Only the projector waits for vsync; the editor must not halve the rate.
            editor.setSwapInterval(0)
            editor.makeCurrent()
        } catch {
            editor.makeCurrent()
            _ = model.handle(.notice("The projector window could not open: \(error)", .error))
            printError("physarum: the projector window could not open: \(error)")
        }
    }

    private func currentSession(_ window: SDLWindow) -> Session {
        var s = session
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
        return s
    }

    private func statsLine(elapsed: Double, frames: Int, audio: AudioLink, features: AudioFeatures) -> String {
        let m = stats.meanSplit
        let bands: [(String, JSONValue)] = AudioSourceID.allCases.map { ($0.rawValue, rounded(Double(features[$0].level), 4)) }
        return JSONValue.object([
            ("t", rounded(elapsed, 3)), ("frames", .int(frames)), ("fps", rounded(stats.fps, 2)),
            ("frameMs", .object([("p50", rounded(stats.percentile(50), 3)), ("p99", rounded(stats.percentile(99), 3))])),
            ("split", .object([("sim", rounded(m.sim, 3)), ("render", rounded(m.render, 3)),
                               ("present", rounded(m.present, 3)), ("ui", rounded(m.ui, 3))])),
            ("bands", .object(bands)), ("onsets", .int(audio.onsetsSeen)), ("droppedAudio", .int(audio.droppedSamples)),
            ("audio", .string(audio.status.label)), ("source", model.audio.source.map(JSONValue.string) ?? .null),
            ("captureLatencyMs", audio.captureStatus?.latency.map { rounded($0 * 1000, 2) } ?? .null), ("preset", model.currentPreset.map { .string($0.id) } ?? .null),
            ("uiVisible", .bool(model.uiVisible)),
            ("recording", recordingStats(liveSet.recorder.status)),
            ("agents", .int(Int(governor.adjust(model.base)[.agents]))),
            ("governor", .object([("enabled", .bool(governor.enabled)), ("agentFactor", .double(governor.agentFactor)),
                                  ("resolutionFactor", .double(governor.resolutionFactor)),
                                  ("effectLevel", .int(governor.effectLevel)), ("summary", .string(governor.summary))])),
        ]).text
    }

    /// The current (or last) recording for `--stats`: whether it runs, its
    /// phase, frames written (seconds of video) and live frames dropped.
    private func recordingStats(_ r: RecordingStatus) -> JSONValue {
        .object([("active", .bool(r.isActive)), ("phase", .string("\(r.phase)")),
                 ("framesWritten", .int(r.framesWritten)), ("seconds", rounded(r.seconds, 2)),
                 ("dropped", .int(r.dropped))])
    }

    /// The audio side for `--state-file`: source, config, and the audio
    /// panel's item rectangles in window pixels (scripts and integration
    /// tests aim xdotool clicks with them).
    private func audioState() -> JSONValue {
        let rects: [(String, JSONValue)] = audioShell.panel.rects.sorted { $0.key < $1.key }.map { k, r in
            (k, .array([rounded(Double(r.x0), 1), rounded(Double(r.y0), 1), rounded(Double(r.x1), 1), rounded(Double(r.y1), 1)]))
        }
        return .object([
            ("source", model.audio.source.map(JSONValue.string) ?? .null),
            ("status", .string(audioShell.link?.status.label ?? "audio off")),
            ("config", .string(model.audio.config.name)),
            ("file", model.audio.file.map { .string($0.path) } ?? .null),
            ("routes", .int(model.audio.config.routes.count)),
            ("panelVisible", .bool(model.audio.panelVisible)),
            ("panel", .object(model.audio.panelVisible && model.uiVisible ? rects : [])),
        ])
    }

    /// The audio config to start with: `--config` (a file, or the name of a
    /// shipped config), else the session's edit, else the built-in default.
    static func startingAudioConfig(options: LiveOptions, session: Session?, store: AudioConfigStore)
        -> (config: AudioConfig, file: URL?, notice: String?) {
        let fallback = session?.audio ?? .builtInDefault
        let file = session?.audioConfigPath.map { URL(fileURLWithPath: $0) }
        guard let arg = options.config else { return (fallback, file, nil) }
        var url = URL(fileURLWithPath: arg)
        if !FileManager.default.fileExists(atPath: url.path), let shipped = store.shippedDirectory {
            let named = shipped.appendingPathComponent(arg.hasSuffix(".json") ? arg : arg + ".json")
            if FileManager.default.fileExists(atPath: named.path) { url = named }
        }
        do {
            return (try AudioConfig.load(contentsOf: url).config, url, nil)
        } catch {
            let first = error.errors.first?.description ?? "\(error)"
            return (fallback, file, "--config: \(first); using \(session?.audio != nil ? "the last session's config" : "the built-in default")")
        }
    }

    private func writeState(_ path: String) {
        var extra: [(String, JSONValue)] = []
        if let h = hostLink {
            extra = [("revision", .int(Int(h.revision))),
                     ("remote", .object([("connected", .bool(h.remoteConnected)), ("connects", .int(h.connects))])),
                     ("listen", .string(h.host.address.description))]
        }
        let state = remoteEditor?.state(model) ?? HostLink.snapshot(model)
        if let r = remoteEditor { extra = [("revision", .int(Int(state.revision))), ("connected", .bool(r.synced))] }
        extra.append(("audio", audioState()))
        StateFileWriter.shared.write(StateDump.text(state, extra: extra), to: path)
    }
}

/// Rewrites small state files atomically off the frame path.
final class StateFileWriter: @unchecked Sendable {
    static let shared = StateFileWriter()
    private let queue = DispatchQueue(label: "physarum.state")
    func write(_ text: String, to path: String) {
        queue.async { try? SafeFile.writeAtomically(Data(text.utf8), to: URL(fileURLWithPath: path)) }
    }
}
