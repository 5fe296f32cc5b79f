import Engine
import Storage

/// One parameter value by stable id: a scalar or one of the non-scalar
/// parameters. The unit of the `params` message; applied on the host through
/// the app's action layer (`action`).
public enum ParamAssignment: Equatable, Sendable {
    case scalar(ParamKey, Double)
    case spawnPattern(SpawnPattern)
    case blendMode(BlendMode)
    case background(RGBColor)
    case speciesColor(Int, RGBColor)

    /// The parameter's stable id (e.g. `global.exposure`, `species.1.color`).
    public var id: String {
        switch self {
        case .scalar(let k, _): k.id
        case .spawnPattern: "spawn.pattern"
        case .blendMode: "render.blendMode"
        case .background: "render.background"
        case .speciesColor(let s, _): "species.\(s).color"
        }
    }

    /// The value as JSON (a number, a choice name or `"#rrggbb"`).
    public var jsonValue: JSONNode {
        switch self {
        case .scalar(_, let v): .number(v)
        case .spawnPattern(let p): .string(p.rawValue)
        case .blendMode(let m): .string(m.rawValue)
        case .background(let c), .speciesColor(_, let c): .string(c.hex)
        }
    }

    /// The app action that makes this change.
    public var action: AppAction {
        switch self {
        case .scalar(let k, let v): .setParam(k, v)
        case .spawnPattern(let p): .setSpawnPattern(p)
        case .blendMode(let m): .setBlendMode(m)
        case .background(let c): .setBackground(c)
        case .speciesColor(let s, let c): .setSpeciesColor(s, c)
        }
    }

    /// Sets this value in `params` (scalars clamp as always).
    public func apply(to params: inout PresetParams) {
        switch self {
        case .scalar(let k, let v): params[k] = v
        case .spawnPattern(let p): params.spawnPattern = p
        case .blendMode(let m): params.blendMode = m
        case .background(let c): params.background = c
        case .speciesColor(let s, let c): params.setColor(c, species: s)
        }
    }

    /// Every value that differs between `a` and `b`, as `b`'s values, in registry order.
    public static func diff(from a: PresetParams, to b: PresetParams) -> [ParamAssignment] {
        var out: [ParamAssignment] = []
        for i in 0..<ParamKey.count where a.scalars[i] != b.scalars[i] {
            out.append(.scalar(ParamKey(index: i), b.scalars[i]))
        }
        if a.spawnPattern != b.spawnPattern { out.append(.spawnPattern(b.spawnPattern)) }
        if a.blendMode != b.blendMode { out.append(.blendMode(b.blendMode)) }
        if a.background != b.background { out.append(.background(b.background)) }
        for s in 0..<ParamKey.speciesCount where a.color(species: s) != b.color(species: s) {
            out.append(.speciesColor(s, b.color(species: s)))
        }
        return out
    }

    /// Reads one `id: value` pair with the same checks as preset files (known
    /// id, right type, in range, whole for integer parameters, known choice,
    /// `#rrggbb` colour); problems go to `diagnostics`, under `path` (the
    /// containing object).
    public static func read(id: String, value: JSONNode, path: JSONPath, diagnostics: JSONDiagnostics) -> ParamAssignment? {
        let before = diagnostics.errors.count
        // The preset reader validates; a one-member object keeps the rest at defaults.
        guard let p = PresetParams(strict: .object([(id, value)]), path: path, diagnostics: diagnostics),
              diagnostics.errors.count == before
        else { return nil }
        if let k = ParamRegistry.key(id: id) { return .scalar(k, p[k]) }
        switch id {
        case "spawn.pattern": return .spawnPattern(p.spawnPattern)
        case "render.blendMode": return .blendMode(p.blendMode)
        case "render.background": return .background(p.background)
        default:
            for s in 0..<ParamKey.speciesCount where id == "species.\(s).color" { return .speciesColor(s, p.color(species: s)) }
            return nil
        }
    }
}

/// Parameter changes waiting to be sent, coalesced: one value per id (the
/// last), in the order ids were first changed. A value type.
public struct ParamBatch: Equatable, Sendable {
    public private(set) var values: [ParamAssignment] = []
    private var index: [String: Int] = [:]

    public init(_ values: [ParamAssignment] = []) { merge(values) }

    public var isEmpty: Bool { values.isEmpty }

    /// Adds values; a later value for the same id replaces the earlier one in place.
    public mutating func merge(_ new: [ParamAssignment]) {
        for v in new {
            if let i = index[v.id] { values[i] = v } else {
                index[v.id] = values.count
                values.append(v)
            }
        }
    }

    public mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        index.removeAll(keepingCapacity: true)
    }
}
