import Foundation

/// Reading and writing one preset file.
///
/// Parsing goes through `parse(_:file:)` only, so the JSON reader can be
/// swapped in one place. It currently uses Foundation's `JSONDecoder` (which
/// cannot report line:column nor reject duplicate keys); the strict reader
/// from `Engine/JSON` replaces it once merged.
enum PresetFile {
    /// Largest accepted preset file.
    static let maxBytes = 256 * 1024

    /// Decodes a preset file's bytes. `file` names it in errors; the preset id
    /// is the file name without `.json`.
    static func parse(_ data: Data, file: String) throws(PresetLoadError) -> Preset {
        let id = (file as NSString).deletingPathExtension
        guard data.count <= maxBytes else {
            throw PresetLoadError(file: file, path: "(top level)", reason: "file is \(data.count) bytes, over the limit of \(maxBytes)")
        }
        do {
            let doc = try JSONDecoder().decode(Document.self, from: data)
            return Preset(id: id, name: doc.name, tags: doc.tags, params: doc.params)
        } catch let e as DecodingError {
            throw describe(e, file: file)
        } catch {
            throw PresetLoadError(file: file, path: "(top level)", reason: "\(error)")
        }
    }

    /// The file bytes of a preset (pretty, keys sorted, ends with a newline).
    static func encode(_ preset: Preset) throws -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try enc.encode(Document(name: preset.name, tags: preset.tags, params: preset.params))
        data.append(0x0A)
        return data
    }

    /// The top-level object of a preset file.
    struct Document: Codable {
        var name: String
        var tags: [String]
        var params: PresetParams

        enum Keys: String, CodingKey, CaseIterable { case format, name, tags, params }

        /// Any key, to find unknown members.
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(name: String, tags: [String], params: PresetParams) {
            self.name = name
            self.tags = tags
            self.params = params
        }

        init(from decoder: Decoder) throws {
            let all = try decoder.container(keyedBy: AnyKey.self)
            for k in all.allKeys where Keys(rawValue: k.stringValue) == nil {
                throw DecodingError.dataCorruptedError(forKey: k, in: all, debugDescription: "unknown member '\(k.stringValue)' (expected format, name, tags, params)")
            }
            let c = try decoder.container(keyedBy: Keys.self)
            let format = try c.decode(Int.self, forKey: .format)
            guard format == Preset.formatVersion else {
                throw DecodingError.dataCorruptedError(forKey: .format, in: c, debugDescription: "unsupported format \(format) (this build reads format \(Preset.formatVersion))")
            }
            name = try c.decode(String.self, forKey: .name)
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 100 else {
                throw DecodingError.dataCorruptedError(forKey: .name, in: c, debugDescription: "name must be 1…100 characters")
            }
            tags = try c.decodeIfPresent([String].self, forKey: .tags) ?? []
            params = try c.decode(PresetParams.self, forKey: .params)
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(Preset.formatVersion, forKey: .format)
            try c.encode(name, forKey: .name)
            try c.encode(tags, forKey: .tags)
            try c.encode(params, forKey: .params)
        }
    }

    /// A `DecodingError` as file + JSON path + reason.
    static func describe(_ e: DecodingError, file: String) -> PresetLoadError {
        func path(_ keys: [CodingKey]) -> String {
            if keys.isEmpty { return "(top level)" }
            var s = ""
            for k in keys {
                if let i = k.intValue { s += "[\(i)]"; continue }
                let plain = !k.stringValue.isEmpty && k.stringValue.unicodeScalars.allSatisfy {
                    CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" || $0 == "."
                }
                s += plain ? (s.isEmpty ? k.stringValue : "." + k.stringValue) : "[\"\(k.stringValue)\"]"
            }
            return s
        }
        switch e {
        case .typeMismatch(let type, let ctx):
            return PresetLoadError(file: file, path: path(ctx.codingPath), reason: "expected \(describeType(type))")
        case .valueNotFound(let type, let ctx):
            return PresetLoadError(file: file, path: path(ctx.codingPath), reason: "expected \(describeType(type)), found null")
        case .keyNotFound(let key, let ctx):
            return PresetLoadError(file: file, path: path(ctx.codingPath + [key]), reason: "required member is missing")
        case .dataCorrupted(let ctx):
            // Syntax errors arrive here with an underlying NSError and no path.
            if ctx.codingPath.isEmpty, let u = ctx.underlyingError {
                return PresetLoadError(file: file, path: "(top level)", reason: "not valid JSON: \(u.localizedDescription)")
            }
            return PresetLoadError(file: file, path: path(ctx.codingPath), reason: ctx.debugDescription)
        @unknown default:
            return PresetLoadError(file: file, path: "(top level)", reason: "\(e)")
        }
    }

    private static func describeType(_ t: Any.Type) -> String {
        switch t {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is [String].Type: "an array of strings"
        default: "a value of type \(t)"
        }
    }
}

extension Preset {
    /// Decodes a preset file's bytes; `file` (its name) sets the id and names
    /// the file in errors.
    public static func decode(_ data: Data, file: String) throws(PresetLoadError) -> Preset {
        try PresetFile.parse(data, file: file)
    }

    /// The preset as file bytes (format 1, pretty-printed, keys sorted).
    public func encoded() throws -> Data { try PresetFile.encode(self) }
}
