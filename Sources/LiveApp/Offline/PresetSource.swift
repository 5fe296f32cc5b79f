import Engine
import Foundation
import LiveCore
import Storage

/// Resolves a `--preset` argument: a factory preset's id or name, or a path to
/// a preset JSON file (anything ending in `.json`).
enum PresetSource {
    static func resolve(_ arg: String) throws -> Preset {
        if arg.hasSuffix(".json") {
            do {
                return try Preset.load(path: arg)
            } catch {
                throw UsageError(error.description)
            }
        }
        let catalog = PresetCatalog.factory()
        if let notice = catalog.notice { throw RuntimeFailure(notice) }
        if let p = catalog.preset(named: arg) { return p }
        if let bad = catalog.problems.first(where: { ($0.file as NSString).deletingPathExtension.lowercased() == arg.lowercased() }) {
            throw RuntimeFailure("preset '\(arg)' could not be loaded: \(bad.description)")
        }
        let known = catalog.presets.map(\.id).joined(separator: ", ")
        throw UsageError("unknown preset '\(arg)' (known: \(known); or give a path to a .json file)")
    }

    /// A bench setup from `configs/bench/NAME.json` (preset format).
    static func benchSetup(_ name: String) throws -> Preset {
        let (dir, location) = ConfigDirectory.subdirectory("bench")
        guard let dir else { throw RuntimeFailure(location.notice ?? "no bench/ folder in \(location.path ?? "configs")") }
        return try resolve((dir as NSString).appendingPathComponent(name + ".json"))
    }
}
