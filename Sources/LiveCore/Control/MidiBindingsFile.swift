import Foundation
import Storage

/// The MIDI bindings file, `$XDG_CONFIG_HOME/physarum/midi-bindings.json`:
///
///     {"format": 1, "bindings": [
///       {"control": {"type": "cc", "channel": 1, "number": 21},
///        "target": "param/global.exposure", "mode": "absolute", "low": 0, "high": 1}]}
///
/// Channels 1…16 as controllers print them; `type` cc | cc14 | note |
/// pitchBend; `target` a `ControlTarget` id; `low`/`high` on the target's
/// 0…1 scale. Read strictly (FILE:LINE:COL: path: reason); written
/// atomically. A broken file is reported and never overwritten.
public enum MidiBindingsFile {
    public static let formatVersion = 1

    /// The file's place under the XDG config folder.
    public static func defaultURL(environment env: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        UserFolders.app(.config, env).appendingPathComponent("midi-bindings.json")
    }

    /// JSON text of `bindings` (and the templates chosen by hand).
    public static func text(_ bindings: [MidiBinding], templates: [String] = []) -> String {
        let list: [JSONNode] = bindings.map(node)
        var m: [(String, JSONNode)] = [("format", .number(Double(formatVersion)))]
        if !templates.isEmpty { m.append(("templates", .array(templates.map(JSONNode.string)))) }
        m.append(("bindings", .array(list)))
        return JSONWriter.pretty(.object(m))
    }

    /// One binding as the file writes it.
    static func node(_ b: MidiBinding) -> JSONNode {
        var m: [(String, JSONNode)] = [
            ("control", .object([("type", .string(b.control.kind.rawValue)), ("channel", .number(Double(b.control.channel + 1))),
                                 ("number", .number(Double(b.control.number)))])),
            ("target", .string(b.target.id)), ("mode", .string(b.mode.rawValue)),
            ("low", .number(b.low)), ("high", .number(b.high)),
        ]
        if b.onValue != 127 { m.append(("on", .number(Double(b.onValue)))) }
        if b.offValue != 0 { m.append(("off", .number(Double(b.offValue)))) }
        return .object(m)
    }

    /// Parses the file's text; throws the first problem as `FILE:LINE:COL: path: reason`.
    public static func decode(_ data: Data, file: String) throws -> [MidiBinding] {
        try decodeMapping(data, file: file).bindings
    }

    /// Parses the file's text: the bindings and the templates chosen by hand.
    public static func decodeMapping(_ data: Data, file: String) throws -> (bindings: [MidiBinding], templates: [String]) {
        let root = try RuntimeFailure.document(data, limit: 1 << 20, file: file)
        let d = JSONDiagnostics(file: file)
        guard var r = d.object(root, at: .root) else { throw RuntimeFailure(d.errors.first?.description ?? "\(file): not an object") }
        if let f = r.int("format", required: true, in: 0...1000), f != formatVersion {
            d.error("unknown bindings format \(f) (this build reads \(formatVersion))", at: JSONPath.root.appending("format"), position: root.position)
        }
        let templates = (r.array("templates", maxCount: 64) ?? []).enumerated().compactMap {
            d.name($1, at: JSONPath.root.appending("templates").appending($0), maxLength: 100)
        }
        var out: [MidiBinding] = []
        let listPath = JSONPath.root.appending("bindings")
        for (i, node) in (r.array("bindings", required: true, maxCount: 4096) ?? []).enumerated() {
            if let b = binding(node, at: listPath.appending(i), d) { out.append(b) }
        }
        r.rejectUnknown()
        if let e = d.errors.first { throw RuntimeFailure(e.description) }
        return (out, templates)
    }

    /// One binding entry (the bindings file's and a controller template's), problems into `d`.
    static func binding(_ node: JSONNode, at path: JSONPath, _ d: JSONDiagnostics) -> MidiBinding? {
        guard var b = d.object(node, at: path) else { return nil }
        var control: MidiControl?
        if var c = b.object("control", required: true) {
            let kind = c.choice("type", as: MidiControl.Kind.self, required: true)
            let channel = c.int("channel", required: true, in: 1...16)
            let number = c.int("number", in: 0...127) ?? 0
            if let kind, let channel {
                if kind == .cc14 && number > 31 {
                    d.error("a 14-bit pair's number is its MSB controller, 0…31", at: path.appending("control").appending("number"), position: c.object["number"]?.position ?? c.node.position)
                } else {
                    control = MidiControl(kind, channel: channel - 1, number: kind == .pitchBend ? 0 : number)
                }
            }
            c.rejectUnknown()
        }
        var target: ControlTarget?
        if let id = b.string("target", required: true, maxLength: 300) {
            target = ControlTarget(id: id)
            if target == nil {
                d.error("unknown target '\(id)' (see docs/live-control.md for the target names)", at: path.appending("target"), position: b.object["target"]?.position ?? b.node.position)
            }
        }
        let mode = b.choice("mode", as: MidiMode.self)
        let low = b.number("low", in: 0...1) ?? 0
        let high = b.number("high", in: 0...1) ?? 1
        let on = b.int("on", in: 0...127) ?? 127
        let off = b.int("off", in: 0...127) ?? 0
        b.rejectUnknown()
        guard let control, let target else { return nil }
        return MidiBinding(control: control, target: target, mode: mode, low: low, high: high, onValue: on, offValue: off)
    }

    /// Reads the file: no bindings and a problem when it is broken; no
    /// bindings and no problem when there is none.
    public static func load(from url: URL) -> (bindings: [MidiBinding], templates: [String], problem: String?) {
        guard SafeFile.entryExists(url) else { return ([], [], nil) }  // a link loop is reported, not taken for "none"
        if let target = try? SafeFile.resolveLinks(url), !SafeFile.entryExists(target) { return ([], [], nil) }
        do {
            let data: Data
            do { data = try SafeFile.read(url, limit: 1 << 20) } catch { throw RuntimeFailure("\(url.path): \(error.reason)") }
            let m = try decodeMapping(data, file: url.path)
            return (m.bindings, m.templates, nil)
        } catch {
            return ([], [], "MIDI bindings not loaded: \(error)")
        }
    }

    /// Writes the file atomically (creating its folder).
    public static func save(_ bindings: [MidiBinding], templates: [String] = [], to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try SafeFile.writeAtomically(Data(text(bindings, templates: templates).utf8), to: url)
    }
}
