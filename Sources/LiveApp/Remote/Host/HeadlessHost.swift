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
        let limit = EngineSetup.cpuAgentLimit()  // the headless host runs the CPU engine
        if let n = model.base.held(to: limit).notice { notices.append(n) }
        model.agentLimit = limit
        _ = model.handle(.live(.setDwell(options.dwell)))
        // An installation cycles on its own until someone connects.
        if options.onDisconnect == .cycle { _ = model.handle(.togglePlaylist) }
    }

    /// Runs until SIGTERM/SIGINT or `--quit-after`. Returns the exit code.
    func run() throws -> Int32 {
        let signals = QuitSignals()
        let host = try RemoteHostSetup.start(listen: options.listen, token: options.token)
        defer { host.stop() }
        let announcer = RemoteHostSetup.announce(host)
        defer { announcer?.withdraw() }  // before the listener closes
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
                                     seed: options.seed, threads: options.threads ?? Simulation.defaultThreads)
        pipeline.modulator.enabled = false
        let session = LiveSession(model: model, pipeline: pipeline, seed: options.seed)
        session.dispatcher.log = { printError("physarum host: \($0)") }  // window, session and capture effects: nothing to do here
        // Sources: the remote's events, the announcer's problems, auto-cycle (a
        // preset switch at the black point of a fade); feedbacks: the remote's
        // state, then the stats and state files.
        session.add(source: link)
        if let announcer { session.add(source: announcer) }
        session.add(source: AutoCycleSource())
        let report = HeadlessReport(options: options, session: session, link: link, host: host, announcer: announcer, stats: statsWriter)
        session.add(feedback: link)
        session.add(feedback: report)
        var clock = ScheduleClock(fps: options.fps, quitAfter: options.quitAfter) { signals.received }
        report.elapsed = { [clock] in clock.elapsed }
        session.run(&clock)
        report.finish()
        return 0
    }
}

/// The headless host's reports as the session's last feedback: a `--stats`
/// line every second (frames, the remote, and the time the frame thread
/// spent on the remote's side: draining its queue, applying what came,
/// posting the state — the network layer must not take the frame thread's
/// time) and the `--state-file` every second. Main thread only.
final class HeadlessReport: FrameFeedback {
    let options: HostOptions
    let session: LiveSession
    let link: HostLink
    let host: RemoteHost
    let announcer: HostAnnouncer?
    let stats: LineWriter?
    /// Seconds on the schedule clock (the stats line's `t`).
    var elapsed: () -> Double = { 0 }
    /// Seconds spent in ticks (the sources' drains and the pipeline).
    private var frameSeconds = 0.0
    private var statsCadence = Cadence(every: 1, skipFirst: true)
    private var stateCadence = Cadence(every: 1)

    init(options: HostOptions, session: LiveSession, link: HostLink, host: RemoteHost, announcer: HostAnnouncer?, stats: LineWriter?) {
        self.options = options
        self.session = session
        self.link = link
        self.host = host
        self.announcer = announcer
        self.stats = stats
    }

    func frameDone(_ report: FrameReport) {
        frameSeconds += report.timing.total / 1000
        let t = elapsed()
        if statsCadence.due(at: t) {
            stats?.append(JSONNode.object([
                ("t", JSONNode.rounded(t, 3)), ("frames", .int(session.pipeline.frameCount)), ("remote", .bool(link.remoteConnected)),
                ("revision", .int(Int(link.revision))), ("skipped", .int(host.skippedFrames)),
                ("netSeconds", JSONNode.rounded(session.seconds(spentIn: link), 6)), ("frameSeconds", JSONNode.rounded(frameSeconds, 6)),
                ("readsOffNetworkThread", .int(host.readsOffNetworkThread)),
            ]).text)
        }
        if let path = options.stateFile, stateCadence.due(at: t) { writeState(path) }
    }

    /// The last stats and state, written before exit.
    func finish() {
        stats?.flush()
        if let path = options.stateFile { writeState(path, sync: true) }
    }

    private func writeState(_ path: String, sync: Bool = false) {
        let text = StateDump.text(HostLink.snapshot(session.model), extra: [
            ("revision", .int(Int(link.revision))),
            ("remote", .object([("connected", .bool(link.remoteConnected)), ("connects", .int(link.connects)),
                                ("lastDisconnect", link.lastDisconnect.map { .string($0) } ?? .null)])),
            ("listen", .string(host.address.description)),
            ("frames", .int(session.pipeline.frameCount)),
            ("host", RemoteHostSetup.stateJSON(RemoteHostSetup.status(host: host, link: link, announcer: announcer), tokenShown: false)),
        ])
        StateDumpWriter.shared.write(text, to: path, sync: sync)
    }
}
