import Engine
import Foundation
import LiveCore
import Storage

/// One step of a remote script (`physarum remote --script FILE`), one JSON
/// object per line:
///
///     {"intent":"next"}   {"intent":"jumpTo","preset":"user:3"}   {"intent":"showOverlay"}
///     {"intent":"setList","command":"go"}   (go, back, hold, skip, stop)
///     {"params":{"global.exposure":1.4,"render.blendMode":"paint"}}
///     {"wait":0.01}        seconds before the next step
///     {"sync":true}        wait until the host acknowledged every change so far
///     {"quit":true}        stop here
///
/// Blank lines and lines starting with `#` are ignored.
enum ScriptStep: Equatable, Sendable {
    case intent(RemoteIntent)
    case params([ParamAssignment])
    case wait(Double)
    case sync
    case quit

    /// Parses one line; nil for blank and comment lines. Throws a message naming the line.
    static func parse(_ line: String, number: Int, file: String) throws(UsageError) -> ScriptStep? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        let fail = { (why: String) in UsageError("\(file):\(number): \(why)") }
        let node: JSONNode
        do {
            node = try StrictJSON.parse(text: trimmed, limit: 1 << 20)
        } catch {
            throw fail(error.description)
        }
        guard let o = node.object, o.members.count >= 1 else { throw fail("expected a JSON object") }
        if let v = o["intent"] {
            // The same reader as the wire format, so scripts and frames agree.
            var m = o
            m["type"] = .string("intent")
            m["seq"] = .number(0)
            switch RemoteMessage.decode(Array(JSONWriter.compact(JSONNode(.object(m))).utf8)) {
            case .message(.intent(_, let i)): return .intent(i)
            case .invalid(let why): throw fail(why)
            default: throw fail("bad intent \(JSONWriter.compact(v))")
            }
        }
        if let v = o["params"] {
            guard let obj = v.object else { throw fail("params must be an object of parameter values") }
            let d = JSONDiagnostics()
            var out: [ParamAssignment] = []
            for m in obj.members {
                if let a = ParamAssignment.read(id: m.key, value: m.value, path: JSONPath.root.appending("params"), diagnostics: d) {
                    out.append(a)
                }
            }
            if let e = d.errors.first { throw fail(e.description) }
            return .params(out)
        }
        if let v = o["wait"] {
            guard let s = v.number, s >= 0, s <= 3600 else { throw fail("wait must be seconds in 0...3600") }
            return .wait(s)
        }
        if o["sync"]?.bool == true { return .sync }
        if o["quit"]?.bool == true { return .quit }
        throw fail("expected one of intent, params, wait, sync, quit")
    }
}
