import Engine
import Foundation

/// An offline render: simulate a preset and render N frames, handing each to
/// a sink. Deterministic: the same options give the same frames (any thread
/// count). Used by `physarum render`, the contact sheet and the golden tests.
struct OfflineRender {
    var preset: Preset
    var frames = 1
    var width = 1280, height = 720
    /// Field size; nil = the output size.
    var fieldWidth: Int?, fieldHeight: Int?
    /// Overrides the preset's agent count.
    var agents: Int?
    var seed: UInt64 = 1
    /// Steps per frame; nil = the preset's sim speed (fractions accumulate).
    var stepsPerFrame: Double?
    /// Steps before the first frame.
    var warmup = 0
    var threads = Simulation.defaultThreads

    /// The parameters actually simulated and rendered.
    var params: PresetParams {
        var p = preset.params
        if let agents { p[.agents] = Double(agents) }
        return p
    }

    /// Steps taken before frame `i` (0-based) is rendered, counting from the previous frame.
    func steps(before i: Int) -> Int {
        let k = stepsPerFrame ?? preset.params[.simSpeed]
        return Int((Double(i + 1) * k).rounded(.down)) - Int((Double(i) * k).rounded(.down)) + (i == 0 ? warmup : 0)
    }

    /// Runs the render, calling `sink(frameIndex, image)` for every frame and
    /// `progress(framesDone)` after each.
    func run(progress: (Int) -> Void = { _ in }, sink: (Int, RGBAImage) throws -> Void) throws {
        let p = params
        let sim = Simulation(width: fieldWidth ?? width, height: fieldHeight ?? height, params: p, seed: seed, threads: threads)
        let renderer = Renderer(width: width, height: height, threads: threads)
        var image = RGBAImage(width: width, height: height)
        for i in 0..<frames {
            sim.step(p, count: steps(before: i))
            renderer.render(sim: sim, params: p, into: &image)
            try sink(i, image)
            progress(i + 1)
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
            FileHandle.standardError.write(Data(("\r" + line + (done == total ? "\n" : "")).utf8))
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
