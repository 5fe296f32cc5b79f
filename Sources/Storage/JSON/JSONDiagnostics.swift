/// Collects the errors and warnings of validating one parsed document, and
/// offers typed checks of single values that report into it.
///
/// Validation goes on after an error so that one run lists every problem.
/// Not thread-safe: one validation owns one instance.
public final class JSONDiagnostics {
    /// The file name put on every error (nil for texts without a file).
    public let file: String?
    /// Problems that make the document unusable, in the order found.
    public private(set) var errors: [JSONError] = []
    /// Problems that do not (e.g. unknown keys, which are kept on save).
    public private(set) var warnings: [JSONError] = []

    public init(file: String? = nil) { self.file = file }

    /// Whether any error was reported.
    public var hasErrors: Bool { !errors.isEmpty }

    /// Reports an error about the value at `path` starting at `position`.
    public func error(_ reason: String, at path: JSONPath, position: SourcePosition) {
        errors.append(JSONError(file: file, position: position, path: path, reason: reason))
    }

    /// Reports a warning about the value at `path` starting at `position`.
    public func warning(_ reason: String, at path: JSONPath, position: SourcePosition) {
        warnings.append(JSONError(file: file, position: position, path: path, reason: reason))
    }

    /// Records an error that was thrown elsewhere (e.g. a syntax error).
    public func record(_ error: JSONError) { errors.append(error.inFile(file)) }

    /// Throws every error collected so far (no-op when there is none).
    public func throwIfErrors() throws(JSONErrorList) {
        if !errors.isEmpty { throw JSONErrorList(errors) }
    }

    // MARK: typed checks of one value

    /// A finite number, optionally within `range` and whole.
    public func number(_ node: JSONNode, at path: @autoclosure () -> JSONPath, in range: ClosedRange<Double>? = nil,
                       integer: Bool = false) -> Double? {
        guard let v = node.number else { return mismatch("a number", node, path) }
        if let range, !range.contains(v) {
            error("must be within \(JSONWriter.number(range.lowerBound))…\(JSONWriter.number(range.upperBound)), got \(JSONWriter.number(v))",
                  at: path(), position: node.position)
            return nil
        }
        if integer, v != v.rounded() {
            error("must be a whole number, got \(JSONWriter.number(v))", at: path(), position: node.position)
            return nil
        }
        return v
    }

    /// A whole number within `range`.
    public func int(_ node: JSONNode, at path: @autoclosure () -> JSONPath, in range: ClosedRange<Int>) -> Int? {
        number(node, at: path(), in: Double(range.lowerBound)...Double(range.upperBound), integer: true).map { Int($0) }
    }

    /// A boolean.
    public func bool(_ node: JSONNode, at path: @autoclosure () -> JSONPath) -> Bool? {
        guard let v = node.bool else { return mismatch("true or false", node, path) }
        return v
    }

    /// A string of at most `maxLength` characters (and not empty when `nonEmpty`).
    public func string(_ node: JSONNode, at path: @autoclosure () -> JSONPath, maxLength: Int? = nil, nonEmpty: Bool = false) -> String? {
        guard let s = node.string else { return mismatch("a string", node, path) }
        if nonEmpty && s.trimmingSpaces.isEmpty {
            error("must not be empty", at: path(), position: node.position)
            return nil
        }
        if let maxLength, s.count > maxLength {
            error("is \(s.count) characters long, at most \(maxLength) allowed", at: path(), position: node.position)
            return nil
        }
        return s
    }

    /// One of a string enum's raw values; `what` names it in the message
    /// ("unknown mode 'x' (expected one of: level, transient)").
    public func choice<E: RawRepresentable & CaseIterable>(_ node: JSONNode, at path: @autoclosure () -> JSONPath, as type: E.Type,
                                                          what: String) -> E? where E.RawValue == String {
        guard let s = node.string else { return mismatch("a string", node, path) }
        guard let v = E(rawValue: s) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            error("unknown \(what) '\(s)' (expected one of: \(allowed))", at: path(), position: node.position)
            return nil
        }
        return v
    }

    /// An object, to be read field by field.
    public func object(_ node: JSONNode, at path: JSONPath) -> JSONObjectReader? {
        guard node.object != nil else { return mismatch("an object", node, { path }) }
        return JSONObjectReader(node, path: path, diagnostics: self)
    }

    /// An array of at most `maxCount` elements.
    public func array(_ node: JSONNode, at path: @autoclosure () -> JSONPath, maxCount: Int? = nil) -> [JSONNode]? {
        guard let a = node.array else { return mismatch("an array", node, path) }
        if let maxCount, a.count > maxCount {
            error("has \(a.count) elements, at most \(maxCount) allowed", at: path(), position: node.position)
            return nil
        }
        return a
    }

    private func mismatch<T>(_ expected: String, _ node: JSONNode, _ path: () -> JSONPath) -> T? {
        error("expected \(expected), got \(node.kindDescription)", at: path(), position: node.position)
        return nil
    }
}

extension String {
    /// The string without leading and trailing white space (spaces, tabs, newlines, Unicode spaces).
    public var trimmingSpaces: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return self[first...last]
    }
}
