import Foundation
import Storage

/// The factory presets: every `*.json` file in a presets directory, sorted by
/// id. A file that cannot be used is reported in `problems` (file, JSON path,
/// reason) and skipped; loading never fails as a whole.
/// A value type; safe to share between threads.
public struct PresetCatalog: Sendable {
    /// The presets that loaded, sorted by id.
    public let presets: [Preset]
    /// Files that were skipped, with the reason.
    public let problems: [PresetLoadError]
    /// The directory read, nil when none was found.
    public let directory: String?
    /// A notice for the user when the directory was not found.
    public let notice: String?

    /// Loads the factory presets from `configs/presets` (see `ConfigDirectory`).
    public static func factory() -> PresetCatalog {
        let (dir, location) = ConfigDirectory.subdirectory("presets")
        guard let dir else {
            let notice = location.notice
                ?? "no presets/ folder in \(location.path ?? "configs") — factory presets are unavailable"
            return PresetCatalog(presets: [], problems: [], directory: nil, notice: notice)
        }
        return load(directory: dir)
    }

    /// Loads every `*.json` file of `directory`.
    public static func load(directory: String) -> PresetCatalog {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else {
            return PresetCatalog(presets: [], problems: [], directory: nil, notice: "cannot read the presets folder \(directory)")
        }
        var presets: [Preset] = []
        var problems: [PresetLoadError] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                let p = try PresetFile.read(path: path, label: name)
                if let dup = presets.first(where: { $0.name.lowercased() == p.name.lowercased() }) {
                    problems.append(PresetLoadError(file: name, path: "name", reason: "name '\(p.name)' is already used by \(dup.id).json"))
                    continue
                }
                presets.append(p)
            } catch {
                problems.append(error)
            }
        }
        return PresetCatalog(presets: presets, problems: problems, directory: directory, notice: nil)
    }

    /// A preset by id or by name (case-insensitive).
    public func preset(named query: String) -> Preset? {
        let q = query.lowercased()
        return presets.first { $0.id.lowercased() == q } ?? presets.first { $0.name.lowercased() == q }
    }
}
