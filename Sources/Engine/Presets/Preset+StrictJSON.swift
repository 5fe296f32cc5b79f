import Foundation
import Storage

/// Strict reading and writing of one preset document
/// `{"format":1,"name":…,"tags":[…],"params":{…}}` through `StrictJSON`, so a
/// bad file is reported with line:column, the JSON path and the reason.
/// Pure; safe from any thread.
extension Preset {
    /// Largest accepted preset file in bytes.
    public static let maxFileBytes = 256 * 1024
    /// Longest accepted name in a preset file.
    public static let maxNameLength = 100
    /// Most tags a preset may carry, and the longest tag.
    public static let maxTags = 32
    public static let maxTagLength = 40

    /// Reads a preset document, reporting every problem into `diagnostics`;
    /// nil when there was any. Unknown top-level keys are errors (a preset
    /// file is small and exact; a typo must not pass silently).
    public init?(strict node: JSONNode, id: String, diagnostics: JSONDiagnostics) {
        guard var r = diagnostics.object(node, at: .root) else { return nil }
        let before = diagnostics.errors.count
        if let f = r.int("format", required: true, in: 0...Int.max), f != Preset.formatVersion {
            diagnostics.error("unsupported format \(f) (this build reads format \(Preset.formatVersion))",
                              at: JSONPath.root.appending("format"), position: r.object["format"]?.position ?? node.position)
        }
        let name = r.name("name", required: true, maxLength: Preset.maxNameLength)
        var tags: [String] = []
        if let list = r.array("tags", maxCount: Preset.maxTags) {
            for (k, t) in list.enumerated() {
                if let s = diagnostics.name(t, at: JSONPath.root.appending("tags").appending(k), maxLength: Preset.maxTagLength) {
                    tags.append(String(s.trimmingSpaces))
                }
            }
        }
        var params: PresetParams?
        if let p = r.value("params", required: true) {
            params = PresetParams(strict: p, path: JSONPath.root.appending("params"), diagnostics: diagnostics)
        }
        r.rejectUnknown()
        guard diagnostics.errors.count == before, let name, let params else { return nil }
        self.init(id: id, name: String(name.trimmingSpaces), tags: tags, params: params)
    }

    /// Parses a preset file's bytes; `file` names it in errors. Throws every
    /// problem found (syntax errors stop at the first).
    public static func parse(data: Data, id: String, file: String?) throws(JSONErrorList) -> Preset {
        let d = JSONDiagnostics(file: file)
        let node: JSONNode
        do {
            node = try StrictJSON.parse(data: data, limit: maxFileBytes)
        } catch {
            throw JSONErrorList([error.inFile(file)])
        }
        guard let p = Preset(strict: node, id: id, diagnostics: d) else { throw JSONErrorList(d.errors) }
        return p
    }

    /// The preset document (format, name, tags, params in registry order).
    public var jsonNode: JSONNode {
        .object([
            ("format", .number(Double(Preset.formatVersion))),
            ("name", .string(name)),
            ("tags", .array(tags.map { .string($0) })),
            ("params", params.jsonNode),
        ])
    }

    /// The preset file's text (pretty-printed, ends with a newline).
    public var fileText: String { JSONWriter.pretty(jsonNode) }
}
