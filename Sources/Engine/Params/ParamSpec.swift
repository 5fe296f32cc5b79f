/// How a parameter is mapped to the 0…1 space that modulation, randomize and
/// morph work in.
public enum ModulationScale: String, Sendable, Codable, CaseIterable {
    /// Evenly spaced in the raw value.
    case linear
    /// Evenly spaced in log(value); the range's lower end must be > 0.
    case log
    /// For a "fraction kept per step" in 0…1: evenly spaced in the log of the
    /// half-life it implies (0.5 → 1 step, 0.99 → 69 steps), so 0.95→0.99 is
    /// as big a move as 0.5→0.95 perceptually is.
    case logHalfLife
}

/// The panel a parameter lives in.
public enum ParamSection: String, Sendable, Codable, CaseIterable {
    case global, species, matrix, pheromone, dynamics, effects, render, spawn

    /// Human title of the section.
    public var title: String {
        switch self {
        case .global: "Global"
        case .species: "Species"
        case .matrix: "Interaction matrix"
        case .pheromone: "Pheromone"
        case .dynamics: "Dynamics"
        case .effects: "Effects"
        case .render: "Render"
        case .spawn: "Spawn"
        }
    }
}

/// What kind of value a parameter holds.
public enum ParamKind: String, Sendable, Codable {
    case scalar, choice, color
}

/// The description of one scalar parameter: its stable id, range, default and
/// help. Ids and ranges never change once shipped (JSON files and route depths
/// refer to them).
public struct ParamSpec: Sendable, Hashable {
    /// Stable dotted id, e.g. `species.1.moveSpeed` (0-based indices).
    public let id: String
    /// Short label for sliders (species number not included).
    public let label: String
    public let section: ParamSection
    public let min: Double
    public let max: Double
    public let defaultValue: Double
    /// Whole numbers only.
    public let integer: Bool
    /// Changing it respawns agents (cannot be a route target).
    public let respawn: Bool
    public let scale: ModulationScale
    /// Unit shown after the value ("px", "°", "steps"), may be empty.
    public let unit: String
    /// What the parameter does and how the picture changes when it goes up or down.
    public let help: String
    /// Species index for per-species parameters, else nil.
    public let species: Int?

    /// The range width (max − min).
    public var span: Double { max - min }

    /// Whether a route may modulate it (not respawn parameters, not sim speed).
    public var isModulatable: Bool { !respawn && id != "global.simSpeed" }

    /// Clamps to the range, rounds integers; NaN becomes the default.
    public func clamp(_ v: Double) -> Double {
        guard v.isFinite else {
            if v == .infinity { return max }
            if v == -.infinity { return min }
            return defaultValue
        }
        let c = Swift.min(Swift.max(v, min), max)
        return integer ? c.rounded() : c
    }

    /// Maps a value in the range to 0…1 on this parameter's scale.
    public func to01(_ value: Double) -> Double {
        let v = Swift.min(Swift.max(value.isFinite ? value : defaultValue, min), max)
        switch scale {
        case .linear:
            return span > 0 ? (v - min) / span : 0
        case .log:
            return Foundation_log(v / min) / Foundation_log(max / min)
        case .logHalfLife:
            let lo = Self.halfLife(min), hi = Self.halfLife(max), h = Self.halfLife(v)
            return (Foundation_log(h) - Foundation_log(lo)) / (Foundation_log(hi) - Foundation_log(lo))
        }
    }

    /// Maps 0…1 (clamped) back to the range on this parameter's scale (not rounded).
    public func from01(_ u: Double) -> Double {
        let t = u.isFinite ? Swift.min(Swift.max(u, 0), 1) : 0
        if t <= 0 { return min }
        if t >= 1 { return max }
        switch scale {
        case .linear:
            return min + t * span
        case .log:
            return min * Foundation_exp(t * Foundation_log(max / min))
        case .logHalfLife:
            let lo = Foundation_log(Self.halfLife(min)), hi = Foundation_log(Self.halfLife(max))
            let h = Foundation_exp(lo + t * (hi - lo))
            return Swift.min(Swift.max(Foundation_pow(0.5, 1 / h), min), max)
        }
    }

    /// Half-life in steps of a per-step keep fraction, bounded to 0.05…1e6.
    static func halfLife(_ keep: Double) -> Double {
        if keep <= 1e-9 { return 0.05 }
        if keep >= 1 { return 1e6 }
        return Swift.min(Swift.max(Foundation_log(0.5) / Foundation_log(keep), 0.05), 1e6)
    }
}
