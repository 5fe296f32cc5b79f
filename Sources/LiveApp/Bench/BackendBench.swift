import Engine
import Foundation
import GLEngine
import Storage

/// Scenarios through the engine interface, on the backend `--backend` picks
/// (CPU by default; `--backend gpu` runs them on OpenGL compute in an
/// offscreen context, no display needed): simulation throughput, whole
/// frames (steps + post chain with every effect + present) and the largest
/// agent count that holds 60 fps at 4K. GPU times come from the wall clock
/// around work ended by glFinish; the pass split from GL timer queries.
enum BackendBench {
    static let scenarios: [BenchScenario] = [
        sim("sim-8m-4k", agents: 8_000_000, 3840, 2160, steps: 16, warmup: 30),
        frame("frame-8m-4k", agents: 8_000_000, 3840, 2160),
        BenchScenario(name: "frame-largest-4k", summary: "the most agents that hold 60 fps at 3840x2160, all-effects (doubling, then bisection)") { o in
            try largest(o)
        },
    ]

    /// The 720p scenarios that `--backend gpu` also runs here (CPU: SimBench, RenderBench).
    static let gpuOnly: [BenchScenario] = [
        sim("sim-1m-720p", agents: 1_000_000, 1280, 720, steps: 16, warmup: 100),
        frame("frame-1m-720p", agents: 1_000_000, 1280, 720),
    ]

    static let framesPerRepeat = 20

    /// A backend for the bench, with the GL context it needs (kept alive with it).
    struct Rig {
        let backend: any EngineBackend
        let context: GLComputeContext?
        let presenter: GLPresenter?
    }

    static func rig(_ o: BenchOptions, field: (Int, Int), params: PresetParams) throws -> Rig {
        guard o.backend == .gpu else {
            return Rig(backend: CPUBackend(field: field, output: field, params: params, seed: 1, threads: o.threads),
                       context: nil, presenter: nil)
        }
        let ctx = try GLComputeContext(width: field.0, height: field.1)
        let gl = try GLBackend(field: field, output: field, params: params, seed: 1)
        gl.timesPasses = true
        if let k = o.sortInterval { gl.sortInterval = k }
        return Rig(backend: gl, context: ctx, presenter: try GLPresenter())
    }

    /// Waits for the GPU (no-op on the CPU).
    static func sync(_ b: any EngineBackend) { (b as? GLBackend)?.finish() }

    static func describe(_ r: Rig) -> [(String, JSONNode)] {
        var f: [(String, JSONNode)] = [("backend", .string(r.backend.kind.rawValue)), ("renderer", .string(r.backend.rendererName))]
        if let gl = r.backend as? GLBackend {
            f.append(("gpuAllocatedMiB", JSONNode.rounded(Double(gl.allocatedBytes) / 1_048_576, 1)))
            if let free = GLBackend.freeVideoMemory() { f.append(("gpuFreeMiB", JSONNode.rounded(Double(free) / 1_048_576, 1))) }
            f.append(("deposits", .string(gl.partitionedDeposits ? "subgroup-partitioned" : "atomic")))
            f.append(("maxStorageBlockMiB", JSONNode.rounded(Double(GLBackend.maxStorageBlockBytes()) / 1_048_576, 1)))
        }
        return f
    }

    static func passes(_ b: any EngineBackend, frames: Int) -> JSONNode {
        .object(b.passTimes.map { ($0.name, JSONNode.rounded($0.ms / Double(max(frames, 1)), 4)) })
    }

    static func sim(_ name: String, agents: Int, _ w: Int, _ h: Int, steps: Int, warmup: Int) -> BenchScenario {
        BenchScenario(name: name, summary: "\(agents / 1000)k agents, \(w)x\(h) field, simulation only (--backend)") { o in
            var p = PresetParams()
            p[.agents] = Double(o.agents ?? agents)
            p[.diffusion] = 1
            let field = o.size ?? (w, h)
            let r = try rig(o, field: field, params: p)
            let b = r.backend
            b.step(p, count: warmup)
            sync(b)
            var times: [Double] = []
            for _ in 0..<o.repeats {
                times.append(timeSeconds {
                    b.step(p, count: steps)
                    sync(b)
                })
            }
            let med = median(times)
            b.step(p, count: steps)
            let split = passes(b, frames: steps)
            return [("agents", .int(b.agentCount)), ("width", .int(field.0)), ("height", .int(field.1)),
                    ("threads", .int(o.threads)), ("steps", .int(steps)), ("repeats", .int(o.repeats))] + describe(r) + [
                ("seconds", JSONNode.rounded(med, 6)),
                ("agentStepsPerSecond", .int(Int(Double(b.agentCount * steps) / med))),
                ("msPerStep", JSONNode.rounded(med / Double(steps) * 1000, 3)),
                ("gpuPassMsPerStep", split),
            ]
        }
    }

    /// Median ms per frame of `frames` frames (one step + render + present each).
    static func frameMs(_ r: Rig, _ p: PresetParams, repeats: Int) -> Double {
        let b = r.backend
        var image = RGBAImage(width: b.outputWidth, height: b.outputHeight)
        func one() {
            b.step(p, count: 1)
            _ = b.render(params: p, brightness: 1, into: &image)
            present(r)
        }
        one()
        sync(b)
        var times: [Double] = []
        for _ in 0..<repeats {
            times.append(timeSeconds {
                for _ in 0..<framesPerRepeat { one() }
                sync(b)
            } / Double(framesPerRepeat))
        }
        return median(times) * 1000
    }

    /// Draws the backend's picture into the context's window and swaps (GPU: timed as pass "present").
    static func present(_ r: Rig) {
        let b = r.backend
        guard let presenter = r.presenter, let tex = b.pictureTexture, let ctx = r.context else { return }
        func draw() {
            let d = ctx.window.drawableSize
            presenter.draw(texture: tex, size: (b.outputWidth, b.outputHeight), viewport: (0, 0, d.width, d.height), drawable: d)
            ctx.window.swap()
        }
        if let gl = b as? GLBackend { gl.timePass("present", draw) } else { draw() }
    }

    static func frame(_ name: String, agents: Int, _ w: Int, _ h: Int) -> BenchScenario {
        BenchScenario(name: name, summary: "one step + all-effects render + present, \(w)x\(h), \(agents / 1000)k agents (--backend)") { o in
            var p = try PresetSource.benchSetup("all-effects").params
            p[.agents] = Double(o.agents ?? agents)
            let field = o.size ?? (w, h)
            let r = try rig(o, field: field, params: p)
            r.backend.step(p, count: RenderBench.warmupSteps)
            let ms = frameMs(r, p, repeats: o.repeats)
            // One more frame for the pass split (timer queries of that frame,
            // the present included; the span minus the passes is GPU idle time).
            var image = RGBAImage(width: field.0, height: field.1)
            r.backend.step(p, count: 1)
            _ = r.backend.render(params: p, brightness: 1, into: &image)
            present(r)
            let split = passes(r.backend, frames: 1)
            let span = (r.backend as? GLBackend)?.passSpanMs.map { [("gpuFrameSpanMs", JSONNode.rounded($0, 4))] } ?? []
            return [("agents", .int(r.backend.agentCount)), ("width", .int(field.0)), ("height", .int(field.1)),
                    ("threads", .int(o.threads)), ("framesPerRepeat", .int(framesPerRepeat)), ("repeats", .int(o.repeats))]
                + describe(r) + [
                    ("msPerFrame", JSONNode.rounded(ms, 3)), ("framesPerSecond", JSONNode.rounded(1000 / ms, 1)),
                    ("gpuPassMs", split),
                ] + span
        }
    }

    static func largest(_ o: BenchOptions) throws -> [(String, JSONNode)] {
        var p = try PresetSource.benchSetup("all-effects").params
        let field = o.size ?? (3840, 2160)
        var n = o.agents ?? 4_000_000
        p[.agents] = Double(min(n, 8_000_000))
        let r = try rig(o, field: field, params: p)
        let limit = r.backend.maxAgents
        var tried: [(String, JSONNode)] = []
        func fps(_ count: Int) -> Double {
            var q = p
            q[.agents] = Double(count)
            r.backend.step(q, count: 20)
            let ms = frameMs(r, q, repeats: max(1, min(o.repeats, 3)))
            tried.append((String(count), JSONNode.rounded(1000 / ms, 1)))
            return 1000 / ms
        }
        var good = 0, bad = 0
        while n <= limit {
            if fps(n) >= 60 { good = n; n *= 2 } else { bad = n; break }
        }
        if bad == 0 { bad = min(n, limit) }
        // Bisection to 5 % between the last count that held and the first that did not.
        while good > 0, Double(bad - good) > 0.05 * Double(good) {
            let mid = (good + bad) / 2
            if fps(mid) >= 60 { good = mid } else { bad = mid }
        }
        return [("width", .int(field.0)), ("height", .int(field.1)), ("threads", .int(o.threads))] + describe(r) + [
            ("largestAgentsAt60fps", .int(good)), ("agentLimit", .int(limit)), ("fpsByAgents", .object(tried)),
        ]
    }
}
