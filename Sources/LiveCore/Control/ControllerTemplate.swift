import Foundation
import Storage

/// A shipped mapping for one controller model (`configs/controllers/*.json`):
/// its name, the port names it is chosen for, and its bindings from the
/// maker's documented CC/note layout. Chosen automatically while a port
/// whose name matches is connected, or by hand in the MIDI panel; its
/// bindings sit under the user's own (a learned binding of the same
/// control wins).
public struct ControllerTemplate: Equatable, Sendable, Identifiable {
    /// The file's name without `.json` ("akai-apc-mini").
    public var id: String
    public var name: String
    /// Substrings of a port name (any case) that pick this template.
    public var match: [String]
    /// Substrings that rule a port out (another model of the same family).
    public var exclude: [String]
    /// What the layout does, for the panel.
    public var summary: String
    public var bindings: [MidiBinding]

    public init(id: String, name: String, match: [String], exclude: [String] = [], summary: String = "", bindings: [MidiBinding]) {
        self.id = id
        self.name = name
        self.match = match
        self.exclude = exclude
        self.summary = summary
        self.bindings = bindings
    }

    /// Whether a port of this name is this controller.
    public func matches(_ port: String) -> Bool {
        let p = port.lowercased()
        return match.contains { p.contains($0.lowercased()) } && !exclude.contains { p.contains($0.lowercased()) }
    }
}

/// Reads controller templates strictly:
///
///     {"format": 1, "name": "Akai APC mini", "match": ["APC MINI"], "exclude": ["mk2"],
///      "summary": "…", "bindings": [ … entries as in the bindings file, with optional
///      "on"/"off" (0…127): the velocity or value a lit/unlit control is sent … ]}
///
/// Problems read `FILE:LINE:COL: path: reason`.
public enum ControllerTemplateFile {
    /// The shipped templates' folder (`configs/controllers`).
    public static let folder = "controllers"

    public static func decode(_ data: Data, file: String, id: String) throws -> ControllerTemplate {
        let root = try RuntimeFailure.document(data, limit: 1 << 20, file: file)
        let d = JSONDiagnostics(file: file)
        guard var r = d.object(root, at: .root) else { throw RuntimeFailure(d.errors.first?.description ?? "\(file): not an object") }
        if let f = r.int("format", required: true, in: 0...1000), f != MidiBindingsFile.formatVersion {
            d.error("unknown template format \(f) (this build reads \(MidiBindingsFile.formatVersion))", at: JSONPath.root.appending("format"), position: root.position)
        }
        let name = r.string("name", required: true, maxLength: 100, nonEmpty: true) ?? id
        func strings(_ key: String, required: Bool) -> [String] {
            (r.array(key, required: required, maxCount: 16) ?? []).enumerated().compactMap {
                d.string($1, at: JSONPath.root.appending(key).appending($0), maxLength: 100, nonEmpty: true)
            }
        }
        let match = strings("match", required: true)
        let exclude = strings("exclude", required: false)
        let summary = r.string("summary", maxLength: 2000) ?? ""
        var bindings: [MidiBinding] = []
        let listPath = JSONPath.root.appending("bindings")
        for (i, node) in (r.array("bindings", required: true, maxCount: 1024) ?? []).enumerated() {
            if let b = MidiBindingsFile.binding(node, at: listPath.appending(i), d) { bindings.append(b) }
        }
        r.rejectUnknown()
        if let e = d.errors.first { throw RuntimeFailure(e.description) }
        return ControllerTemplate(id: id, name: name, match: match, exclude: exclude, summary: summary, bindings: bindings)
    }

    /// Every template in `directory` (sorted by id), and a problem per file that does not read.
    public static func load(from directory: URL?) -> (templates: [ControllerTemplate], problems: [String]) {
        guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return ([], []) }
        var out: [ControllerTemplate] = [], problems: [String] = []
        for n in names.sorted() where n.hasSuffix(".json") {
            let url = directory.appendingPathComponent(n)
            do {
                let data: Data
                do { data = try SafeFile.read(url, limit: 1 << 20) } catch { throw RuntimeFailure("\(url.path): \(error.reason)") }
                out.append(try decode(data, file: url.path, id: String(n.dropLast(5))))
            } catch {
                problems.append("Controller template not loaded: \(error)")
            }
        }
        return (out, problems)
    }
}
