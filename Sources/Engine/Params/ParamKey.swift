/// A per-species scalar parameter.
public enum SpeciesField: Int, Sendable, CaseIterable {
    case population, sensorAngle, sensorDistance, turnSpeed, moveSpeed, deposit

    /// The id suffix, e.g. `moveSpeed`.
    public var name: String {
        switch self {
        case .population: "population"
        case .sensorAngle: "sensorAngle"
        case .sensorDistance: "sensorDistance"
        case .turnSpeed: "turnSpeed"
        case .moveSpeed: "moveSpeed"
        case .deposit: "deposit"
        }
    }
}

/// Typed index of a scalar parameter in `ParamRegistry.scalars`.
public struct ParamKey: Hashable, Sendable, Comparable {
    public let index: Int
    public init(index: Int) { self.index = index }
    public static func < (a: ParamKey, b: ParamKey) -> Bool { a.index < b.index }

    /// Number of species.
    public static let speciesCount = 3

    public static let agents = ParamKey(index: 0)
    public static let exposure = ParamKey(index: 1)
    public static let simSpeed = ParamKey(index: 2)
    /// Per-species parameter `f` of species `s` (0-based).
    public static func species(_ s: Int, _ f: SpeciesField) -> ParamKey {
        precondition((0..<speciesCount).contains(s))
        return ParamKey(index: 3 + s * SpeciesField.allCases.count + f.rawValue)
    }
    /// Interaction matrix cell: row species `r`'s response to column species `c`'s trail.
    public static func matrix(_ r: Int, _ c: Int) -> ParamKey {
        precondition((0..<speciesCount).contains(r) && (0..<speciesCount).contains(c))
        return ParamKey(index: 21 + r * speciesCount + c)
    }
    public static let decay = ParamKey(index: 30)
    public static let diffusion = ParamKey(index: 31)
    public static let fade = ParamKey(index: 32)
    public static let trailCap = ParamKey(index: 33)
    public static let chaosInterval = ParamKey(index: 34)
    public static let chaosStrength = ParamKey(index: 35)
    public static let rhythm = ParamKey(index: 36)
    public static let headGlow = ParamKey(index: 37)
    public static let kaleidoscope = ParamKey(index: 38)
    public static let feedback = ParamKey(index: 39)
    public static let bloomThreshold = ParamKey(index: 40)
    public static let bloom = ParamKey(index: 41)
    public static let vignette = ParamKey(index: 42)
    public static let saturation = ParamKey(index: 43)
    public static let contrast = ParamKey(index: 44)

    /// Number of scalar parameters.
    public static let count = 45

    /// The parameter's spec.
    public var spec: ParamSpec { ParamRegistry.scalars[index] }
    /// The parameter's stable id.
    public var id: String { spec.id }
}
