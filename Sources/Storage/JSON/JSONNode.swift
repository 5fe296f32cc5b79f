import Foundation

/// A place in a JSON text: 1-based line and column (columns count Unicode
/// scalars, as editors do). `line == 0` means "not from a text" (built in code).
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1-based line, 0 when unknown.
    public var line: Int
    /// 1-based column in Unicode scalars, 0 when unknown.
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The position of values built in code rather than parsed.
    public static let unknown = SourcePosition(line: 0, column: 0)

    /// Whether the position points into a text.
    public var isKnown: Bool { line > 0 }

    public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// One parsed JSON value with the position where it starts. A value type;
/// objects keep their members in file order (so unknown keys can be written
/// back where they were). Equality and hashing compare values only, never
/// positions.
public struct JSONNode: Sendable, Hashable {
    /// The JSON value itself.
    public enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        /// Always finite (the reader rejects NaN, Infinity and overflow).
        case number(Double)
        case string(String)
        case array([JSONNode])
        case object(JSONObject)
    }

    /// The value.
    public var value: Value
    /// Where the value starts in the source text (`.unknown` when built in code).
    public var position: SourcePosition

    public init(_ value: Value, at position: SourcePosition = .unknown) {
        self.value = value
        self.position = position
    }

    /// A short name of the value's kind for messages: "a number", "an object", …
    public var kindDescription: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The number, if this is one.
    public var number: Double? { if case .number(let d) = value { d } else { nil } }
    /// The string, if this is one.
    public var string: String? { if case .string(let s) = value { s } else { nil } }
    /// The boolean, if this is one.
    public var bool: Bool? { if case .bool(let b) = value { b } else { nil } }
    /// The elements, if this is an array.
    public var array: [JSONNode]? { if case .array(let a) = value { a } else { nil } }
    /// The object, if this is one.
    public var object: JSONObject? { if case .object(let o) = value { o } else { nil } }
    /// Whether this is `null`.
    public var isNull: Bool { if case .null = value { true } else { false } }

    /// Shorthands for building documents in code.
    public static func number(_ d: Double) -> JSONNode { JSONNode(.number(d)) }
    public static func string(_ s: String) -> JSONNode { JSONNode(.string(s)) }
    public static func bool(_ b: Bool) -> JSONNode { JSONNode(.bool(b)) }
    public static func array(_ a: [JSONNode]) -> JSONNode { JSONNode(.array(a)) }
    public static func object(_ members: [(String, JSONNode)]) -> JSONNode {
        JSONNode(.object(JSONObject(members.map { JSONMember(key: $0.0, value: $0.1) })))
    }
    public static let null = JSONNode(.null)

    public static func == (a: JSONNode, b: JSONNode) -> Bool { a.value == b.value }
    public func hash(into h: inout Hasher) { h.combine(value) }
}

/// One `"key": value` pair of an object, with the key's position (ignored
/// by equality and hashing).
public struct JSONMember: Sendable, Hashable {
    public var key: String
    /// Where the key's opening quote is.
    public var keyPosition: SourcePosition
    public var value: JSONNode

    public init(key: String, keyPosition: SourcePosition = .unknown, value: JSONNode) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }

    public static func == (a: JSONMember, b: JSONMember) -> Bool { a.key == b.key && a.value == b.value }
    public func hash(into h: inout Hasher) {
        h.combine(key)
        h.combine(value)
    }
}

/// A JSON object: members in file order, keys unique (the strict reader
/// rejects duplicates).
public struct JSONObject: Sendable, Hashable {
    /// Members in file order.
    public var members: [JSONMember]

    public init(_ members: [JSONMember] = []) { self.members = members }

    /// The keys in file order.
    public var keys: [String] { members.map(\.key) }

    /// The member named `key`, if present.
    public func member(_ key: String) -> JSONMember? { members.first { $0.key == key } }

    /// The value of `key`, if present. Setting replaces in place or appends;
    /// setting nil removes.
    public subscript(_ key: String) -> JSONNode? {
        get { member(key)?.value }
        set {
            if let i = members.firstIndex(where: { $0.key == key }) {
                if let v = newValue { members[i].value = v } else { members.remove(at: i) }
            } else if let v = newValue {
                members.append(JSONMember(key: key, value: v))
            }
        }
    }
}

extension JSONNode {
    /// A whole number.
    public static func int(_ i: Int) -> JSONNode { JSONNode(.number(Double(i))) }
    /// A number, or `null` when it is not finite (NaN, ±∞ have no JSON form).
    public static func double(_ d: Double) -> JSONNode { d.isFinite ? JSONNode(.number(d)) : .null }
    /// `v` rounded to `digits` decimals (one-line outputs: stats, bench, analyze).
    public static func rounded(_ v: Double, _ digits: Int) -> JSONNode {
        let p = pow(10.0, Double(digits))
        return .double((v * p).rounded() / p)
    }
    /// Compact one-line JSON text (`JSONWriter.compact`).
    public var text: String { JSONWriter.compact(self) }
}
