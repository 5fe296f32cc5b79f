import Engine

/// Randomize, mutate and blend looks in each parameter's 0…1 space (the
/// registry's linear/log scales), leaving locked ids alone.
public enum LookGenerator {
    /// Parameters randomize and mutate leave alone: they set the cost and pace,
    /// not the look.
    public static let untouched: Set<String> = ["global.agents", "global.simSpeed"]

    /// Every unlocked scalar drawn uniformly in its 0…1 space; species colours
    /// get new hues at pleasant saturation; blend mode and spawn pattern stay.
    public static func randomized(_ p: PresetParams, seed: UInt64, locked: Set<String>) -> PresetParams {
        var rng = SeededRandom(state: seed)
        var out = p
        for (i, spec) in ParamRegistry.scalars.enumerated() where !locked.contains(spec.id) && !untouched.contains(spec.id) {
            out[ParamKey(index: i)] = spec.from01(rng.unit())
        }
        // Keep the look visible: exposure and deposit away from their dead ends.
        if !locked.contains("global.exposure") { out[.exposure] = ParamKey.exposure.spec.from01(0.45 + 0.3 * rng.unit()) }
        if !locked.contains("pheromone.decay") { out[.decay] = ParamKey.decay.spec.from01(0.55 + 0.4 * rng.unit()) }
        for s in 0..<ParamKey.speciesCount where !locked.contains("species.\(s).color") {
            out.setColor(hsv(rng.unit(), 0.55 + 0.4 * rng.unit(), 0.85 + 0.15 * rng.unit()), species: s)
        }
        return out
    }

    /// Each unlocked scalar moved by a uniform amount in ±`amount` of its 0…1 space.
    public static func mutated(_ p: PresetParams, amount: Double, seed: UInt64, locked: Set<String>) -> PresetParams {
        var rng = SeededRandom(state: seed)
        var out = p
        let a = min(max(amount.isFinite ? amount : 0, 0), 1)
        for (i, spec) in ParamRegistry.scalars.enumerated() where !locked.contains(spec.id) && !untouched.contains(spec.id) {
            let k = ParamKey(index: i)
            out[k] = spec.from01(spec.to01(p[k]) + (rng.unit() * 2 - 1) * a)
        }
        return out
    }

    /// `a` → `b` at t (0…1) in 0…1 space; colours in RGB; choices switch at ½.
    public static func blend(_ a: PresetParams, _ b: PresetParams, t: Double, locked: Set<String>) -> PresetParams {
        let t = min(max(t.isFinite ? t : 0, 0), 1)
        var out = a
        for (i, spec) in ParamRegistry.scalars.enumerated() where !locked.contains(spec.id) {
            let k = ParamKey(index: i)
            out[k] = t == 1 ? b[k] : spec.from01(spec.to01(a[k]) * (1 - t) + spec.to01(b[k]) * t)
        }
        func mix(_ x: RGBColor, _ y: RGBColor) -> RGBColor {
            func m(_ u: UInt8, _ v: UInt8) -> UInt8 { UInt8((Double(u) * (1 - t) + Double(v) * t).rounded()) }
            return RGBColor(r: m(x.r, y.r), g: m(x.g, y.g), b: m(x.b, y.b))
        }
        for s in 0..<ParamKey.speciesCount where !locked.contains("species.\(s).color") {
            out.setColor(mix(a.color(species: s), b.color(species: s)), species: s)
        }
        if !locked.contains("render.background") { out.background = mix(a.background, b.background) }
        if t >= 0.5 {
            if !locked.contains("render.blendMode") { out.blendMode = b.blendMode }
            if !locked.contains("spawn.pattern") { out.spawnPattern = b.spawnPattern }
        }
        return out
    }

    /// HSV (all 0…1) to an sRGB colour.
    public static func hsv(_ h: Double, _ s: Double, _ v: Double) -> RGBColor {
        let i = Int(h * 6) % 6, f = h * 6 - Double(Int(h * 6))
        let p = v * (1 - s), q = v * (1 - f * s), u = v * (1 - (1 - f) * s)
        let (r, g, b): (Double, Double, Double) = [(v, u, p), (q, v, p), (p, v, u), (p, q, v), (u, p, v), (v, p, q)][i]
        func c(_ x: Double) -> UInt8 { UInt8(min(max(x * 255, 0), 255).rounded()) }
        return RGBColor(r: c(r), g: c(g), b: c(b))
    }
}
