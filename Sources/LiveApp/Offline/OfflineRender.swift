import AudioReactive
import Engine
import Foundation
import LiveCore

/// An offline render: simulate a preset and render its frames, handing each
/// to a sink; with `audio`, the preset is driven by an audio file through an
/// audio config's routes, frame by frame as the live loop does (features →
/// modulation → `simSpeed` steps with fractions carried over → render), for
/// as many frames as cover the file. Deterministic: the same options give the
/// same frames (any thread count). Used by `physarum render`, the contact
/// sheet and the golden tests.
struct OfflineRender {
    var preset: Preset
    /// Frames without audio (with audio the file's length decides).
    var frames = 1
    var width = 1280, height = 720
    /// Field size; nil = the output size.
    var fieldWidth: Int?, fieldHeight: Int?
    /// Overrides the preset's agent count.
    var agents: Int?
    var seed: UInt64 = 1
    /// Steps per frame; nil = the (effective) sim speed. Fractions accumulate.
    var stepsPerFrame: Double?
    /// Steps before the first frame.
    var warmup = 0
    var threads = Simulation.defaultThreads
    /// The audio that drives the render (consumed by one run), or nil.
    var audio: OfflineAudio?
    /// The engine: the CPU (the deterministic reference) unless asked otherwise.
    var backend = BackendKind.cpu

    /// The base parameters: the preset's, with the agent override, held to
    /// the engine's agent limit (`render --agents` over it is refused earlier).
    var params: PresetParams {
        var p = preset.params
        if let agents { p[.agents] = Double(agents) }
        return p.held(to: backend == .cpu ? EngineSetup.cpuAgentLimit() : nil).params
    }

    /// Why the preset's agent count will be lowered, if it will (said on stderr).
    var agentNotice: String? {
        guard backend == .cpu else { return nil }
        var p = preset.params
        if let agents { p[.agents] = Double(agents) }
        return p.held(to: EngineSetup.cpuAgentLimit()).notice
    }

    /// Frames the render produces.
    var frameCount: Int { audio?.frameCount ?? frames }

    /// Runs the render, calling `sink(frameIndex, image)` for every frame and
    /// `progress(framesDone)` after each. The frames come out of the live
    /// window's pipeline, driven by the offline clock (frame N at N ÷ fps)
    /// and the audio file's features (`OfflineAudio`), or by silence with
    /// modulation off when there is no audio.
    func run(progress: (Int) -> Void = { _ in }, sink: (Int, RGBAImage) throws -> Void) throws {
        let base = params
        let field = (fieldWidth ?? width, fieldHeight ?? height)
        var context: GLComputeContext?
        let pipeline: FramePipeline
        if backend == .gpu {
            do {
                context = try GLComputeContext()
                let engine = try EngineSetup.make(.gpu, contextCurrent: true, field: field, output: (width, height),
                                                  params: base, seed: seed, threads: threads)
                pipeline = FramePipeline(backend: engine, params: base)
            } catch {
                throw RuntimeFailure("--backend gpu: \(error)")
            }
        } else {
            pipeline = FramePipeline(field: field, output: (width, height), params: base, seed: seed, threads: threads)
        }
        defer { withExtendedLifetime(context) {} }
        pipeline.stepsPerFrame = stepsPerFrame
        if let audio { audio.config.configure(&pipeline.modulator) } else { pipeline.modulator.enabled = false }
        pipeline.warmUp(steps: warmup, params: base)
        var clock = OfflineClock(fps: audio?.fps ?? 60, count: frameCount)
        while let tick = clock.next() {
            let features: AudioFeatures
            do {
                features = try audio?.nextFeatures() ?? .silent
            } catch {
                throw RuntimeFailure(error.description)
            }
            pipeline.run(.init(base: base, features: features), tick: tick)
            try sink(tick.index, pipeline.picture.image)
            progress(tick.index + 1)
        }
    }
}

/// Progress of a long render on stderr: frames done, frames per second, ETA.
/// Redraws one line on a terminal; prints a line every few seconds otherwise.
struct ProgressReporter {
    let total: Int
    let label: String
    /// What is counted ("frame", "preset").
    let unit: String
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastPrint: ContinuousClock.Instant
    private let tty = isatty(STDERR_FILENO) != 0

    init(total: Int, label: String, unit: String = "frame") {
        self.total = total
        self.label = label
        self.unit = unit
        start = clock.now
        lastPrint = start
    }

    mutating func update(_ done: Int) {
        let now = clock.now
        let interval: Duration = tty ? .milliseconds(250) : .seconds(5)
        guard done == total || now - lastPrint >= interval else { return }
        lastPrint = now
        let secs = Self.seconds(now - start)
        let rate = secs > 0 ? Double(done) / secs : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let pct = total > 0 ? 100 * done / total : 100
        let speed = unit == "frame" ? String(format: "%.1f fps", rate) : String(format: "%.1f s per \(unit)", rate > 0 ? 1 / rate : 0)
        let line = "\(label): \(unit) \(done)/\(total) (\(pct)%), \(speed), ETA \(Self.clockText(eta))"
        if tty {
            writeQuietly("\r" + line + (done == total ? "\n" : ""), to: STDERR_FILENO)
        } else {
            printError(line)
        }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func clockText(_ s: Double) -> String {
        let t = Int(s.rounded())
        return t >= 3600 ? String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60) : String(format: "%d:%02d", t / 60, t % 60)
    }
}
