import Engine
import Foundation
import Storage

/// The audio config in use, and what went wrong the last time a new one was
/// offered. Applying a file that does not load keeps the config in use (and
/// never touches the file); the errors are kept for the UI and stderr.
/// A value type owned by the app's main thread.
public struct ActiveAudioConfig: Sendable {
    /// The config in use (always a valid one).
    public private(set) var config: AudioConfig
    /// The file it came from, if any (live reload follows it).
    public private(set) var url: URL?
    /// Warnings of the config in use (e.g. unknown keys kept).
    public private(set) var warnings: [JSONError] = []
    /// Errors of the last failed apply or reload; cleared by a successful one.
    public private(set) var lastErrors: [JSONError] = []
    /// Incremented whenever the config in use changes.
    public private(set) var generation = 0

    /// Starts with `config` (the built-in default unless given).
    public init(config: AudioConfig = .builtInDefault, url: URL? = nil) {
        self.config = config
        self.url = url
    }

    /// Makes a file's config the one in use; on failure keeps the current one,
    /// records the errors and rethrows them.
    @discardableResult
    public mutating func apply(contentsOf url: URL) throws(JSONErrorList) -> LoadedAudioConfig {
        do {
            let loaded = try AudioConfig.load(contentsOf: url)
            use(loaded, from: url)
            return loaded
        } catch {
            lastErrors = error.errors
            throw error
        }
    }

    /// Makes `config` the one in use (e.g. built in the editor).
    public mutating func apply(_ config: AudioConfig, url: URL? = nil) {
        use(LoadedAudioConfig(config: config, warnings: []), from: url)
    }

    /// Takes a live-reload result: a reloaded config becomes the one in use; a
    /// failed reload only records its errors.
    public mutating func handle(_ update: AudioConfigWatcher.Update) {
        switch update {
        case .reloaded(let loaded, let from):
            use(loaded, from: from)
        case .failed(let errors, _):
            lastErrors = errors.errors
        }
    }

    private mutating func use(_ loaded: LoadedAudioConfig, from: URL?) {
        config = loaded.config
        warnings = loaded.warnings
        url = from
        lastErrors = []
        generation += 1
    }
}
