import Engine
import Foundation
import Storage

/// Simulation-only scenarios: blur every step, default look, random spawn.
enum SimBench {
    static let scenarios: [BenchScenario] = [
        make("sim-250k-720p", agents: 250_000, 1280, 720, steps: 40, warmup: 100),
        make("sim-1m-720p", agents: 1_000_000, 1280, 720, steps: 20, warmup: 100),
        make("sim-4m-1080p", agents: 4_000_000, 1920, 1080, steps: 8, warmup: 60),
    ]

    static func make(_ name: String, agents: Int, _ w: Int, _ h: Int, steps: Int, warmup: Int) -> BenchScenario {
        BenchScenario(name: name, summary: "\(agents / 1000)k agents, \(w)x\(h) field, simulation only") { o in
            let n = o.agents ?? agents
            let (width, height) = o.size ?? (w, h)
            var p = PresetParams()
            p[.agents] = Double(n)
            p[.diffusion] = 1
            let sim = Simulation(width: width, height: height, params: p, seed: 1, threads: o.threads)
            if let v = ProcessInfo.processInfo.environment["PHYSARUM_SORT_INTERVAL"], let n = Int(v) { sim.sortInterval = n }
            sim.step(p, count: warmup)
            var times: [Double] = [], cpu: [Double] = []
            sim.resetTimings()
            for _ in 0..<o.repeats {
                let c0 = processCPUSeconds()
                times.append(timeSeconds { sim.step(p, count: steps) })
                cpu.append(processCPUSeconds() - c0)
            }
            let med = median(times)
            let t = sim.timings
            let per = { (x: Double) in JSONNode.rounded(x / Double(t.steps) * 1000, 3) }
            return [
                ("agents", .int(sim.agentCount)), ("width", .int(width)), ("height", .int(height)),
                ("threads", .int(sim.threads)), ("steps", .int(steps)), ("diffusionEvery", .int(1)),
                ("warmupSteps", .int(warmup)), ("repeats", .int(o.repeats)),
                ("seconds", JSONNode.rounded(med, 6)),
                ("agentStepsPerSecond", .int(Int(Double(sim.agentCount * steps) / med))),
                ("msPerStep", JSONNode.rounded(med / Double(steps) * 1000, 3)),
                ("cpuMsPerStep", JSONNode.rounded(median(cpu) / Double(steps) * 1000, 3)),
                ("checksum", .string(String(sim.checksum(), radix: 16))),
                ("split", .object([("agentsMs", per(t.agentSeconds)), ("diffuseMs", per(t.diffuseSeconds)),
                                   ("sortMs", per(t.sortSeconds))])),
            ]
        }
    }
}
