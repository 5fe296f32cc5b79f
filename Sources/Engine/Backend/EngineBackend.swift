/// Which engine computes the simulation and the post chain.
public enum BackendKind: String, Sendable, CaseIterable {
    /// The Swift engine on the CPU (`Simulation` + `Renderer`): the reference,
    /// deterministic for any thread count.
    case cpu
    /// OpenGL 4.3 compute shaders on the GPU.
    case gpu
}

/// Time of one pass of the last frame, in milliseconds (GPU: timer queries).
public struct PassTime: Sendable, Hashable {
    public var name: String
    public var ms: Double
    public init(name: String, ms: Double) {
        self.name = name
        self.ms = ms
    }
}

/// The engine behind the frame pipeline: the simulation (agents, sensing,
/// turning, moving, deposit, diffusion/decay, respawn, spawn patterns, the
/// species matrix) and the post chain (composite, head glow, feedback,
/// kaleidoscope, bloom, vignette, saturation, contrast, blend modes).
/// Parameters, presets, routes, the governor and the recorder talk to this
/// interface only and never learn which backend runs.
///
/// Thread safety: one owner thread (a GPU backend: the thread whose GL
/// context is current).
public protocol EngineBackend: AnyObject {
    /// Which backend this is.
    var kind: BackendKind { get }
    /// What computes the frames: "cpu (N threads)" or the GL renderer string.
    var rendererName: String { get }
    /// Field width in pixels.
    var fieldWidth: Int { get }
    /// Field height in pixels.
    var fieldHeight: Int { get }
    /// Worker threads of the CPU work.
    var threads: Int { get }
    /// The most agents this backend takes (larger counts are cut to it).
    var maxAgents: Int { get }
    /// Agents per species now.
    var speciesCounts: [Int] { get }
    /// Steps simulated since the last reset.
    var stepIndex: Int { get }
    /// Output (render) size.
    var outputWidth: Int { get }
    var outputHeight: Int { get }

    /// Clears the field and respawns every agent from `seed` with `params`.
    func reset(seed: UInt64, params: PresetParams)
    /// Advances `count` steps with `params` (typically modulated); a change of
    /// agent count or populations respawns only the agents that must change.
    func step(_ params: PresetParams, count: Int)
    /// Changes the output size (the feedback history starts afresh).
    func setOutputSize(width: Int, height: Int)
    /// Forgets the previous frame: the next frame's feedback starts afresh.
    func resetHistory()
    /// Renders the current field with `params` at output `brightness` (0…1).
    /// Returns true when the picture was written into `image` (CPU); false
    /// when it stays in `pictureTexture` (GPU), to be read by `readPicture`.
    func render(params: PresetParams, brightness: Double, into image: inout RGBAImage) -> Bool
    /// Copies the last rendered picture into `image` (GPU: a read-back).
    func readPicture(into image: inout RGBAImage)
    /// The GL texture (RGBA8, row 0 at the top) holding the last picture,
    /// or nil when the picture lives on the CPU.
    var pictureTexture: UInt32? { get }
    /// Time per pass of the last step and frame (ms), in pass order.
    var passTimes: [PassTime] { get }
    /// Sets what the owner thread calls between the chunks of work it runs
    /// during `step` (nil: nothing); work the hook returns runs at once, the
    /// other workers held meanwhile. A backend whose step does not occupy the
    /// owner thread (the GPU's) never calls it.
    func setStepHook(_ hook: (() -> (() -> Void)?)?)
}

extension EngineBackend {
    public func setStepHook(_ hook: (() -> (() -> Void)?)?) {}

    /// Total agents.
    public var agentCount: Int { speciesCounts.reduce(0, +) }

    /// `params` with the agent count cut to `maxAgents`.
    public func limited(_ params: PresetParams) -> PresetParams {
        guard params[.agents] > Double(maxAgents) else { return params }
        var p = params
        p[.agents] = Double(maxAgents)
        return p
    }
}
