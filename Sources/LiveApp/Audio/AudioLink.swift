import AudioReactive
import Engine
import Foundation

/// Audio for the live loop: PulseAudio capture (or the demo groove, or a
/// file looped in real time with `--play`), the analysis thread, and the
/// features of each frame.
///
/// Start-up: capture from `--source` (or the server default). When no server
/// answers, the built-in demo groove plays (labelled DEMO) while capture keeps
/// retrying in the background; when the server appears, real capture takes
/// over. Losing capture mid-run does not start the demo: modulation fades back
/// to base until capture resumes. A stream that claims to run but delivers
/// nothing (a hung sound server) is "stalled" (`CaptureWatchdog`): the same
/// fade to rest, one notice, and back to live when samples flow again.
///
/// Main thread only (it owns the analyses; their threads talk to it through
/// wait-free queues).
final class AudioLink {
    enum Status: Equatable {
        case off
        case demo
        case live(String)
        case waiting(String)
        /// The stream claims to run but no sample has come for a while (the source).
        case stalled(String)
        /// `--play FILE`: the file, looped in real time.
        case file(String)

        var isFile: Bool {
            if case .file = self { return true }
            return false
        }

        var label: String {
            switch self {
            case .off: "audio off"
            case .demo: "DEMO (no audio server)"
            case .live(let s): "live: \(s)"
            case .waiting(let why): "no capture: \(why)"
            case .stalled(let s): "stalled: no sound from \(s)"
            case .file(let name): "file: \(name) (looped)"
            }
        }
    }

    private(set) var status: Status = .off
    /// Hops with a `full` onset seen since start.
    private(set) var onsetsSeen = 0
    /// The frame rule at the frame's start and at the post chain's late latch.
    private var latch = FrameLatch()
    private var capture: LiveAnalysis?
    /// The demo groove or `--play`'s file, played in real time.
    private var demo: LiveAnalysis?
    private var notices: [String] = []
    private var everCaptured = false
    private var settings: AudioTuning
    /// The capture source requested (nil = server default).
    private(set) var sourceName: String?
    private let forcedDemo: Bool
    private let options: LiveOptions
    /// A source switch is waiting for its first samples (for the notice).
    private var switching = false
    /// Watches the live stream for a stall (samples stop while it claims to run).
    private var watchdog = CaptureWatchdog()
    private let clock = ContinuousClock()
    private let origin = ContinuousClock.now

    init(options: LiveOptions, source: String?, settings: AudioTuning) {
        self.settings = settings
        self.options = options
        sourceName = source
        forcedDemo = options.demo
        if options.noAudio {
            status = .off
            return
        }
        if options.demo {
            startDemo()
            return
        }
        if let path = options.play {
            startPlayback(path)
            return
        }
        startCapture(waitSeconds: 1.5)
    }

    deinit {
        capture?.stop()
        demo?.stop()
    }

    private func startCapture(waitSeconds: Double) {
        let pulse = PulseCapture(source: sourceName)
        let analysis = LiveAnalysis(source: pulse, settings: settings)
        analysis.start()
        capture = analysis
        let first = pulse.waitForFirstOutcome(timeout: waitSeconds)
        if first.state == .capturing {
            everCaptured = true
            status = .live(sourceName ?? "default source")
        } else {
            let why = first.message ?? "the PulseAudio server did not answer"
            notices.append("No audio capture (\(why)); playing the built-in demo groove until a server appears")
            startDemo()
        }
    }

    private func startDemo() {
        let d = LiveAnalysis(source: RealtimeSource(Groove(), label: "demo groove"), settings: settings)
        d.start()
        demo = d
        status = .demo
    }

    /// Plays the file at `path` in a loop through the live analysis; a file
    /// that cannot be played leaves audio off with a notice naming it.
    private func startPlayback(_ path: String) {
        do {
            let recording = try LoopedRecording(path: path)
            let name = URL(fileURLWithPath: path).lastPathComponent
            let d = LiveAnalysis(source: RealtimeSource(recording, label: "file \(name)"), settings: settings)
            d.start()
            demo = d
            status = .file(name)
        } catch {
            notices.append("--play: \(error)")
            status = .off
        }
    }

    /// Switches capture to another source (nil = the server default) without
    /// restarting the app. Does not wait for the server: the status says
    /// "connecting" until the new stream delivers (then "live"), and the
    /// demo groove, if it was playing, stops once it does.
    func switchSource(_ name: String?) {
        guard !options.noAudio else { return }
        sourceName = name
        capture?.stop()
        let analysis = LiveAnalysis(source: PulseCapture(source: name), settings: settings)
        analysis.start()
        capture = analysis
        latch.reset()
        watchdog = CaptureWatchdog()
        switching = true
        if status != .demo && !status.isFile { status = .waiting("connecting to \(name ?? "the default source")") }
    }

    /// Applies new analysis settings (from the audio config) to the running analyses.
    /// A beat-tracker command to the running analyses.
    func beat(_ c: BeatCommand) {
        capture?.beat(c)
        demo?.beat(c)
    }

    func apply(_ s: AudioTuning) {
        settings = s
        capture?.settings = s
        demo?.settings = s
    }

    /// Whether modulation should be at full strength (capture or demo running).
    var isDriving: Bool {
        switch status {
        case .live, .demo, .file: true
        default: false
        }
    }

    /// The features for this frame's start: level = last hop, transient =
    /// peak since the last frame. Also follows capture coming and going.
    /// With `lateLatch` the picture takes its own features at
    /// `lateFeatures()`, just before the post chain.
    func frameFeatures(lateLatch: Bool = false) -> AudioFeatures {
        followCapture()
        drainHops()
        switch status {
        case .waiting, .stalled:
            // Capture is out or stalled: the levels (and so the routes' inputs)
            // are at rest, not held at the last hop heard before the outage.
            latch.reset()
            return .silent
        default:
            break
        }
        if status == .off { return .silent }
        lateLatching = lateLatch
        return latch.takeStart(lateLatch: lateLatch)
    }

    /// The picture's features at the post chain's late latch: every hop
    /// since the last picture, those that arrived while the simulation
    /// stepped included (nil when this frame has no late latch).
    func lateFeatures() -> AudioFeatures? {
        guard latch.awaitsLateLatch else { return nil }
        drainHops()
        return latch.takeLate()
    }

    /// Whether the frames latch the picture late (set at each frame start).
    private var lateLatching = false

    /// Hops the driving analysis has queued so far (any thread; it moves
    /// when there is something new to drain).
    var hopsQueued: Int { (demo ?? capture)?.hops ?? 0 }

    /// For the hit reaction, while the picture latches late (no visual
    /// offset): drains the new hops and returns the picture's features so
    /// far — every hop since the last picture's latch, not taken: the next
    /// late latch still takes them — when they hold an onset; else nil.
    func reactionFeatures() -> AudioFeatures? {
        guard lateLatching, isDriving else { return nil }
        drainHops(latching: false)
        let f = latch.peekPicture()
        return f.onset ? f : nil
    }

    /// The onsets taken so far and not yet shown were shown at `uptime`
    /// (a hit reaction's present), for the latency readout.
    func markOnsetsShown(at uptime: UInt64) {
        for i in takenOnsets.indices where takenOnsets[i].2 == nil { takenOnsets[i].2 = uptime }
    }

    /// Drains the driving analysis into the frame latch, noting when each
    /// onset hop was taken (for the latency readout). `latching`: a frame
    /// takes features now (its start or late latch), so the readout's frame
    /// latch time and hop count move; the hit reaction's look does not.
    private func drainHops(latching: Bool = true) {
        if latching { latchedAt = DispatchTime.now().uptimeNanoseconds }
        let source = demo ?? capture
        source?.drainFeatures { f in
            latch.add(f)
            lastTakenTime = f.time
            if f.onset {
                onsetsSeen += 1
                takenOnsets.append((f.time, DispatchTime.now().uptimeNanoseconds, nil))
            }
        }
        if latching { lastFrameHops = latch.pictureHops }
        // Drain the idle capture too, so its queue never backs up.
        if demo != nil { capture?.drainFeatures { _ in } }
    }

    /// Onset hops taken since the last call, with their measured timing:
    /// (timing, when the frame took the hop, when a hit reaction showed it
    /// before the frame did — nil: the frame's present showed it).
    func takeOnsets() -> [(timing: OnsetTiming, taken: UInt64, shown: UInt64?)] {
        timings += (demo ?? capture)?.takeOnsetTimings() ?? []
        var out: [(OnsetTiming, UInt64, UInt64?)] = []
        for (time, taken, shown) in takenOnsets {
            if let t = timings.last(where: { abs($0.hopTime - time) < 1e-9 }) { out.append((t, taken, shown)) }
        }
        takenOnsets.removeAll(keepingCapacity: true)
        // Timings of hops not taken yet wait for their frame.
        timings.removeAll { $0.hopTime <= lastTakenTime + 1e-9 }
        if timings.count > 8 { timings.removeFirst(timings.count - 8) }
        return out
    }

    private func followCapture() {
        guard let c = capture else { return }
        let st = c.captureStatus
        let source = sourceName ?? "default source"
        let watched: Bool = switch status {
        case .live, .stalled: st.state == .capturing
        default: false
        }
        switch watchdog.update(running: watched, samples: st.samples, now: (clock.now - origin) / .seconds(1)) {
        case .stalled(let s)?:
            status = .stalled(source)
            notices.append("Audio capture stalled: no sound from \(source) for \(String(format: "%.1f", s)) s while the stream claims to run "
                           + "(is the sound server hung?); modulation fades out until sound flows again")
            return
        case .resumed(let s)?:
            status = .live(source)
            latch.reset()
            notices.append("Audio capture resumed: sound flows again from \(source) after \(String(format: "%.1f", s)) s")
            return
        case nil:
            break
        }
        switch (status, st.state) {
        case (.demo, .capturing) where !forcedDemo, (.file, .capturing):
            let stopped = status.isFile ? status.label : "the demo groove"
            demo?.stop()
            demo = nil
            latch.reset()
            everCaptured = true
            switching = false
            status = .live(sourceName ?? "default source")
            notices.append("Audio capture started (\(sourceName ?? "default source")); \(stopped) stopped")
        case (.live, .retrying), (.live, .connecting), (.stalled, .retrying), (.stalled, .connecting):
            status = .waiting(st.message ?? "capture lost")
            notices.append("Audio capture lost (\(st.message ?? "server gone")); modulation fades out until it returns")
        case (.waiting, .retrying):
            if let m = st.message, status != .waiting(m) { status = .waiting(m) }
        case (.waiting, .capturing):
            status = .live(sourceName ?? "default source")
            notices.append(switching ? "Capturing from \(sourceName ?? "the default source")" : "Audio capture resumed")
            switching = false
        default:
            break
        }
    }

    /// Hops the frame has taken so far (a sound waited for the frame
    /// anywhere from the newest hop to the oldest of them).
    private(set) var lastFrameHops = 0
    /// When the frame last took features (uptime ns): its start, or the late latch.
    private(set) var latchedAt: UInt64 = 0
    /// Onset hops taken this frame: (sample-clock time, when taken, when a hit reaction showed it).
    private var takenOnsets: [(Double, UInt64, UInt64?)] = []
    /// Onset timings whose hops were not taken yet, and the newest hop taken.
    private var timings: [OnsetTiming] = []
    private var lastTakenTime = -Double.infinity

    /// Seconds since the newest hop of the driving analysis was queued (nil before any).
    func newestHopAge(at uptime: UInt64) -> Double? {
        guard let t = (demo ?? capture)?.newestHopUptime, t > 0, uptime >= t else { return nil }
        return Double(uptime - t) / 1e9
    }

    /// Capture health for stats and the audio panel.
    var captureStatus: CaptureStatus? { capture?.captureStatus }

    /// Samples dropped by capture (reader fell behind).
    var droppedSamples: Int { capture?.captureStatus.dropped ?? 0 }

    /// Meters of the analysis that drives modulation.
    var meters: AnalysisMeters? { (demo ?? capture)?.meters }

    /// Notices raised since the last call.
    func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }
}
