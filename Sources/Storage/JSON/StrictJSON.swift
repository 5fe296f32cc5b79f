import Foundation

/// A strict JSON (RFC 8259) reader that keeps every value's line:column.
///
/// Unlike Foundation's `JSONDecoder` it rejects duplicate keys, `NaN` /
/// `Infinity`, numbers that overflow a `Double`, trailing text after the value,
/// invalid UTF-8, raw control characters in strings, nesting deeper than
/// `maxDepth` and inputs over the caller's byte limit; every error names the
/// line:column, the JSON path and the reason. A leading UTF-8 byte-order mark
/// is skipped. Pure function; safe to call from any thread.
public enum StrictJSON {
    /// The default nesting limit (objects and arrays inside each other).
    public static let defaultMaxDepth = 64

    /// Parses `data` (UTF-8) into a tree. Throws the first syntax error;
    /// `limit` is the largest accepted size in bytes.
    public static func parse(data: Data, limit: Int, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONNode {
        if data.count > limit { throw overLimit(data.count, limit) }
        return try parse(bytes: [UInt8](data), limit: limit, maxDepth: maxDepth)
    }

    /// Parses UTF-8 `bytes` into a tree. Throws the first syntax error.
    public static func parse(bytes: [UInt8], limit: Int, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONNode {
        if bytes.count > limit { throw overLimit(bytes.count, limit) }
        var p = JSONParser(bytes: bytes, maxDepth: maxDepth)
        return try p.parseDocument()
    }

    /// Parses a whole file's bytes for a document reader: a syntax error (or
    /// a size over `limit`) names `file` and comes as a one-error list, the
    /// form the readers of presets, configs and the library throw.
    public static func document(_ data: Data, limit: Int, file: String?) throws(JSONErrorList) -> JSONNode {
        do {
            return try parse(data: data, limit: limit)
        } catch {
            throw JSONErrorList([error.inFile(file)])
        }
    }

    /// Parses a string (convenience for tests and embedded documents).
    public static func parse(text: String, limit: Int = 1 << 20, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONNode {
        try parse(bytes: Array(text.utf8), limit: limit, maxDepth: maxDepth)
    }

    private static func overLimit(_ size: Int, _ limit: Int) -> JSONError {
        JSONError(position: .unknown, path: .root,
                  reason: "file is \(size) bytes, over the limit of \(limit) bytes")
    }
}

/// The recursive-descent parser behind `StrictJSON` (one per document).
struct JSONParser {
    let b: [UInt8]
    let maxDepth: Int
    var i = 0
    var line = 1
    var lineStart = 0
    /// Column cache: `col` is the column of byte `colIndex` on the current line.
    var colIndex = 0
    var col = 1
    var path: [JSONPath.Component] = []

    init(bytes: [UInt8], maxDepth: Int) {
        b = bytes
        self.maxDepth = maxDepth
    }

    // MARK: positions and errors

    /// The line:column of byte `idx` (on the current line; calls move forward).
    mutating func position(_ idx: Int) -> SourcePosition {
        if colIndex < lineStart || idx < colIndex {
            colIndex = lineStart
            col = 1
        }
        while colIndex < idx {
            if b[colIndex] & 0xC0 != 0x80 { col += 1 }
            colIndex += 1
        }
        return SourcePosition(line: line, column: col)
    }

    mutating func fail(_ reason: String, at idx: Int? = nil) -> JSONError {
        JSONError(position: position(min(idx ?? i, b.count)), path: JSONPath(path), reason: reason)
    }

    /// Position of any byte, by scanning from the start (used before parsing).
    func scanPosition(_ idx: Int) -> SourcePosition {
        var l = 1, c = 1
        for k in 0..<idx {
            if b[k] == 0x0A { l += 1; c = 1 } else if b[k] & 0xC0 != 0x80 { c += 1 }
        }
        return SourcePosition(line: l, column: c)
    }

    // MARK: document

    mutating func parseDocument() throws(JSONError) -> JSONNode {
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
            i = 3
            lineStart = 3
            colIndex = 3
        }
        try validateUTF8()
        skipWhitespace()
        if i >= b.count {
            throw fail(b.isEmpty ? "the file is empty (expected a JSON value)" : "no JSON value, only whitespace")
        }
        let root = try parseValue(depth: 0)
        skipWhitespace()
        if i < b.count {
            throw fail("unexpected text after the JSON value: \(describe(at: i))")
        }
        return root
    }

    func validateUTF8() throws(JSONError) {
        var k = i
        let n = b.count
        while k < n {
            let c = b[k]
            if c < 0x80 { k += 1; continue }
            var need = 0
            var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; lo = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; hi = 0x9F
            case 0xF0: need = 3; lo = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; hi = 0x8F
            default: need = -1
            }
            var ok = need > 0 && k + need < n
            if ok {
                for j in 1...need {
                    let cc = b[k + j]
                    if j == 1 ? !(lo...hi).contains(cc) : !(0x80...0xBF).contains(cc) { ok = false; break }
                }
            }
            if !ok {
                throw JSONError(position: scanPosition(k), path: .root,
                                reason: "invalid UTF-8 (byte 0x\(String(c, radix: 16, uppercase: true))); the file must be UTF-8 text")
            }
            k += need + 1
        }
    }

    mutating func skipWhitespace() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A:
                i += 1
                line += 1
                lineStart = i
            default: return
            }
        }
    }

    /// A short description of the text at `idx` for messages.
    func describe(at idx: Int) -> String {
        guard idx < b.count else { return "end of input" }
        let c = b[idx]
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        if c < 0x20 || c == 0x7F { return "control character 0x\(String(c, radix: 16, uppercase: true))" }
        return "byte 0x\(String(c, radix: 16, uppercase: true))"
    }

    // MARK: values

    mutating func parseValue(depth: Int) throws(JSONError) -> JSONNode {
        guard i < b.count else { throw fail("unexpected end of input, expected a value") }
        let start = position(i)
        switch b[i] {
        case UInt8(ascii: "{"):
            return JSONNode(.object(try parseObject(depth: depth + 1)), at: start)
        case UInt8(ascii: "["):
            return JSONNode(.array(try parseArray(depth: depth + 1)), at: start)
        case UInt8(ascii: "\""):
            return JSONNode(.string(try parseString()), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(.number(try parseNumber()), at: start)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return JSONNode(try parseWord(), at: start)
        default:
            throw fail("unexpected \(describe(at: i)), expected a value")
        }
    }

    mutating func parseWord() throws(JSONError) -> JSONNode.Value {
        let s = i
        while i < b.count, isWordByte(b[i]) { i += 1 }
        let word = String(decoding: b[s..<i], as: UTF8.self)
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default:
            i = s
            throw fail(Self.isNonFiniteWord(word)
                ? "'\(word)' is not allowed: JSON numbers must be finite (no NaN or Infinity)"
                : "unexpected word '\(word.prefix(40))', expected a value (strings need double quotes)")
        }
    }

    func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F
    }

    static func isNonFiniteWord(_ w: String) -> Bool {
        ["nan", "infinity", "inf"].contains(w.lowercased())
    }

    mutating func parseObject(depth: Int) throws(JSONError) -> JSONObject {
        if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
        i += 1  // {
        var members: [JSONMember] = []
        var seen: [String: SourcePosition] = [:]
        skipWhitespace()
        if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return JSONObject(members) }
        while true {
            skipWhitespace()
            guard i < b.count else { throw fail("unexpected end of input inside an object (missing '}')") }
            guard b[i] == UInt8(ascii: "\"") else {
                if b[i] == UInt8(ascii: "}") && !members.isEmpty { throw fail("trailing comma before '}'") }
                throw fail("expected a key in double quotes, found \(describe(at: i))")
            }
            let keyPos = position(i)
            let key = try parseString()
            let first: SourcePosition?
            if members.count < 16 {
                first = members.first { $0.key == key }?.keyPosition
            } else {
                if seen.isEmpty { for m in members { seen[m.key] = m.keyPosition } }
                first = seen[key]
            }
            if let first {
                path.append(.key(key))
                let e = JSONError(position: keyPos, path: JSONPath(path), reason: "duplicate key '\(key)' (first at \(first))")
                path.removeLast()
                throw e
            }
            if !seen.isEmpty { seen[key] = keyPos }
            skipWhitespace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else {
                throw fail("expected ':' after key '\(key)', found \(describe(at: i))")
            }
            i += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue(depth: depth)
            path.removeLast()
            members.append(JSONMember(key: key, keyPosition: keyPos, value: value))
            skipWhitespace()
            guard i < b.count else { throw fail("unexpected end of input inside an object (missing '}')") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "}") { i += 1; return JSONObject(members) }
            throw fail("expected ',' or '}' after the value of '\(key)', found \(describe(at: i))")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONError) -> [JSONNode] {
        if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
        i += 1  // [
        var items: [JSONNode] = []
        skipWhitespace()
        if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return items }
        while true {
            skipWhitespace()
            guard i < b.count else { throw fail("unexpected end of input inside an array (missing ']')") }
            if b[i] == UInt8(ascii: "]") && !items.isEmpty { throw fail("trailing comma before ']'") }
            path.append(.index(items.count))
            let v = try parseValue(depth: depth)
            path.removeLast()
            items.append(v)
            skipWhitespace()
            guard i < b.count else { throw fail("unexpected end of input inside an array (missing ']')") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "]") { i += 1; return items }
            throw fail("expected ',' or ']' after an array element, found \(describe(at: i))")
        }
    }

    mutating func parseNumber() throws(JSONError) -> Double {
        let s = i
        func digit(_ k: Int) -> Bool { k < b.count && b[k] >= 0x30 && b[k] <= 0x39 }
        if b[i] == UInt8(ascii: "-") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "I") || b[i] == UInt8(ascii: "i") || b[i] == UInt8(ascii: "N") {
                throw fail("'-\(String(decoding: b[i..<min(i + 8, b.count)], as: UTF8.self))…' is not allowed: JSON numbers must be finite (no NaN or Infinity)", at: s)
            }
        }
        guard digit(i) else { throw fail("expected a digit in a number, found \(describe(at: i))") }
        if b[i] == UInt8(ascii: "0") && digit(i + 1) { throw fail("leading zeros are not allowed in numbers", at: s) }
        while digit(i) { i += 1 }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { throw fail("expected a digit after '.', found \(describe(at: i))") }
            while digit(i) { i += 1 }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digit(i) else { throw fail("expected digits in the exponent, found \(describe(at: i))") }
            while digit(i) { i += 1 }
        }
        let text = String(decoding: b[s..<i], as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            throw fail("number \(text.prefix(40)) is out of range (too large for a 64-bit float)", at: s)
        }
        return v
    }

    mutating func parseString() throws(JSONError) -> String {
        let open = i
        i += 1  // "
        var out: [UInt8] = []
        while true {
            let runStart = i
            while i < b.count, b[i] != 0x22, b[i] != 0x5C, b[i] >= 0x20 { i += 1 }
            if out.isEmpty, i < b.count, b[i] == 0x22 {
                // The common case: no escapes at all.
                i += 1
                return String(decoding: b[runStart..<(i - 1)], as: UTF8.self)
            }
            out.append(contentsOf: b[runStart..<i])
            guard i < b.count else { throw fail("unterminated string (missing closing '\"')", at: open) }
            let c = b[i]
            if c == 0x22 { i += 1; break }
            if c < 0x20 {
                throw fail("raw control character 0x\(String(c, radix: 16, uppercase: true)) in a string (write it as an escape such as \\n)")
            }
            // Backslash escape.
            i += 1
            guard i < b.count else { throw fail("unterminated string (missing closing '\"')", at: open) }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 1 < b.count, b[i] == 0x5C, b[i + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string", at: i - 6)
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw fail("unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string", at: i - 12)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string", at: i - 6)
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            default:
                let shown = e >= 0x21 && e < 0x7F ? String(Unicode.Scalar(e)) : "0x" + String(e, radix: 16, uppercase: true)
                throw fail("invalid escape '\\\(shown)' in a string (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", at: i - 2)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        guard i + 4 <= b.count else { throw fail("expected 4 hex digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x37)
            case 0x61...0x66: d = UInt32(c - 0x57)
            default: throw fail("expected 4 hex digits after \\u, found \(describe(at: i))")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }
}
