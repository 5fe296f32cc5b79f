import Foundation
import Storage

/// Reading and writing one preset file, through the strict JSON reader
/// (`StrictJSON`): syntax errors and duplicate keys are rejected, and every
/// problem carries the line:column and the JSON path.
enum PresetFile {
    /// Largest accepted preset file.
    static let maxBytes = 256 * 1024
    /// Most tags a preset may carry, and their longest length.
    static let maxTags = 32, maxTagLength = 40

    /// Reads the preset file at `path` through `SafeFile` (a regular file of at
    /// most `maxBytes`; a FIFO, device, directory or larger file is refused
    /// before a byte is read) and decodes it. Problems with the file as a
    /// whole name it `label` (default: the path); the others by its name.
    static func read(path: String, label: String? = nil) throws(PresetLoadError) -> Preset {
        let name = (path as NSString).lastPathComponent
        let data: Data
        do {
            data = try SafeFile.read(URL(fileURLWithPath: path), limit: maxBytes)
        } catch {
            throw PresetLoadError(file: label ?? path, path: JSONPath.root.description, reason: error.reason)
        }
        return try parse(data, file: name)
    }

    /// Decodes a preset file's bytes. `file` names it in errors; the preset id
    /// is the file name without `.json`. Throws the first problem found.
    static func parse(_ data: Data, file: String) throws(PresetLoadError) -> Preset {
        let name = (file as NSString).lastPathComponent
        let id = (name as NSString).deletingPathExtension
        let node: JSONNode
        do {
            node = try StrictJSON.parse(data: data, limit: maxBytes)
        } catch {
            throw PresetLoadError(error.inFile(name))
        }
        let d = JSONDiagnostics(file: name)
        var preset: Preset?
        if var r = d.object(node, at: .root) {
            if let format = r.int("format", required: true, in: 0...1_000_000), format != Preset.formatVersion {
                let pos = r.object["format"]?.position ?? node.position
                d.error("unsupported format \(format) (this build reads format \(Preset.formatVersion))",
                        at: JSONPath.root.appending("format"), position: pos)
            }
            let title = r.string("name", required: true, maxLength: 100, nonEmpty: true)
            var tags: [String] = []
            if let list = r.array("tags", maxCount: maxTags) {
                for (i, t) in list.enumerated() {
                    if let s = d.string(t, at: JSONPath.root.appending("tags").appending(i), maxLength: maxTagLength, nonEmpty: true) {
                        tags.append(s)
                    }
                }
            }
            var params: PresetParams?
            if let p = r.value("params", required: true) {
                params = PresetParams(strict: p, path: JSONPath.root.appending("params"), diagnostics: d)
            }
            r.rejectUnknown()
            if let title, let params, !d.hasErrors { preset = Preset(id: id, name: title, tags: tags, params: params) }
        }
        guard let preset, !d.hasErrors else {
            throw PresetLoadError(d.errors.first ?? JSONError(file: name, position: .unknown, path: .root, reason: "not a preset"))
        }
        return preset
    }

    /// The file bytes of a preset: format 1, name, tags, then every
    /// parameter in registry order; pretty-printed, ends with a newline.
    static func encode(_ preset: Preset) -> Data {
        let doc = JSONNode.object([
            ("format", .number(Double(Preset.formatVersion))),
            ("name", .string(preset.name)),
            ("tags", .array(preset.tags.map(JSONNode.string))),
            ("params", preset.params.jsonNode),
        ])
        return Data((JSONWriter.pretty(doc) + "\n").utf8)
    }
}

extension Preset {
    /// Decodes a preset file's bytes; `file` (its name) sets the id and names
    /// the file in errors.
    public static func decode(_ data: Data, file: String) throws(PresetLoadError) -> Preset {
        try PresetFile.parse(data, file: file)
    }

    /// Reads and decodes the preset file at `path` (see `PresetFile.read`):
    /// nothing is read unless it is a regular file within the size limit.
    public static func load(path: String) throws(PresetLoadError) -> Preset {
        try PresetFile.read(path: path)
    }

    /// The preset as file bytes (format 1, pretty-printed).
    public func encoded() -> Data { PresetFile.encode(self) }
}
