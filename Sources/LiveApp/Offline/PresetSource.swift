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

    /// The preset a window or a host starts with for `--preset ARG`: a
    /// preset file (a path ending in `.json`), a factory preset's id or name,
    /// or a library preset's id; else nil and a notice saying why (a path that
    /// is not a `.json` file is named as a path, not as a preset name).
    static func starting(_ arg: String, catalog: PresetCatalog, library: LibraryModel) -> (preset: Preset?, notice: String?) {
        if arg.hasSuffix(".json") {
            // A preset file (e.g. one exported from the library, or configs/bench/all-effects.json).
            do { return (try resolve(arg), nil) } catch { return (nil, "--preset: \(error); starting with the first preset") }
        }
        if let p = catalog.preset(named: arg) ?? library.playOrder.first(where: { $0.id == arg }) { return (p, nil) }
        if arg.contains("/") {
            return (nil, "--preset \(arg): a preset file must be a .json file, and this is not a preset name; starting with the first preset")
        }
        return (nil, "There is no preset '\(arg)' (see `physarum presets list`, or give a .json file); starting with the first one")
    }

    /// A bench setup from `configs/bench/NAME.json` (preset format).
    static func benchSetup(_ name: String) throws -> Preset {
        let (dir, location) = ConfigDirectory.subdirectory("bench")
        guard let dir else { throw RuntimeFailure(location.notice ?? "no bench/ folder in \(location.path ?? "configs")") }
        return try resolve((dir as NSString).appendingPathComponent(name + ".json"))
    }
}
