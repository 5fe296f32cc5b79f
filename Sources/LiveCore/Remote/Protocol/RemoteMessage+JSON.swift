import Engine
import Foundation
import Storage

/// The result of decoding one frame's JSON.
public enum DecodedFrame: Equatable, Sendable {
    case message(RemoteMessage)
    /// A well-formed object with a `type` this build does not know (a newer peer): skipped.
    case unknownType(String)
    /// Not a valid message (bad JSON, missing or wrong fields): skipped.
    case invalid(String)
}

extension RemoteMessage {
    /// The message as an explicit JSON object (`type` first).
    public var jsonNode: JSONNode {
        var m: [(String, JSONNode)] = [("type", .string(type))]
        switch self {
        case .hello(let h):
            m.append(("version", .number(Double(h.version))))
            if let t = h.token { m.append(("token", .string(t))) }
            if let s = h.push { m.append(("state", Self.stateNode(s))) }
        case .intent(let seq, let intent):
            m.append(("seq", .number(Double(seq))))
            m.append(("intent", .string(intent.name)))
            if case .jumpTo(let id) = intent { m.append(("preset", .string(id))) }
            if case .setList(let c) = intent { m.append(("command", .string(c.rawValue))) }
        case .params(let seq, let values):
            m.append(("seq", .number(Double(seq))))
            m.append(("values", .object(values.map { ($0.id, $0.jsonValue) })))
        case .state(let s):
            for member in Self.stateNode(s).object!.members { m.append((member.key, member.value)) }
        case .ping(let id), .pong(let id):
            m.append(("id", .number(Double(id))))
        case .error(let code, let message):
            m.append(("code", .string(code)))
            m.append(("message", .string(message)))
        }
        return .object(m)
    }

    /// Compact JSON text of the message.
    public var jsonText: String { JSONWriter.compact(jsonNode) }

    /// The whole frame: 4-byte big-endian length, then the UTF-8 JSON.
    public var frame: [UInt8] { FrameCodec.frame(Array(jsonText.utf8)) }

    private static func stateNode(_ s: RemoteState) -> JSONNode {
        .object([
            ("revision", .number(Double(s.revision))),
            ("ack", .number(Double(s.ack))),
            ("preset", s.presetID.map(JSONNode.string) ?? .null),
            ("playlist", .bool(s.playlist)),
            ("overlay", .bool(s.overlay)),
            ("edited", .bool(s.edited)),
            ("params", s.params.jsonNode),
        ])
    }

    /// Largest sequence number / revision carried (exact in a JSON number).
    public static let maxCounter = 1 << 53
    /// Characters of an `error` message kept; the rest is cut (the frame is still used).
    public static let maxErrorMessage = 4096

    /// Decodes one frame's bytes. Unknown fields are ignored (a newer peer may
    /// add some); unknown `type`s are reported as such, not as errors.
    public static func decode(_ bytes: [UInt8], limit: Int = RemoteProtocol.frameLimit) -> DecodedFrame {
        let root: JSONNode
        do {
            root = try StrictJSON.parse(bytes: bytes, limit: limit, maxDepth: 16)
        } catch {
            return .invalid("not JSON: \(error.description)")
        }
        let d = JSONDiagnostics()
        guard var r = d.object(root, at: .root) else { return .invalid("not a JSON object") }
        guard let type = r.string("type", required: true, maxLength: 64) else { return .invalid(Self.problem(d)) }
        let message: RemoteMessage?
        switch type {
        case "hello":
            let version = r.int("version", required: true, in: 0...Int(Int32.max))
            let token = r.string("token", maxLength: 256)
            var push: RemoteState?
            if let s = r.object("state") { push = readState(s, d) }
            message = d.hasErrors ? nil : version.map { .hello(RemoteHello(version: $0, token: token, push: push)) }
        case "intent":
            let seq = r.int("seq", required: true, in: 0...maxCounter)
            let name = r.string("intent", required: true, maxLength: 64)
            var intent: RemoteIntent?
            switch name {
            case "next": intent = .next
            case "previous": intent = .previous
            case "togglePlaylist": intent = .togglePlaylist
            case "showOverlay": intent = .showOverlay
            case "dismissOverlay": intent = .dismissOverlay
            case "jumpTo": intent = r.string("preset", required: true, maxLength: 256, nonEmpty: true).map { .jumpTo($0) }
            case "setList": intent = r.choice("command", as: SetListCommand.self, required: true).map { .setList($0) }
            case let n?:
                d.error("unknown intent '\(n.prefix(64))' (expected one of: \(RemoteIntent.names.joined(separator: ", ")))",
                        at: JSONPath.root.appending("intent"), position: root.position)
            case nil: break
            }
            message = d.hasErrors ? nil : seq.flatMap { s in intent.map { .intent(seq: UInt64(s), $0) } }
        case "params":
            let seq = r.int("seq", required: true, in: 0...maxCounter)
            var values: [ParamAssignment] = []
            if let v = r.object("values", required: true) {
                for m in v.object.members {
                    if let a = ParamAssignment.read(id: m.key, value: m.value, path: JSONPath.root.appending("values"),
                                                    diagnostics: d) { values.append(a) }
                }
            }
            message = d.hasErrors ? nil : seq.map { .params(seq: UInt64($0), values) }
        case "state":
            let s = readState(r, d)
            message = d.hasErrors ? nil : s.map { .state($0) }
        case "ping", "pong":
            let id = r.int("id", in: 0...maxCounter).map(UInt64.init) ?? 0
            message = d.hasErrors ? nil : (type == "ping" ? .ping(id) : .pong(id))
        case "error":
            let code = r.string("code", required: true, maxLength: 64)
            // A long message is cut, never the frame: the code must arrive.
            let full = r.string("message") ?? ""
            let text = full.count > maxErrorMessage ? String(full.prefix(maxErrorMessage)) + "…" : full
            message = d.hasErrors ? nil : code.map { .error(code: $0, message: text) }
        default:
            return .unknownType(String(type.prefix(64)))
        }
        guard let message else { return .invalid("\(type): \(problem(d))") }
        return .message(message)
    }

    private static func readState(_ reader: JSONObjectReader, _ d: JSONDiagnostics) -> RemoteState? {
        var r = reader
        let before = d.errors.count
        var s = RemoteState()
        s.revision = UInt64(r.int("revision", in: 0...maxCounter) ?? 0)
        s.ack = UInt64(r.int("ack", in: 0...maxCounter) ?? 0)
        s.presetID = r.string("preset", maxLength: 256)
        s.playlist = r.bool("playlist") ?? false
        s.overlay = r.bool("overlay") ?? false
        s.edited = r.bool("edited") ?? false
        if let p = r.value("params", required: true),
           let params = PresetParams(strict: p, path: r.path.appending("params"), diagnostics: d) {
            s.params = params
        }
        return d.errors.count == before ? s : nil
    }

    private static func problem(_ d: JSONDiagnostics) -> String {
        d.errors.first?.description ?? "invalid message"
    }
}
