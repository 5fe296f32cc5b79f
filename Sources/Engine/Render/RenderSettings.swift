/// The per-frame constants of the render passes, derived once from the
/// parameters: colours in the working space, gains, and which effects are on.
/// An effect at its neutral value is switched off entirely (not computed as a
/// no-op), so a neutral chain is exactly the plain composite.
public struct RenderSettings: Sendable {
    public var blend: BlendMode
    /// Background, display values.
    public var background: SIMD3<Float>
    /// Species colours: linear light (additive) or display values (paint).
    public var colors: [SIMD3<Float>]
    /// Trail value → light (exposure × `Renderer.trailScale`).
    public var trailGain: Float
    /// Head count → light (exposure × head glow × `Renderer.glowScale`); 0 = off.
    public var glowGain: Float
    /// Mirror axes (0 = off).
    public var kaleidoscope: Int
    /// Share of the previous frame (0 = off).
    public var feedback: Float
    public var bloomThreshold: Float
    /// Bloom strength (0 = off).
    public var bloom: Float
    /// Vignette strength (0 = off).
    public var vignette: Float
    public var saturation: Float
    public var contrast: Float

    /// The scalar parameters the render chain reads (`init`); every other
    /// parameter moves the simulation.
    public static let parameterKeys: [ParamKey] = [.exposure, .headGlow, .kaleidoscope, .feedback, .bloomThreshold,
                                                   .bloom, .vignette, .saturation, .contrast]

    /// The settings `p` asks for (every effect as the parameters say).
    public init(_ p: PresetParams) {
        blend = p.blendMode
        background = ColorSpace.display(p.background)
        colors = (0..<ParamKey.speciesCount).map {
            p.blendMode == .additive ? ColorSpace.linear(p.color(species: $0)) : ColorSpace.display(p.color(species: $0))
        }
        let exposure = p.float(.exposure)
        trailGain = exposure * Renderer.trailScale
        glowGain = exposure * Renderer.glowScale * p.float(.headGlow)
        kaleidoscope = Int(p[.kaleidoscope])
        feedback = p.float(.feedback)
        bloomThreshold = p.float(.bloomThreshold)
        bloom = p.float(.bloom)
        vignette = p.float(.vignette)
        saturation = p.float(.saturation)
        contrast = p.float(.contrast)
    }

    public var glowOn: Bool { glowGain > 0 }
    public var bloomOn: Bool { bloom > 0 }
    public var vignetteOn: Bool { vignette > 0 }
    public var saturationOn: Bool { saturation != 1 }
    public var contrastOn: Bool { contrast != 1 }
}

/// Which parts of the chain run; all of them normally. Tests and the bench
/// switch parts off to compare against the plain composite and to split the
/// cost per effect.
struct RenderStages: OptionSet, Sendable {
    let rawValue: Int
    static let headGlow = RenderStages(rawValue: 1 << 0)
    static let kaleidoscope = RenderStages(rawValue: 1 << 1)
    static let feedback = RenderStages(rawValue: 1 << 2)
    static let bloom = RenderStages(rawValue: 1 << 3)
    static let vignette = RenderStages(rawValue: 1 << 4)
    static let grade = RenderStages(rawValue: 1 << 5)
    /// Every effect.
    static let all: RenderStages = [.headGlow, .kaleidoscope, .feedback, .bloom, .vignette, .grade]
    /// Composite + tone map only.
    static let compositeOnly: RenderStages = []

    /// `settings` with the effects outside this set turned to neutral.
    func apply(_ s: RenderSettings) -> RenderSettings {
        var s = s
        if !contains(.headGlow) { s.glowGain = 0 }
        if !contains(.kaleidoscope) { s.kaleidoscope = 0 }
        if !contains(.feedback) { s.feedback = 0 }
        if !contains(.bloom) { s.bloom = 0 }
        if !contains(.vignette) { s.vignette = 0 }
        if !contains(.grade) { s.saturation = 1; s.contrast = 1 }
        return s
    }
}

/// Time spent in each pass of the last rendered frame, in seconds. The passes
/// are fused for speed, so effects that share a pass share its time; the bench
/// also reports each effect's marginal cost (chain with vs without it).
public struct RenderTimings: Sendable, Hashable {
    /// Head glow: clearing and stamping the per-worker head-count planes.
    public var headGlow: Double = 0
    /// Building a kaleidoscope or resampling map (only when it changes).
    public var maps: Double = 0
    /// Sampling the field (scaling, kaleidoscope), colour composite, exposure,
    /// tone map, feedback and the bloom bright-pass at ¼ resolution.
    public var composite: Double = 0
    /// Bloom pyramid: downsample, blur and combine (¼, ⅛, ¹⁄₁₆ resolution).
    public var bloom: Double = 0
    /// Bloom upsample, vignette, saturation, contrast, encode and pack RGBA8.
    public var finish: Double = 0
    /// The whole frame.
    public var total: Double = 0

    public init() {}
}
