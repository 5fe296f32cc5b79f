import Engine
import Storage

/// What a route follows: one analysis band (or `full`, broadband), or the
/// beat tracker: `beat` (a pulse on each beat: 1, decaying in ≈ 0.1 s),
/// `bar` (the same on each downbeat, 4/4) and `phase` (a 0…1 ramp through
/// each beat). The band sources follow the route's mode; the beat sources
/// ignore it.
public enum RouteSource: String, CaseIterable, Sendable, Codable, Hashable {
    case sub, bass, lowMid, mid, highMid, presence, brilliance, full, beat, bar, phase

    /// The band source of an analysis band.
    public init(_ band: AudioSourceID) {
        switch band {
        case .sub: self = .sub
        case .bass: self = .bass
        case .lowMid: self = .lowMid
        case .mid: self = .mid
        case .highMid: self = .highMid
        case .presence: self = .presence
        case .brilliance: self = .brilliance
        case .full: self = .full
        }
    }

    /// The analysis band, for band sources (a switch, not a string look-up:
    /// the modulator asks for it per route per frame).
    public var band: AudioSourceID? {
        switch self {
        case .sub: .sub
        case .bass: .bass
        case .lowMid: .lowMid
        case .mid: .mid
        case .highMid: .highMid
        case .presence: .presence
        case .brilliance: .brilliance
        case .full: .full
        case .beat, .bar, .phase: nil
        }
    }

    /// This source's signal (0…1) in one frame's features.
    public func signal(_ f: AudioFeatures, mode: RouteMode) -> Float {
        switch self {
        case .beat: return f.beat.beatPulse
        case .bar: return f.beat.barPulse
        case .phase: return f.beat.phase
        default:
            let s = f[band ?? .full]
            return mode == .level ? s.level : s.transient
        }
    }
}

/// Which signal of a source a route follows.
public enum RouteMode: String, CaseIterable, Sendable, Codable, Hashable {
    /// The band's gated, enveloped level (0…1): a sustained push.
    case level
    /// The transient signal: jumps on an onset, then decays (hits, kicks).
    case transient
}

/// What a route modulates: one scalar parameter, or the same per-species
/// parameter of every species (`species.*.moveSpeed`). Only modulatable
/// parameters can be targets (`ParamSpec.isModulatable`: no respawn
/// parameters, not sim speed); construction validates.
public enum RouteTarget: Sendable, Hashable, CustomStringConvertible {
    /// One parameter.
    case parameter(ParamKey)
    /// A per-species parameter of all species.
    case allSpecies(SpeciesField)

    /// Parses a target id, or nil with `reason` explaining why it cannot be a target.
    public static func parse(_ id: String) -> Result<RouteTarget, RouteTargetError> {
        if let key = ParamRegistry.key(id: id) {
            let spec = key.spec
            guard spec.isModulatable else { return .failure(.notModulatable(id: id, respawn: spec.respawn)) }
            return .success(.parameter(key))
        }
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0] == "species", parts[1] == "*" {
            guard let field = SpeciesField.allCases.first(where: { $0.name == parts[2] }) else {
                if parts[2] == "color" { return .failure(.notScalar(id: id)) }
                return .failure(.unknown(id: id))
            }
            let spec = ParamKey.species(0, field).spec
            guard spec.isModulatable else { return .failure(.notModulatable(id: id, respawn: spec.respawn)) }
            return .success(.allSpecies(field))
        }
        if ParamRegistry.others.contains(where: { $0.id == id }) || PresetParams.isColorID(id) {
            return .failure(.notScalar(id: id))
        }
        return .failure(.unknown(id: id))
    }

    /// A validated target from an id, or nil.
    public init?(id: String) {
        guard case .success(let t) = Self.parse(id) else { return nil }
        self = t
    }

    /// The stable id (`effects.bloom`, `species.*.moveSpeed`).
    public var id: String {
        switch self {
        case .parameter(let k): k.id
        case .allSpecies(let f): "species.*.\(f.name)"
        }
    }

    public var description: String { id }

    /// The parameters it moves.
    public var keys: [ParamKey] {
        switch self {
        case .parameter(let k): [k]
        case .allSpecies(let f): (0..<ParamKey.speciesCount).map { ParamKey.species($0, f) }
        }
    }

    /// Every valid target id: wildcards first, then single parameters in registry order.
    public static var allIDs: [String] {
        SpeciesField.allCases.compactMap { RouteTarget(id: "species.*.\($0.name)")?.id }
            + ParamRegistry.scalars.filter(\.isModulatable).map(\.id)
    }
}

/// Why a string is not a valid route target.
public enum RouteTargetError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknown(id: String)
    case notModulatable(id: String, respawn: Bool)
    case notScalar(id: String)

    public var description: String {
        switch self {
        case .unknown(let id):
            "unknown parameter id '\(id)'"
        case .notModulatable(let id, let respawn):
            respawn
                ? "'\(id)' cannot be a route target: changing it respawns agents"
                : "'\(id)' cannot be a route target: sim speed is not modulated"
        case .notScalar(let id):
            "'\(id)' cannot be a route target: only numeric parameters can be modulated"
        }
    }
}

extension PresetParams {
    /// Whether `id` is a `species.N.color` id.
    static func isColorID(_ id: String) -> Bool {
        let p = id.split(separator: ".")
        return p.count == 3 && p[0] == "species" && p[2] == "color"
    }
}

/// One mapping from an audio source to a parameter: effective value =
/// from01(to01(base) + depth × shaped signal), summed over routes and clamped.
///
/// Shaping, in order: the source's `level` or `transient` (0…1) → one-pole
/// smoothing with time constant `smoothing` ms → `signal ^ curve` → `invert`
/// (1 − signal). `muted` (saved) silences the route without deleting it;
/// `solo` is a live audition aid of the editor and is never saved.
public struct Route: Sendable, Hashable {
    /// Allowed depth, in the target's 0…1 space (2 = twice its whole range).
    public static let depthRange: ClosedRange<Double> = -2...2
    /// Allowed smoothing time constant, ms.
    public static let smoothingRange: ClosedRange<Double> = 0...10_000
    /// Allowed curve exponents.
    public static let curveRange: ClosedRange<Double> = 0.1...10

    public var source: RouteSource
    public var target: RouteTarget
    public var mode: RouteMode
    /// −2…+2; positive pushes the target up on loud sound.
    public var depth: Double
    /// One-pole smoothing time constant in ms (63 % of a step); nil or 0 = none.
    public var smoothing: Double?
    /// Exponent on the signal: > 1 reacts only to loud parts, < 1 to quiet ones.
    public var curve: Double
    /// Uses 1 − signal (pushes in silence, relaxes when loud).
    public var invert: Bool
    /// Silenced but kept (saved in configs).
    public var muted: Bool
    /// When any route is solo, only solo routes play (not saved).
    public var solo: Bool
    /// JSON members this version does not know, kept so a re-save writes them back.
    public var extraMembers: [JSONMember]

    public init(source: RouteSource, target: RouteTarget, mode: RouteMode = .level, depth: Double,
                smoothing: Double? = nil, curve: Double = 1, invert: Bool = false, muted: Bool = false,
                solo: Bool = false, extraMembers: [JSONMember] = []) {
        self.source = source
        self.target = target
        self.mode = mode
        self.depth = Self.clamp(depth, Self.depthRange, nan: 0)
        self.smoothing = smoothing.map { Self.clamp($0, Self.smoothingRange, nan: 0) }
        self.curve = Self.clamp(curve, Self.curveRange, nan: 1)
        self.invert = invert
        self.muted = muted
        self.solo = solo
        self.extraMembers = extraMembers
    }

    static func clamp(_ v: Double, _ r: ClosedRange<Double>, nan: Double) -> Double {
        v.isNaN ? nan : Swift.min(Swift.max(v, r.lowerBound), r.upperBound)
    }
}
