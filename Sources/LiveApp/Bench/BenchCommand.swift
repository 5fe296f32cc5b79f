import Engine
import Foundation
import Storage

/// Options shared by all bench scenarios.
struct BenchOptions: Sendable {
    /// Timed repeats (the median is reported).
    var repeats = 5
    /// Worker threads.
    var threads = 0
    /// Overrides a scenario's agent count (for quick runs).
    var agents: Int?
    /// Overrides a scenario's field size.
    var size: (width: Int, height: Int)?
    /// The engine of the backend scenarios (`--backend cpu|gpu`).
    var backend: BackendKind = .cpu
    /// Steps between the GPU engine's tile sorts (`--sort-interval`; nil: the engine's default, 0: never).
    var sortInterval: Int?
}

/// One benchmark: a name and a function producing its JSON fields.
struct BenchScenario: Sendable {
    let name: String
    let summary: String
    let run: @Sendable (BenchOptions) throws -> [(String, JSONNode)]
}

/// `physarum bench`: performance figures as JSON lines (release build!).
enum BenchCommand: Subcommand {
    static let name = "bench"
    static let summary = "measure simulation (and later render/analysis) speed; JSON lines"
    static var help: String {
        """
        Usage: physarum bench [--scenario NAME]... [--json] [--repeats N] [--threads N]
                              [--agents N] [--size WxH] [--compare FILE] [--backend cpu|gpu]
                              [--sort-interval N]

        Runs each scenario (all of them by default): a warm-up that lets the
        network form, then N timed repeats (default 5); prints the median. Build
        with `swift build -c release` — debug builds are 10-50x slower.

        Scenarios:
        \(scenarioList)

        Output (--json, one line per scenario): scenario, agents, width, height,
        threads, steps, diffusionEvery, seconds (median per repeat),
        agentStepsPerSecond, msPerStep, checksum, maxRSSMiB, and more per scenario.
        Without --json the same lines are printed plus a short human summary.

        --backend gpu: sim-1m-720p, frame-1m-720p, sim-8m-4k, frame-8m-4k and
        frame-largest-4k run on the GPU engine (OpenGL 4.3 compute) in an
        offscreen context (SDL's offscreen driver when no display is set);
        their lines add backend, renderer (GL_RENDERER), GPU memory and the
        per-pass GL timer-query split. Other scenarios are CPU-only.
        --sort-interval N: steps between the GPU engine's tile sorts of the
        agents (default 16, as the CPU engine; 0 = never), to measure what
        sorting buys.

        --compare FILE: FILE is the output of an earlier `bench --json` run
        (save it with `physarum bench --json > base.json`). Each scenario then
        also prints one line of ratios new/old of its headline figures
        (msPerStep, agentStepsPerSecond, msPerFrame, ...) with better/worse;
        with --json, each line gains a "compare" object of the ratios instead.
        """
    }

    /// One line per scenario: its whole name, padded to the longest, then the summary.
    static var scenarioList: String {
        let width = (scenarios.map(\.name.count).max() ?? 0) + 2
        return scenarios.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary }
            .joined(separator: "\n")
    }

    /// Every scenario, in run order.
    static let scenarios: [BenchScenario] = SimBench.scenarios + RenderBench.scenarios + BackendBench.scenarios + ConfigBench.scenarios
        + PresentBench.scenarios + AnalysisBench.scenarios + CaptureBench.scenarios + RemoteBench.scenarios

    static func run(_ args: [String]) throws -> Int32 {
        var r = ArgumentReader(args)
        let names = try r.strings("--scenario")
        let json = r.flag("--json")
        var opts = BenchOptions()
        opts.repeats = try r.int("--repeats", in: 1...1000) ?? 5
        opts.threads = try r.int("--threads", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
        opts.agents = try r.int("--agents", in: 1...128_000_000)
        opts.size = try r.size("--size")
        opts.sortInterval = try r.int("--sort-interval", in: 0...100_000)
        let comparePath = try r.string("--compare")
        if let b = try r.string("--backend") {
            guard let k = BackendKind(rawValue: b) else { throw UsageError("--backend: expected cpu or gpu, got '\(b)'") }
            opts.backend = k
        }
        try r.finish()
        let baseline = try comparePath.map { try BenchBaseline(path: $0) }
        var chosen: [BenchScenario] = []
        // On the GPU the engine scenarios run through the backend interface.
        let known = opts.backend == .gpu ? BackendBench.gpuOnly + BackendBench.scenarios : scenarios
        for n in names {
            guard let s = known.first(where: { $0.name == n }) else {
                throw UsageError("unknown scenario '\(n)' (known: \(known.map(\.name).joined(separator: ", ")))")
            }
            chosen.append(s)
        }
        if chosen.isEmpty { chosen = known }
        #if DEBUG
        printError("physarum bench: warning: this is a debug build; figures are not meaningful (use -c release)")
        #endif
        for s in chosen {
            var fields: [(String, JSONNode)] = [("scenario", .string(s.name))]
            fields += try s.run(opts)
            fields.append(("maxRSSMiB", JSONNode.rounded(maxResidentMiB(), 1)))
            if json, let baseline { fields.append(baseline.jsonField(scenario: s.name, fields: fields)) }
            let line = JSONNode.object(fields).text
            print(line)
            if !json, let baseline { print(baseline.line(scenario: s.name, fields: fields)) }
            fflush(nil)
            if !json { printError("  " + humanSummary(fields)) }
        }
        return 0
    }

    static func humanSummary(_ f: [(String, JSONNode)]) -> String {
        f.filter { ["scenario", "agentStepsPerSecond", "msPerStep", "msPerFrame", "framesPerSecond", "usPerHop"].contains($0.0) }
            .map { "\($0.0)=\($0.1.text)" }.joined(separator: " ")
    }
}

/// Median of a non-empty array.
func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    let n = s.count
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
}

/// Seconds taken by `body`.
func timeSeconds(_ body: () throws -> Void) rethrows -> Double {
    let c = ContinuousClock()
    let d = try c.measure(body)
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

/// CPU seconds used by this process so far (all threads).
func processCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Peak resident memory of this process in MiB (getrusage).
func maxResidentMiB() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_maxrss) / 1024
}
