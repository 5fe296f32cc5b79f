import Foundation
import Storage

/// Reading one preset file: through `SafeFile` (type and size checked
/// before a byte is read), then the strict reader of `Preset+StrictJSON`.
enum PresetFile {
    /// Reads the preset file at `path` through `SafeFile` (a regular file of at
    /// most `Preset.maxFileBytes`; a FIFO, device, directory or larger file is
    /// refused before a byte is read) and decodes it. Problems with the file as
    /// a whole name it `label` (default: the path); the others by its name.
    static func read(path: String, label: String? = nil) throws(PresetLoadError) -> Preset {
        let name = (path as NSString).lastPathComponent
        let data: Data
        do {
            data = try SafeFile.read(URL(fileURLWithPath: path), limit: Preset.maxFileBytes)
        } catch {
            throw PresetLoadError(file: label ?? path, path: JSONPath.root.description, reason: error.reason)
        }
        return try parse(data, file: name)
    }

    /// Decodes a preset file's bytes. `file` names it in errors; the preset id
    /// is the file name without `.json`. Throws the first problem found.
    static func parse(_ data: Data, file: String) throws(PresetLoadError) -> Preset {
        let name = (file as NSString).lastPathComponent
        do {
            return try Preset.parse(data: data, id: (name as NSString).deletingPathExtension, file: name)
        } catch {
            throw PresetLoadError(error.errors.first ?? JSONError(file: name, position: .unknown, path: .root, reason: "not a preset"))
        }
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
    public func encoded() -> Data { Data(fileText.utf8) }
}
