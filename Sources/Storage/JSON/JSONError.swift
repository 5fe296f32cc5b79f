/// A location inside a JSON document, e.g. `routes[2].target`.
/// Printed with keys joined by dots and indices in brackets; keys that are not
/// plain words (letters, digits, `_`, `-`, `.`) are quoted: `["a b"]`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step down into a document.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the document's top level.
    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    /// The top level of a document.
    public static let root = JSONPath()

    /// This path extended by an object key.
    public func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }
    /// This path extended by an array index.
    public func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    /// `routes[2].target`; `(top level)` for the root.
    public var description: String {
        if components.isEmpty { return "(top level)" }
        var s = ""
        for c in components {
            switch c {
            case .index(let i):
                s += "[\(i)]"
            case .key(let k):
                if !k.isEmpty && k.unicodeScalars.allSatisfy(Self.isPlain) {
                    s += s.isEmpty ? k : "." + k
                } else {
                    s += "[\"" + k.replacingQuotes() + "\"]"
                }
            }
        }
        return s
    }

    private static func isPlain(_ u: Unicode.Scalar) -> Bool {
        switch u {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "*": true
        default: false
        }
    }
}

extension String {
    /// The key as it would be written in JSON: quotes and backslashes
    /// escaped, and control and format characters as `\uXXXX`, so a path
    /// (and the error message holding it) stays on one visible line.
    fileprivate func replacingQuotes() -> String {
        var out = ""
        for ch in unicodeScalars {
            if ch == "\"" || ch == "\\" { out += "\\" }
            out.unicodeScalars.append(ch)
        }
        return out.visibleOnOneLine
    }

    /// The text with control, format and line-separator characters written
    /// as `\uXXXX`: a message that quotes what a file holds (a key, a value)
    /// stays one visible line whatever the file contains.
    public var visibleOnOneLine: String {
        guard unicodeScalars.contains(where: Self.isHidden) else { return self }
        var out = ""
        for ch in unicodeScalars {
            if Self.isHidden(ch) {
                let hex = String(ch.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    private static func isHidden(_ ch: Unicode.Scalar) -> Bool {
        switch ch.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}

/// One problem found in a JSON document: where (file, line:column, JSON path)
/// and why. Used both for syntax errors from `StrictJSON.parse` and for
/// validation errors and warnings from `JSONDiagnostics`.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file name to show, if known.
    public var file: String?
    /// Where in the text; `.unknown` when the text could not be read at all
    /// (e.g. over the size limit) or the value was built in code.
    public var position: SourcePosition
    /// The JSON path of the value concerned (for syntax errors: the container
    /// being read when the error was found).
    public var path: JSONPath
    /// What is wrong, in plain words.
    public var reason: String

    public init(file: String? = nil, position: SourcePosition, path: JSONPath, reason: String) {
        self.file = file
        self.position = position
        self.path = path
        self.reason = reason
    }

    /// The same error attributed to `file`.
    public func inFile(_ file: String?) -> JSONError {
        var e = self
        e.file = file
        return e
    }

    /// `FILE:LINE:COL: path: reason` (parts that are unknown are left out);
    /// `FILE: reason` for a problem with the file as a whole (unreadable, too
    /// large, not a regular file: no position, the top level).
    public var description: String {
        if let file, !position.isKnown, path.components.isEmpty { return (file + ": " + reason).visibleOnOneLine }
        var s = ""
        if let file { s += file + ":" }
        if position.isKnown { s += "\(position.line):\(position.column):" }
        if !s.isEmpty { s += " " }
        return (s + path.description + ": " + reason).visibleOnOneLine
    }
}

/// Several problems in one document (a validation reports all it finds).
public struct JSONErrorList: Error, Sendable, Hashable, CustomStringConvertible {
    /// At least one error, in document order.
    public var errors: [JSONError]

    public init(_ errors: [JSONError]) { self.errors = errors }

    /// One error per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
