/// The CPU engine behind the backend interface: `Simulation` and `Renderer`
/// unchanged, so frames stay bit-identical to the engine's own results.
///
/// Thread safety: one owner thread (work runs on the engine's worker threads).
public final class CPUBackend: EngineBackend {
    /// The simulation (exposed for the engine's tests and benches).
    public let simulation: Simulation
    private var renderer: Renderer

    /// The most agents the CPU engine takes.
    public static let agentLimit = 8_000_000

    /// A `field`-sized simulation seeded with `seed`, rendering at `output` size.
    /// An agent count over `agentLimit` is cut to it before anything is allocated.
    public init(field: (width: Int, height: Int), output: (width: Int, height: Int), params: PresetParams,
                seed: UInt64, threads: Int = Simulation.defaultThreads) {
        var p = params
        p[.agents] = min(p[.agents], Double(Self.agentLimit))
        simulation = Simulation(width: field.width, height: field.height, params: p, seed: seed, threads: threads)
        renderer = Renderer(width: output.width, height: output.height, threads: threads)
    }

    public var kind: BackendKind { .cpu }
    public var rendererName: String { "cpu (\(simulation.threads) threads)" }
    public var fieldWidth: Int { simulation.width }
    public var fieldHeight: Int { simulation.height }
    public var threads: Int { simulation.threads }
    public var maxAgents: Int { Self.agentLimit }
    public var speciesCounts: [Int] { simulation.speciesCounts }
    public var stepIndex: Int { simulation.stepIndex }
    public var outputWidth: Int { renderer.width }
    public var outputHeight: Int { renderer.height }
    public var pictureTexture: UInt32? { nil }

    public func reset(seed: UInt64, params: PresetParams) {
        simulation.reset(seed: seed, params: params)
        renderer.resetHistory()
    }

    public func step(_ params: PresetParams, count: Int) {
        simulation.step(params, count: count)
    }

    public func setStepHook(_ hook: (() -> (() -> Void)?)?) { simulation.betweenChunks = hook }

    public func setOutputSize(width: Int, height: Int) {
        guard width != renderer.width || height != renderer.height else { return }
        renderer = Renderer(width: width, height: height, threads: simulation.threads)
    }

    public func resetHistory() { renderer.resetHistory() }

    public func render(params: PresetParams, brightness: Double, into image: inout RGBAImage) -> Bool {
        renderer.render(sim: simulation, params: params, into: &image)
        image.scaleBrightness(brightness)
        return true
    }

    public func readPicture(into image: inout RGBAImage) {}

    public var passTimes: [PassTime] {
        let t = renderer.timings
        return [PassTime(name: "composite", ms: t.composite * 1000), PassTime(name: "bloom", ms: t.bloom * 1000),
                PassTime(name: "finish", ms: t.finish * 1000)]
    }
}
