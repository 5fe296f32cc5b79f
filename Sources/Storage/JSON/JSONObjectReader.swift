/// Reads the fields of one JSON object with type and range checks, reporting
/// problems (with path and line:column) into a `JSONDiagnostics`, and keeps
/// track of which keys were read so the rest can be warned about and kept.
///
/// Optional fields that are absent or `null` read as nil without a message;
/// required fields that are absent report "missing required field". Not
/// thread-safe (a local helper of one validation).
public struct JSONObjectReader {
    /// The object node being read.
    public let node: JSONNode
    /// Its path in the document.
    public let path: JSONPath
    /// Where problems go.
    public let diagnostics: JSONDiagnostics
    /// Per member (file order): whether it was read.
    private var read: [Bool]

    /// A reader for `node`, which must be an object (checked by `JSONDiagnostics.object`).
    init(_ node: JSONNode, path: JSONPath, diagnostics: JSONDiagnostics) {
        self.node = node
        self.path = path
        self.diagnostics = diagnostics
        read = Array(repeating: false, count: node.object?.members.count ?? 0)
    }

    /// The object's members.
    public var object: JSONObject { node.object ?? JSONObject() }

    /// Whether `key` is present (and not null).
    public func has(_ key: String) -> Bool { object[key].map { !$0.isNull } ?? false }

    /// The raw value of `key` (marked as read), or nil when absent or null.
    /// A missing required field is reported at the object.
    public mutating func value(_ key: String, required: Bool = false) -> JSONNode? {
        let members = node.object?.members ?? []
        guard let i = members.firstIndex(where: { $0.key == key }) else {
            if required { diagnostics.error("missing required field '\(key)'", at: path, position: node.position) }
            return nil
        }
        read[i] = true
        let v = members[i].value
        if v.isNull {
            if required { diagnostics.error("required field '\(key)' must not be null", at: path, position: members[i].keyPosition) }
            return nil
        }
        return v
    }

    /// A number field, optionally within `range` and whole.
    public mutating func number(_ key: String, required: Bool = false, in range: ClosedRange<Double>? = nil,
                                integer: Bool = false) -> Double? {
        value(key, required: required).flatMap { diagnostics.number($0, at: path.appending(key), in: range, integer: integer) }
    }

    /// A whole-number field within `range`.
    public mutating func int(_ key: String, required: Bool = false, in range: ClosedRange<Int>) -> Int? {
        value(key, required: required).flatMap { diagnostics.int($0, at: path.appending(key), in: range) }
    }

    /// A boolean field.
    public mutating func bool(_ key: String, required: Bool = false) -> Bool? {
        value(key, required: required).flatMap { diagnostics.bool($0, at: path.appending(key)) }
    }

    /// A string field of at most `maxLength` characters.
    public mutating func string(_ key: String, required: Bool = false, maxLength: Int? = nil,
                                nonEmpty: Bool = false) -> String? {
        value(key, required: required).flatMap {
            diagnostics.string($0, at: path.appending(key), maxLength: maxLength, nonEmpty: nonEmpty)
        }
    }

    /// A name or tag field (see `JSONDiagnostics.name`).
    public mutating func name(_ key: String, required: Bool = false, maxLength: Int) -> String? {
        value(key, required: required).flatMap { diagnostics.name($0, at: path.appending(key), maxLength: maxLength) }
    }

    /// A string-enum field; `what` names it in messages (defaults to the key).
    public mutating func choice<E: RawRepresentable & CaseIterable>(_ key: String, as type: E.Type, required: Bool = false,
                                                                   what: String? = nil) -> E? where E.RawValue == String {
        value(key, required: required).flatMap { diagnostics.choice($0, at: path.appending(key), as: type, what: what ?? key) }
    }

    /// A nested object field.
    public mutating func object(_ key: String, required: Bool = false) -> JSONObjectReader? {
        value(key, required: required).flatMap { diagnostics.object($0, at: path.appending(key)) }
    }

    /// An array field of at most `maxCount` elements; element `k`'s path is
    /// `path.key[k]`.
    public mutating func array(_ key: String, required: Bool = false, maxCount: Int? = nil) -> [JSONNode]? {
        value(key, required: required).flatMap { diagnostics.array($0, at: path.appending(key), maxCount: maxCount) }
    }

    /// The members not read so far, in file order, each reported as a warning
    /// ("unknown key 'x' is ignored (kept when saved)") unless `warn` is false.
    public func unknownMembers(warn: Bool = true) -> [JSONMember] {
        let rest = object.members.indices.filter { !read[$0] }.map { object.members[$0] }
        if warn {
            for m in rest {
                diagnostics.warning("unknown key '\(m.key)' is ignored (kept when saved)",
                                    at: path.appending(m.key), position: m.keyPosition)
            }
        }
        return rest
    }

    /// Reports every member not read so far as an error ("unknown key 'x'").
    public func rejectUnknown() {
        for (i, m) in object.members.enumerated() where !read[i] {
            diagnostics.error("unknown key '\(m.key)'", at: path.appending(m.key), position: m.keyPosition)
        }
    }
}
