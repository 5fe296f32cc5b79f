import AudioReactive
import Engine
import Foundation

/// `physarum host --headless`: the live loop without a window — apply remote
/// actions, auto-cycle (the library's `AutoCycle`: dwell, fade, hold, pinned
/// presets first), step the simulation, really render each frame into an
/// image (faded like the window's output, then dropped), at a target frame
/// rate. The presets are the user's library (read only here) and the factory
/// ones. The network runs on its own thread (`RemoteHost`); this loop only
/// drains its inbox and posts state snapshots. Audio is not captured here:
/// modulation stays at rest. Main thread only.
final class HeadlessHost {
    let options: HostOptions
    private var model: AppModel
    private var cycle = AutoCycle()
    private var seedCounter: UInt64
    private var frames = 0
    private var notices: [String] = []

    init(options: HostOptions) {
        self.options = options
        let catalog = PresetCatalog.factory()
        if let n = catalog.notice { notices.append(n) }
        for p in catalog.problems { notices.append("Preset skipped: \(p)") }
        let loaded = LibraryStore(directory: LibraryStore.defaultDirectory()).load()
        if let n = loaded.notice { notices.append(n) }
        let library = LibraryModel(factory: catalog.presets, document: loaded.document, loadProblem: loaded.problem)
        var start: Preset?
        if let name = options.preset {
            start = catalog.preset(named: name) ?? library.playOrder.first { $0.id == name }
            if start == nil { notices.append("There is no preset '\(name)'; starting with the first one") }
        }
        model = AppModel(library: library, start: start ?? catalog.presets.first)
        if let a = options.agents { _ = model.handle(.setParam(.agents, Double(a))) }
        _ = model.handle(.live(.setDwell(options.dwell)))
        seedCounter = options.seed
        // An installation cycles on its own until someone connects.
        if options.onDisconnect == .cycle { _ = model.handle(.togglePlaylist) }
    }

    /// Runs until SIGTERM/SIGINT or `--quit-after`. Returns the exit code.
    func run() throws -> Int32 {
        let signals = QuitSignals()
        let host = try RemoteHostSetup.start(listen: options.listen, token: options.token)
        defer { host.stop() }
        let link = HostLink(host: host, onDisconnect: options.onDisconnect)
        let statsWriter: LineWriter?
        do {
            statsWriter = try options.stats.map { try LineWriter(path: $0) }
        } catch {
            throw RuntimeFailure("--stats: \(error)")
        }
        for n in notices { printError("physarum host: \(n)") }
        let threads = options.threads ?? Simulation.defaultThreads
        let sim = Simulation(width: options.field.width, height: options.field.height, params: model.base,
                             seed: seedCounter, threads: threads)
        let out = options.size ?? options.field
        let renderer = Renderer(width: out.width, height: out.height, threads: threads)
        var image = RGBAImage(width: out.width, height: out.height)
        let clock = ContinuousClock()
        let start = clock.now
        let period = 1 / options.fps
        var nextFrame = 0.0
        var lastTick = 0.0
        var lastStatsSecond = 0
        var lastStateSecond = -1
        var stepCredit = 0.0
        let apply: (AppAction) -> Void = { [self] action in
            for effect in model.handle(action) {
                switch effect {
                case .reseed:
                    seedCounter &+= 1
                    sim.reset(seed: seedCounter, params: model.base)
                    renderer.resetHistory()
                case .logNotice(let text):
                    printError("physarum host: \(text)")
                default:
                    break  // window, session and capture work: nothing to do without a window
                }
            }
        }

        while !signals.received {
            let now = (clock.now - start).seconds
            if let q = options.quitAfter, now >= q { break }
            link.pump(model: { self.model }, apply: apply)
            // Auto-cycle: a preset switch happens at the black point of a fade.
            let cycled = cycle.tick(dt: now - lastTick, input: model.cycleInput)
            if let id = cycled.switchTo { apply(.jumpTo(id)) }
            lastTick = now

            let base = model.base
            stepCredit += base[.simSpeed]
            let steps = Int(stepCredit)
            stepCredit -= Double(steps)
            sim.step(base, count: steps)
            renderer.render(sim: sim, params: base, into: &image)
            image.scaleBrightness(cycled.alpha)
            frames += 1
            link.publish(model: model)

            let elapsed = (clock.now - start).seconds
            let second = Int(elapsed)
            if second > lastStatsSecond {
                lastStatsSecond = second
                statsWriter?.append(JSONValue.object([
                    ("t", rounded(elapsed, 3)), ("frames", .int(frames)), ("remote", .bool(link.remoteConnected)),
                    ("revision", .int(Int(link.revision))), ("skipped", .int(host.skippedFrames)),
                ]).text)
            }
            if let path = options.stateFile, second != lastStateSecond {
                lastStateSecond = second
                writeState(path, link: link, host: host)
            }
            // Pace to the target rate on a fixed schedule: a frame that woke late
            // is made up by the next ones (up to 3 frames behind; beyond that the
            // schedule restarts, so a long stall does not cause a burst).
            nextFrame = max(nextFrame + period, elapsed - 3 * period)
            let wait = nextFrame - (clock.now - start).seconds
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        }
        statsWriter?.flush()
        if let path = options.stateFile { writeState(path, link: link, host: host, sync: true) }
        return 0
    }

    private func writeState(_ path: String, link: HostLink, host: RemoteHost, sync: Bool = false) {
        let text = StateDump.text(HostLink.snapshot(model), extra: [
            ("revision", .int(Int(link.revision))),
            ("remote", .object([("connected", .bool(link.remoteConnected)), ("connects", .int(link.connects)),
                                ("lastDisconnect", link.lastDisconnect.map { .string($0) } ?? .null)])),
            ("listen", .string(host.address.description)),
            ("frames", .int(frames)),
        ])
        StateDumpWriter.shared.write(text, to: path, sync: sync)
    }
}
