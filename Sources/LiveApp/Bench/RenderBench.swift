import Engine
import Storage

/// Render scenarios: the post chain alone and a whole frame (one step + render),
/// both at 1280×720 with every effect on (`configs/bench/all-effects.json`).
enum RenderBench {
    static let scenarios: [BenchScenario] = [
        BenchScenario(name: "render-720p", summary: "post chain only, 1280x720, all-effects (+ per-effect split)") { o in
            try run(o, name: "render-720p", step: false)
        },
        BenchScenario(name: "frame-1m-720p", summary: "one sim step + full render, 1280x720, 1M agents, all-effects") { o in
            try run(o, name: "frame-1m-720p", step: true)
        },
    ]

    /// Frames per timed repeat.
    static let framesPerRepeat = 20
    static let warmupSteps = 60

    /// Each effect switched to its neutral value, for the marginal-cost split.
    static let neutral: [(String, @Sendable (inout PresetParams) -> Void)] = [
        ("headGlow", { $0[.headGlow] = 0 }),
        ("kaleidoscope", { $0[.kaleidoscope] = 0 }),
        ("feedback", { $0[.feedback] = 0 }),
        ("bloom", { $0[.bloom] = 0 }),
        ("vignette", { $0[.vignette] = 0 }),
        ("saturationContrast", { $0[.saturation] = 1; $0[.contrast] = 1 }),
    ]

    static func run(_ o: BenchOptions, name: String, step: Bool) throws -> [(String, JSONNode)] {
        let setup = try PresetSource.benchSetup("all-effects")
        var p = setup.params
        if let a = o.agents { p[.agents] = Double(a) }
        let (w, h) = o.size ?? (1280, 720)
        let sim = Simulation(width: w, height: h, params: p, seed: 1, threads: o.threads)
        // As in the live app once head glow is on: the steps record the head
        // counts (their cost is in the step; frame-1m-720p shows the sum).
        sim.recordsHeads = true
        sim.step(p, count: warmupSteps)
        let renderer = Renderer(width: w, height: h, threads: o.threads)
        var image = RGBAImage(width: w, height: h)

        /// Median wall and CPU seconds per frame over the repeats, and the mean pass split.
        func measure(_ q: PresetParams) -> (Double, Double, RenderTimings) {
            renderer.render(sim: sim, params: q, into: &image)  // warm caches, build maps
            var perRepeat: [Double] = [], cpu: [Double] = []
            var sum = RenderTimings()
            for _ in 0..<o.repeats {
                let c0 = processCPUSeconds()
                perRepeat.append(timeSeconds {
                    for _ in 0..<framesPerRepeat {
                        if step { sim.step(q) }
                        renderer.render(sim: sim, params: q, into: &image)
                        let t = renderer.timings
                        sum.headGlow += t.headGlow; sum.maps += t.maps; sum.composite += t.composite
                        sum.bloom += t.bloom; sum.finish += t.finish; sum.total += t.total
                    }
                } / Double(framesPerRepeat))
                cpu.append((processCPUSeconds() - c0) / Double(framesPerRepeat))
            }
            let n = Double(o.repeats * framesPerRepeat)
            sum.headGlow /= n; sum.maps /= n; sum.composite /= n; sum.bloom /= n; sum.finish /= n; sum.total /= n
            return (median(perRepeat), median(cpu), sum)
        }

        let (frame, frameCPU, passes) = measure(p)
        var fields: [(String, JSONNode)] = [
            ("agents", .int(sim.agentCount)), ("width", .int(w)), ("height", .int(h)),
            ("threads", .int(renderer.threads)), ("framesPerRepeat", .int(framesPerRepeat)),
            ("repeats", .int(o.repeats)),
            ("msPerFrame", JSONNode.rounded(frame * 1000, 3)),
            ("framesPerSecond", JSONNode.rounded(1 / frame, 1)),
            ("cpuMsPerFrame", JSONNode.rounded(frameCPU * 1000, 3)),
            ("renderMsPerFrame", JSONNode.rounded(passes.total * 1000, 3)),
            ("passMs", .object([
                ("headGlow", JSONNode.rounded(passes.headGlow * 1000, 3)),
                ("maps", JSONNode.rounded(passes.maps * 1000, 3)),
                ("composite", JSONNode.rounded(passes.composite * 1000, 3)),
                ("bloom", JSONNode.rounded(passes.bloom * 1000, 3)),
                ("finish", JSONNode.rounded(passes.finish * 1000, 3)),
            ])),
        ]
        if step {
            fields.append(("simMsPerStep", JSONNode.rounded((frame - passes.total) * 1000, 3)))
        } else {
            // Marginal cost of each effect: the chain with it minus the chain
            // without it (wall ms, and CPU ms summed over threads, which a busy
            // machine disturbs less).
            var split: [(String, JSONNode)] = [], splitCPU: [(String, JSONNode)] = []
            for (effect, off) in neutral {
                var q = p
                off(&q)
                let (without, withoutCPU, _) = measure(q)
                split.append((effect, JSONNode.rounded((frame - without) * 1000, 3)))
                splitCPU.append((effect, JSONNode.rounded((frameCPU - withoutCPU) * 1000, 3)))
            }
            var plain = p
            for (_, off) in neutral { off(&plain) }
            let (base, baseCPU, _) = measure(plain)
            split.append(("plainComposite", JSONNode.rounded(base * 1000, 3)))
            splitCPU.append(("plainComposite", JSONNode.rounded(baseCPU * 1000, 3)))
            fields.append(("effectMs", .object(split)))
            fields.append(("effectCpuMs", .object(splitCPU)))
        }
        fields.append(("checksum", .string(String(image.pixels.reduce(UInt64(0xcbf2_9ce4_8422_2325)) {
            ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3
        }, radix: 16))))
        return fields
    }
}
