import AudioReactive
import Engine
import Foundation

/// Resolves a `--config` argument: a path to an audio config JSON file
/// (anything ending in `.json` or containing `/`), or the name of a shipped
/// or user config as `physarum config list` shows it (or its file name
/// without `.json`). Loading is strict; an invalid file is a usage error
/// naming the file, line:column and JSON path.
enum AudioConfigSource {
    static func resolve(_ arg: String, store: AudioConfigStore = AudioConfigStore()) throws -> LoadedAudioConfig {
        if arg.hasSuffix(".json") || arg.contains("/") {
            guard FileManager.default.fileExists(atPath: arg) else { throw UsageError("cannot read audio config '\(arg)': no such file") }
            return try load(URL(fileURLWithPath: arg))
        }
        let entries = store.list()
        let wanted = arg.lowercased()
        let match = entries.first { $0.isValid && $0.name.lowercased() == wanted }
            ?? entries.first { $0.url.deletingPathExtension().lastPathComponent.lowercased() == wanted }
        guard let match else {
            let known = entries.filter(\.isValid).map(\.name).joined(separator: ", ")
            throw UsageError("unknown audio config '\(arg)' (known: \(known.isEmpty ? "none found" : known); or give a path to a .json file)")
        }
        return try load(match.url)
    }

    private static func load(_ url: URL) throws -> LoadedAudioConfig {
        do {
            return try AudioConfig.load(contentsOf: url)
        } catch {
            let first = error.errors.first?.description ?? "\(url.path): invalid"
            let more = error.errors.count - 1
            throw UsageError(first + (more > 0 ? " (and \(more) more; see `physarum config validate`)" : ""))
        }
    }
}
