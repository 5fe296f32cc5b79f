import AudioReactive
import Engine

/// The one frame pipeline of DESIGN.md, shared by the live window, the
/// headless host and offline renders (`render --audio`):
///
///     audio features → modulation (routes) → governor → simulation steps
///       → render → output brightness → outputs (window, recorder, files…)
///
/// Only the drivers differ: each has its own `FrameClock` (display, fixed
/// schedule, offline frame rule) and its own feature source and outputs.
/// Base parameters come from the driver (the model); the pipeline never
/// changes them. Deterministic for a given sequence of inputs (any thread
/// count): an offline render and a test that feeds the same features get the
/// same frames. Not thread-safe: one driver thread owns it.
public final class FramePipeline {
    /// The engine that simulates and renders (CPU or GPU; its field size is
    /// fixed for the pipeline's life). Nothing else here knows which it is.
    public let backend: any EngineBackend
    /// Base parameters + features + routes → modulated parameters.
    public var modulator = Modulator()
    /// Lowers agents, resolution and effects when frames run over budget
    /// (off unless the driver enables it: offline renders never adapt).
    public var governor = Governor()
    /// Steps per frame; nil = the effective sim speed. Fractions carry over.
    public var stepsPerFrame: Double?
    /// The late latch: called by `render` just before the post chain, it
    /// returns the picture's features, every hop since the last picture's
    /// latch, those that arrived while the simulation stepped included (nil:
    /// no late latch this frame). The parameters the render chain
    /// reads (`RenderSettings.parameterKeys`: exposure, head glow, bloom,
    /// colour grading, kaleidoscope…) are then modulated from them, so a hit
    /// heard while the simulation stepped still reaches this frame's
    /// picture; the simulation keeps the frame-start latch. Live drivers set
    /// it; offline renders do not (their frames stay deterministic).
    public var lateFeatures: (() -> AudioFeatures?)?
    /// The last frame's picture (read back from the GPU only when asked).
    public let picture: FramePicture
    /// The last frame's effective parameters (modulated, governed).
    public private(set) var effective: PresetParams
    /// Frames run so far.
    public private(set) var frameCount = 0
    /// The parameters and output brightness of the picture rendered last (nil before the first).
    public private(set) var pictureParams: (params: PresetParams, brightness: Double)?
    /// The last frame's edited look (the base a reaction is modulated from).
    private var lastBase: PresetParams?
    private var stepCredit = StepCredit()
    private var lastSteps = 0
    private var outputs: [any FrameOutput] = []

    /// A pipeline with a `field` simulation seeded with `seed`, rendering at
    /// `output` size. The governor starts disabled.
    public convenience init(field: (width: Int, height: Int), output: (width: Int, height: Int), params: PresetParams,
                            seed: UInt64, threads: Int = Simulation.defaultThreads) {
        self.init(backend: CPUBackend(field: field, output: output, params: params, seed: seed, threads: threads),
                  params: params)
    }

    /// A pipeline driving `backend` (already seeded); the governor starts disabled.
    public init(backend: any EngineBackend, params: PresetParams) {
        self.backend = backend
        picture = FramePicture(backend: backend)
        effective = params
        governor.enabled = false
    }

    /// The render size in use.
    public var outputSize: (width: Int, height: Int) { (backend.outputWidth, backend.outputHeight) }
    /// Worker threads of the engine's CPU work.
    public var threads: Int { backend.threads }
    /// The last frame's picture on the CPU (a read-back on the GPU backend).
    public var image: RGBAImage { picture.image }

    /// Adds an output; outputs see every frame in the order they were added.
    public func add(_ output: any FrameOutput) { outputs.append(output) }

    /// Runs `steps` simulation steps with `params` before the first frame.
    public func warmUp(steps: Int, params: PresetParams) {
        if steps > 0 { backend.step(backend.limited(params), count: steps) }
    }

    /// Clears the field and respawns the agents (a preset load): the trail
    /// history of the renderer and the routes' smoothing start again.
    public func reseed(seed: UInt64, params: PresetParams) {
        backend.reset(seed: seed, params: backend.limited(params))
        modulator.reset()
    }

    /// One frame's inputs from the driver.
    public struct Input {
        /// The edited look (never changed by the pipeline).
        public var base: PresetParams
        /// This frame's audio features (the frame rule's result).
        public var features: AudioFeatures
        /// Output brightness 0…1 (auto-cycle fades, blackout).
        public var brightness = 1.0
        /// Render size; nil = keep the current one.
        public var outputSize: (width: Int, height: Int)?

        public init(base: PresetParams, features: AudioFeatures, brightness: Double = 1,
                    outputSize: (width: Int, height: Int)? = nil) {
            self.base = base
            self.features = features
            self.brightness = brightness
            self.outputSize = outputSize
        }
    }

    /// What one frame did, handed to the outputs.
    public struct Frame {
        /// The tick this frame was made for.
        public var tick: FrameTick
        /// The effective parameters the frame used.
        public var params: PresetParams
        /// Simulation steps taken this frame.
        public var steps: Int
        /// The governor's resolution factor (1: the full render size).
        public var resolutionFactor = 1.0
    }

    /// Runs one frame: modulation, governor, steps, render, brightness; then
    /// hands the picture to the outputs. Returns what it did. The picture is
    /// `image` (valid until the next frame).
    @discardableResult
    public func run(_ input: Input, tick: FrameTick) -> Frame {
        render(input, params: simulate(input))
        return deliver(tick: tick)
    }

    /// The simulation half of a frame (for drivers that time it apart from
    /// the render): modulation → governor → steps. Returns the effective
    /// parameters; call `render(_:params:)` next.
    public func simulate(_ input: Input) -> PresetParams {
        lastBase = input.base
        let p = backend.limited(governor.adjust(modulator.process(base: input.base, features: input.features)))
        effective = p
        lastSteps = stepCredit.steps(speed: stepsPerFrame ?? p[.simSpeed])
        backend.step(p, count: lastSteps)
        return p
    }

    /// The render half of a frame: the post chain at the input's size, then
    /// the output brightness.
    public func render(_ input: Input, params p: PresetParams) {
        if let size = input.outputSize { backend.setOutputSize(width: size.width, height: size.height) }
        var q = p
        if let late = lateFeatures?() {
            let m = backend.limited(governor.adjust(modulator.process(base: input.base, features: late)))
            for k in RenderSettings.parameterKeys { q[k] = m[k] }
            effective = q
        }
        picture.render(params: q, brightness: input.brightness)
        pictureParams = (q, input.brightness)
    }

    /// How the picture rendered last would change with `features` (every hop
    /// since its latch), as a per-channel curve on its display values
    /// (`ReactionCurve`); nil unless its exposure would rise visibly. The
    /// routes' state is not advanced: the next frame modulates as if this
    /// was never asked. For the live window's hit reaction.
    public func reactionCurve(features: AudioFeatures) -> ReactionCurve? {
        guard let shown = pictureParams, let base = lastBase else { return nil }
        var preview = modulator
        let q = backend.limited(governor.adjust(preview.process(base: base, features: features)))
        return ReactionCurve(from: shown.params, to: q, brightness: shown.brightness)
    }

    /// Hands the current picture to the outputs (after `simulate` + `render`).
    @discardableResult
    public func deliver(tick: FrameTick) -> Frame {
        let frame = Frame(tick: tick, params: effective, steps: lastSteps, resolutionFactor: governor.resolutionFactor)
        frameCount += 1
        for o in outputs { o.show(frame, picture: picture) }
        return frame
    }
}

/// Something that receives every finished frame: the window, the recorder,
/// thumbnails and screenshots, a PNG or video file. Called on the
/// pipeline's thread, in the order the outputs were added; must not block
/// (hand slow work to a queue).
public protocol FrameOutput: AnyObject {
    /// The frame `frame` whose picture is `picture`. An output may draw into
    /// `picture.image` for the outputs after it (the window draws its panels
    /// last); touching `picture.image` reads a GPU picture back, so outputs
    /// that can use `picture.texture` should. Valid during the call only.
    func show(_ frame: FramePipeline.Frame, picture: FramePicture)
}
