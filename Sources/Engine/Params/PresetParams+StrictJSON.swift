import Storage
/// Strict reading and writing of the flat `{ "parameter.id": value, … }`
/// object (the same format as the `Codable` conformance), through
/// `StrictJSON` trees so errors carry line:column and the JSON path.
extension PresetParams {
    /// Reads a flat object keyed by parameter id, reporting every problem into
    /// `diagnostics`; nil when there was any. Missing ids keep their registry
    /// defaults; unknown ids, wrong types, out-of-range or fractional values for
    /// integer parameters, unknown choices and malformed colours are errors.
    public init?(strict node: JSONNode, path: JSONPath = .root, diagnostics: JSONDiagnostics) {
        self.init()
        let before = diagnostics.errors.count
        guard let object = node.object else {
            diagnostics.error("expected an object of parameter values, got \(node.kindDescription)",
                              at: path, position: node.position)
            return nil
        }
        for m in object.members {
            let p = path.appending(m.key)
            if let k = ParamRegistry.key(id: m.key) {
                let spec = k.spec
                if let v = diagnostics.number(m.value, at: p, in: spec.min...spec.max, integer: spec.integer) {
                    self[k] = v
                }
            } else if m.key == "spawn.pattern" {
                if let v = diagnostics.choice(m.value, at: p, as: SpawnPattern.self, what: "spawn pattern") { spawnPattern = v }
            } else if m.key == "render.blendMode" {
                if let v = diagnostics.choice(m.value, at: p, as: BlendMode.self, what: "blend mode") { blendMode = v }
            } else if m.key == "render.background" {
                if let c = Self.strictColor(m.value, at: p, diagnostics) { background = c }
            } else if let s = Self.colorSpecies(m.key) {
                if let c = Self.strictColor(m.value, at: p, diagnostics) { setColor(c, species: s) }
            } else {
                diagnostics.error("unknown parameter id '\(m.key)'", at: p, position: m.keyPosition)
            }
        }
        if diagnostics.errors.count > before { return nil }
    }

    /// Reads a flat object keyed by parameter id; throws every problem found.
    public init(strict node: JSONNode, path: JSONPath = .root, file: String? = nil) throws(JSONErrorList) {
        let d = JSONDiagnostics(file: file)
        guard let p = PresetParams(strict: node, path: path, diagnostics: d) else { throw JSONErrorList(d.errors) }
        self = p
    }

    /// The flat object in registry order: every scalar, then spawn pattern,
    /// blend mode, background and species colours (what `init(strict:)` reads).
    public var jsonNode: JSONNode {
        var members: [(String, JSONNode)] = []
        for (i, spec) in ParamRegistry.scalars.enumerated() { members.append((spec.id, .number(scalars[i]))) }
        members.append(("spawn.pattern", .string(spawnPattern.rawValue)))
        members.append(("render.blendMode", .string(blendMode.rawValue)))
        members.append(("render.background", .string(background.hex)))
        for s in 0..<ParamKey.speciesCount { members.append(("species.\(s).color", .string(speciesColors[s].hex))) }
        return .object(members)
    }

    private static func strictColor(_ node: JSONNode, at path: JSONPath, _ d: JSONDiagnostics) -> RGBColor? {
        guard let s = d.string(node, at: path) else { return nil }
        guard let c = RGBColor(hex: s) else {
            d.error("expected a colour like \"#ff8800\", got \"\(s.prefix(40))\"", at: path, position: node.position)
            return nil
        }
        return c
    }
}
