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
    private var read: Set<String> = []

    /// A reader for `node`, which must be an object (checked by `JSONDiagnostics.object`).
    init(_ node: JSONNode, path: JSONPath, diagnostics: JSONDiagnostics) {
        self.node = node
        self.path = path
        self.diagnostics = diagnostics
    }

    /// The object's members.
    public var object: JSONObject { node.object ?? JSONObject() }

    /// Whether `key` is present (and not null).
    public func has(_ key: String) -> Bool { object[key].map { !$0.isNull } ?? false }

    /// The raw value of `key` (marked as read), or nil when absent or null.
    /// A missing required field is reported at the object.
    public mutating func value(_ key: String, required: Bool = false) -> JSONNode? {
        read.insert(key)
        guard let v = object[key], !v.isNull else {
            if required {
                let reason = object[key] == nil ? "missing required field '\(key)'" : "required field '\(key)' must not be null"
                diagnostics.error(reason, at: path, position: object.member(key)?.keyPosition ?? node.position)
            }
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
        let rest = object.members.filter { !read.contains($0.key) }
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
        for m in object.members where !read.contains(m.key) {
            diagnostics.error("unknown key '\(m.key)'", at: path.appending(m.key), position: m.keyPosition)
        }
    }
}
