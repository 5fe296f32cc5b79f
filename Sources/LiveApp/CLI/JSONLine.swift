import Engine
import Foundation
import Storage

/// A JSON value for hand-ordered one-line output (bench, analyze, stats).
enum JSONValue: Sendable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// Text that is already valid JSON, inserted as is.
    case raw(String)

    /// Compact JSON text; keys keep their order; non-finite numbers become null.
    var text: String {
        switch self {
        case .string(let s): return Self.quote(s)
        case .int(let i): return String(i)
        case .double(let d):
            guard d.isFinite else { return "null" }
            if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
            return "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let a): return "[" + a.map(\.text).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.map { Self.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        case .raw(let r): return r
        }
    }

    /// A JSON string literal (the engine's writer escapes it).
    static func quote(_ s: String) -> String { JSONWriter.quote(s) }
}

/// A double rounded to `digits` decimals, as a JSON number.
func rounded(_ v: Double, _ digits: Int) -> JSONValue {
    let p = pow(10.0, Double(digits))
    return .double((v * p).rounded() / p)
}
