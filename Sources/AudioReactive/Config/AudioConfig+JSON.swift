import Engine
import Foundation
import Storage

/// A successfully read config and the warnings (unknown keys) found on the way.
public struct LoadedAudioConfig: Sendable {
    public var config: AudioConfig
    /// Problems that did not stop loading (e.g. unknown keys, which are kept).
    public var warnings: [JSONError]
}

extension AudioConfig {
    /// Reads a config from JSON bytes, strictly: syntax, types, ranges, enum
    /// values, route targets, limits and the format version are all checked,
    /// and every problem is reported with `file`, line:column and JSON path.
    public static func decode(data: Data, file: String? = nil) throws(JSONErrorList) -> LoadedAudioConfig {
        try decode(StrictJSON.document(data, limit: maxFileSize, file: file), file: file)
    }

    /// Reads a config from a file (at most `maxFileSize` bytes are read).
    public static func load(contentsOf url: URL) throws(JSONErrorList) -> LoadedAudioConfig {
        let data: Data
        do {
            data = try SafeFile.read(url, limit: maxFileSize)
        } catch {
            throw JSONErrorList([JSONError(file: url.path, position: .unknown, path: .root, reason: "\(error)")])
        }
        return try decode(data: data, file: url.path)
    }

    /// Validates a parsed document.
    public static func decode(_ root: JSONNode, file: String? = nil) throws(JSONErrorList) -> LoadedAudioConfig {
        let d = JSONDiagnostics(file: file)
        guard var r = d.object(root, at: .root) else { throw JSONErrorList(d.errors) }
        // The format comes first: a file from a newer version is refused as a whole.
        if let fmtNode = r.value("format", required: true) {
            guard let fmt = fmtNode.number else {
                d.error("expected the format version number \(formatVersion), got \(fmtNode.kindDescription)", at: .root.appending("format"), position: fmtNode.position)
                throw JSONErrorList(d.errors)
            }
            guard fmt == Double(formatVersion) else {
                d.error("unsupported format \(JSONWriter.number(fmt)) (this version reads format \(formatVersion))",
                        at: .root.appending("format"), position: fmtNode.position)
                throw JSONErrorList(d.errors)
            }
        }
        var c = AudioConfig(name: "")
        c.name = r.name("name", required: true, maxLength: maxNameLength) ?? ""
        if let v = r.bool("enabled") { c.enabled = v }
        if let v = r.bool(AudioTuning.autoGainKey) { c.tuning.autoGain = v }
        for f in AudioTuning.fields where f.placement == .config {
            if let v = r.number(f.key, in: f.range) { c.tuning[field: f] = v }
        }
        if let v = r.number("reactivity", in: reactivityRange) { c.reactivity = v }
        if var t = r.object("tuning") { decodeTuning(&t, into: &c.tuning, d) }
        if let edges = r.array("bands") { c.tuning.bands = decodeBands(edges, at: .root.appending("bands"), d) }
        if let routes = r.array("routes", maxCount: maxRoutes) {
            for (k, node) in routes.enumerated() {
                if let route = decodeRoute(node, at: JSONPath.root.appending("routes").appending(k), d) { c.routes.append(route) }
            }
        }
        c.extraMembers = r.unknownMembers()
        try d.throwIfErrors()
        return LoadedAudioConfig(config: c, warnings: d.warnings)
    }

    private static func decodeTuning(_ r: inout JSONObjectReader, into t: inout AudioTuning, _ d: JSONDiagnostics) {
        for f in AudioTuning.fields where f.placement == .tuning {
            if let v = r.number(f.key, in: f.range) { t[field: f] = v }
        }
        if t.gateHigh < t.gateLow, let node = r.object["gateHigh"] ?? r.object["gateLow"] {
            d.error("gateHigh (\(JSONWriter.number(t.gateHigh)) dB) must not be below gateLow (\(JSONWriter.number(t.gateLow)) dB)",
                    at: r.path.appending(r.has("gateHigh") ? "gateHigh" : "gateLow"), position: node.position)
        }
        t.extraMembers = r.unknownMembers()
    }

    private static func decodeBands(_ edges: [JSONNode], at path: JSONPath, _ d: JSONDiagnostics) -> [Double]? {
        guard edges.count == AudioBandEdges.count else {
            d.error("expected \(AudioBandEdges.count) band edges in Hz (for sub, bass, lowMid, mid, highMid, presence, brilliance), got \(edges.count)",
                    at: path, position: edges.first?.position ?? .unknown)
            return nil
        }
        var out: [Double] = []
        for (k, node) in edges.enumerated() {
            guard let v = d.number(node, at: path.appending(k), in: AudioBandEdges.range) else { return nil }
            if let last = out.last, v <= last {
                d.error("band edges must increase: \(JSONWriter.number(v)) Hz is not above \(JSONWriter.number(last)) Hz",
                        at: path.appending(k), position: node.position)
                return nil
            }
            out.append(v)
        }
        return out
    }

    private static func decodeRoute(_ node: JSONNode, at path: JSONPath, _ d: JSONDiagnostics) -> Route? {
        guard var r = d.object(node, at: path) else { return nil }
        let before = d.errors.count
        let source = r.choice("source", as: RouteSource.self, required: true)
        var target: RouteTarget?
        if let tnode = r.value("target", required: true), let id = d.string(tnode, at: path.appending("target")) {
            switch RouteTarget.parse(id) {
            case .success(let t): target = t
            case .failure(let e): d.error(e.description, at: path.appending("target"), position: tnode.position)
            }
        }
        var mode: RouteMode? = .level
        if let mnode = r.value("mode") { mode = d.choice(mnode, at: path.appending("mode"), as: RouteMode.self, what: "mode") }
        let depth = r.number("depth", required: true, in: Route.depthRange)
        let smoothing = r.number("smoothing", in: Route.smoothingRange)
        let curve = r.number("curve", in: Route.curveRange) ?? 1
        let invert = r.bool("invert") ?? false
        let muted = r.bool("muted") ?? false
        let extras = r.unknownMembers()
        guard d.errors.count == before, let source, let target, let mode, let depth else { return nil }
        return Route(source: source, target: target, mode: mode, depth: depth, smoothing: smoothing, curve: curve,
                     invert: invert, muted: muted, extraMembers: extras)
    }

    // MARK: writing

    /// The config as a JSON tree in the documented field order, with unknown
    /// members written back where they belong.
    public var jsonNode: JSONNode {
        var top: [(String, JSONNode)] = [
            ("format", .number(Double(Self.formatVersion))),
            ("name", .string(name)),
            ("enabled", .bool(enabled)),
            (AudioTuning.autoGainKey, .bool(tuning.autoGain)),
        ]
        top += AudioTuning.fields.filter { $0.placement == .config }.map { ($0.key, JSONNode.number(tuning[field: $0])) }
        top.append(("reactivity", .number(reactivity)))
        var tuningMembers = AudioTuning.fields.filter { $0.placement == .tuning }.map { ($0.key, JSONNode.number(tuning[field: $0])) }
        tuningMembers += tuning.extraMembers.map { ($0.key, $0.value) }
        top.append(("tuning", .object(tuningMembers)))
        if let bands = tuning.bands { top.append(("bands", .array(bands.map(JSONNode.number)))) }
        top.append(("routes", .array(routes.map(Self.routeNode))))
        top += extraMembers.map { ($0.key, $0.value) }
        return .object(top)
    }

    /// The config as pretty JSON text (what saves write).
    public var jsonText: String { JSONWriter.pretty(jsonNode) }

    private static func routeNode(_ r: Route) -> JSONNode {
        var m: [(String, JSONNode)] = [
            ("source", .string(r.source.rawValue)),
            ("target", .string(r.target.id)),
            ("mode", .string(r.mode.rawValue)),
            ("depth", .number(r.depth)),
        ]
        if let s = r.smoothing { m.append(("smoothing", .number(s))) }
        if r.curve != 1 { m.append(("curve", .number(r.curve))) }
        if r.invert { m.append(("invert", .bool(true))) }
        if r.muted { m.append(("muted", .bool(true))) }
        m += r.extraMembers.map { ($0.key, $0.value) }
        return .object(m)
    }
}
