import AudioReactive
import Engine
import Foundation
import LiveCore
import Storage

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
            let found = PresetSource.starting(name, catalog: catalog, library: library)
            start = found.preset
            if let n = found.notice { notices.append(n) }
        }
        model = AppModel(library: library, start: start ?? catalog.presets.first)
        model.agentOverride = options.agents
        model.agentLimit = EngineSetup.cpuAgentLimit()  // the headless host runs the CPU engine
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
        var announcer = RemoteHostSetup.announce(host)
        defer { announcer = nil }  // withdrawn before the listener closes
        let link = HostLink(host: host, onDisconnect: options.onDisconnect, maxAgents: options.maxAgents ?? HostLink.defaultMaxAgents)
        let statsWriter: LineWriter?
        do {
            statsWriter = try options.stats.map { try LineWriter(path: $0) }
        } catch {
            throw RuntimeFailure("--stats: \(error)")
        }
        for n in notices { printError("physarum host: \(n)") }
        // Audio is not captured here: the modulator is off and the base is shown as is.
        let pipeline = FramePipeline(field: options.field, output: options.size ?? options.field, params: model.base,
                                     seed: seedCounter, threads: options.threads ?? Simulation.defaultThreads)
        pipeline.modulator.enabled = false
        let dispatcher = ActionDispatcher(model: model, pipeline: pipeline, seed: seedCounter)
        dispatcher.log = { printError("physarum host: \($0)") }  // window, session and capture effects: nothing to do here
        var clock = ScheduleClock(fps: options.fps, quitAfter: options.quitAfter) { signals.received }
        var lastStatsSecond = 0
        var lastStateSecond = -1
        // Time on this thread spent in the remote's frame-loop side (draining
        // the network's queue, applying what came, posting the state), and in
        // whole frames: the network layer must not take the frame thread's time.
        var netSeconds = 0.0, frameSeconds = 0.0
        let timer = ContinuousClock()
        while let tick = clock.next() {
            let f0 = timer.now
            link.pump(model: { dispatcher.model }, apply: dispatcher.apply)
            if let p = announcer?.takeProblem() { printError("physarum host: not announced on the local network: \(p); a remote must type the address") }
            let f1 = timer.now
            // Auto-cycle: a preset switch happens at the black point of a fade.
            let cycled = cycle.tick(dt: tick.dt, input: dispatcher.model.cycleInput)
            if let id = cycled.switchTo { dispatcher.apply(.jumpTo(id)) }
            pipeline.run(.init(base: dispatcher.model.base, features: .silent, brightness: cycled.alpha), tick: tick)
            let f2 = timer.now
            link.publish(model: dispatcher.model)
            let f3 = timer.now
            netSeconds += ((f1 - f0) + (f3 - f2)).milliseconds / 1000
            frameSeconds += (f3 - f0).milliseconds / 1000

            let elapsed = clock.elapsed
            let second = Int(elapsed)
            if second > lastStatsSecond {
                lastStatsSecond = second
                statsWriter?.append(JSONNode.object([
                    ("t", JSONNode.rounded(elapsed, 3)), ("frames", .int(pipeline.frameCount)), ("remote", .bool(link.remoteConnected)),
                    ("revision", .int(Int(link.revision))), ("skipped", .int(host.skippedFrames)),
                    ("netSeconds", JSONNode.rounded(netSeconds, 6)), ("frameSeconds", JSONNode.rounded(frameSeconds, 6)),
                    ("readsOffNetworkThread", .int(host.readsOffNetworkThread)),
                ]).text)
            }
            if let path = options.stateFile, second != lastStateSecond {
                lastStateSecond = second
                writeState(path, model: dispatcher.model, frames: pipeline.frameCount, link: link, host: host, announcer: announcer)
            }
        }
        statsWriter?.flush()
        if let path = options.stateFile {
            writeState(path, model: dispatcher.model, frames: pipeline.frameCount, link: link, host: host, announcer: announcer, sync: true)
        }
        return 0
    }

    private func writeState(_ path: String, model: AppModel, frames: Int, link: HostLink, host: RemoteHost, announcer: HostAnnouncer?,
                            sync: Bool = false) {
        let text = StateDump.text(HostLink.snapshot(model), extra: [
            ("revision", .int(Int(link.revision))),
            ("remote", .object([("connected", .bool(link.remoteConnected)), ("connects", .int(link.connects)),
                                ("lastDisconnect", link.lastDisconnect.map { .string($0) } ?? .null)])),
            ("listen", .string(host.address.description)),
            ("frames", .int(frames)),
            ("host", RemoteHostSetup.stateJSON(RemoteHostSetup.status(host: host, link: link, announcer: announcer), tokenShown: false)),
        ])
        StateDumpWriter.shared.write(text, to: path, sync: sync)
    }
}
