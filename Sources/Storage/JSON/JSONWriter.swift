/// Writes `JSONNode` trees as JSON text: members in their stored order,
/// two-space indentation, short arrays of scalars on one line, numbers in the
/// shortest form that reads back to the same `Double`. Pure; any thread.
public enum JSONWriter {
    /// Pretty-printed text ending in a newline (for files people edit).
    public static func pretty(_ node: JSONNode) -> String {
        var out = ""
        write(node, indent: 0, into: &out)
        out += "\n"
        return out
    }

    /// Compact one-line text.
    public static func compact(_ node: JSONNode) -> String {
        switch node.value {
        case .array(let a): return "[" + a.map(compact).joined(separator: ",") + "]"
        case .object(let o):
            return "{" + o.members.map { quote($0.key) + ":" + compact($0.value) }.joined(separator: ",") + "}"
        default: return scalar(node.value)
        }
    }

    /// A JSON number literal; integers in ±1e15 without a fraction.
    public static func number(_ d: Double) -> String {
        precondition(d.isFinite, "JSON numbers must be finite")
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    /// A JSON string literal (quotes, backslashes and control characters escaped).
    public static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    let h = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    private static func scalar(_ v: JSONNode.Value) -> String {
        switch v {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let d): d.isFinite ? number(d) : "null"
        case .string(let s): quote(s)
        case .array, .object: ""
        }
    }

    private static func write(_ node: JSONNode, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent + 2)
        switch node.value {
        case .object(let o):
            if o.members.isEmpty { out += "{}"; return }
            out += "{\n"
            for (k, m) in o.members.enumerated() {
                out += pad + quote(m.key) + ": "
                write(m.value, indent: indent + 2, into: &out)
                out += k + 1 < o.members.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        case .array(let a):
            if a.isEmpty { out += "[]"; return }
            let flat = a.allSatisfy { n in
                if case .array = n.value { return false }
                if case .object = n.value { return false }
                return true
            }
            let line = flat ? "[" + a.map { scalar($0.value) }.joined(separator: ", ") + "]" : ""
            if flat && line.count + indent <= 100 { out += line; return }
            out += "[\n"
            for (k, e) in a.enumerated() {
                out += pad
                write(e, indent: indent + 2, into: &out)
                out += k + 1 < a.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        default:
            out += scalar(node.value)
        }
    }
}
