/// The complete parameter set of a look: 45 scalars plus spawn pattern, blend
/// mode, background and species colours. A value type; `Codable` as a flat JSON
/// object keyed by stable parameter id, which round-trips exactly.
public struct PresetParams: Sendable, Hashable {
    /// Scalar values in `ParamKey` index order; always finite and in range.
    public private(set) var scalars: [Double]
    public var spawnPattern: SpawnPattern
    public var blendMode: BlendMode
    public var background: RGBColor
    /// One colour per species.
    public private(set) var speciesColors: [RGBColor]

    /// Default species colours: cyan, magenta, amber.
    public static let defaultColors: [RGBColor] = [
        RGBColor(r: 0x2e, g: 0xe6, b: 0xd6), RGBColor(r: 0xff, g: 0x3d, b: 0x9a), RGBColor(r: 0xff, g: 0xb3, b: 0x2e),
    ]

    /// Every parameter at its registry default.
    public init() {
        scalars = ParamRegistry.scalars.map(\.defaultValue)
        spawnPattern = .random
        blendMode = .additive
        background = RGBColor(r: 0, g: 0, b: 0)
        speciesColors = Self.defaultColors
    }

    /// The registry defaults.
    public static let defaults = PresetParams()

    /// A scalar value. Setting clamps to the range (integers rounded); NaN is
    /// ignored (the value stays), ±infinity clamps to the ends.
    public subscript(_ key: ParamKey) -> Double {
        get { scalars[key.index] }
        set {
            if newValue.isNaN { return }
            scalars[key.index] = key.spec.clamp(newValue)
        }
    }

    /// A scalar value by stable id (nil for unknown ids).
    public subscript(id id: String) -> Double? {
        get { ParamRegistry.key(id: id).map { self[$0] } }
        set {
            if let k = ParamRegistry.key(id: id), let v = newValue { self[k] = v }
        }
    }

    /// Species colour `s` (0-based).
    public func color(species s: Int) -> RGBColor { speciesColors[s] }

    /// Sets species colour `s` (0-based).
    public mutating func setColor(_ c: RGBColor, species s: Int) { speciesColors[s] = c }

    /// A float view of a scalar for hot loops.
    @inline(__always) public func float(_ key: ParamKey) -> Float { Float(scalars[key.index]) }

    /// Agent count per species from `global.agents` and the population weights
    /// (all weights zero ⇒ equal split). Sums exactly to the agent count.
    public var speciesCounts: [Int] {
        let total = Int(self[.agents])
        let n = ParamKey.speciesCount
        var w = (0..<n).map { self[.species($0, .population)] }
        let sum = w.reduce(0, +)
        if sum <= 0 { w = Array(repeating: 1, count: n) }
        let wsum = w.reduce(0, +)
        var counts = w.map { Int((Double(total) * $0 / wsum).rounded(.down)) }
        // Hand the remainder to the heaviest weights first (deterministic).
        var rest = total - counts.reduce(0, +)
        let order = (0..<n).sorted { w[$0] != w[$1] ? w[$0] > w[$1] : $0 < $1 }
        var i = 0
        while rest > 0 {
            if w[order[i % n]] > 0 { counts[order[i % n]] += 1; rest -= 1 }
            i += 1
        }
        return counts
    }
}

extension PresetParams {
    /// Species index of a `species.N.color` id.
    static func colorSpecies(_ id: String) -> Int? {
        let p = id.split(separator: ".")
        guard p.count == 3, p[0] == "species", p[2] == "color", let s = Int(p[1]),
              (0..<ParamKey.speciesCount).contains(s) else { return nil }
        return s
    }
}
