import Engine
import Foundation
import Storage
import Synchronization

/// Follows one config file on disk: when it is saved (in place or by rename),
/// it is re-read and validated on the watcher thread, and the result waits
/// for the render loop to `poll()` it. Invalid text yields `.failed` (the app
/// keeps its last good config); the file is never written.
///
/// Thread-safe: `poll()` from the main thread, loading on the watcher thread.
public final class AudioConfigWatcher: Sendable {
    /// The outcome of a reload.
    public enum Update: Sendable {
        /// The file changed and loads: use it.
        case reloaded(LoadedAudioConfig, URL)
        /// The file changed but does not load (or disappeared): keep the current config.
        case failed(JSONErrorList, URL)
    }

    /// The file followed.
    public let file: URL
    private let pending: Pending
    private let watcher: DirectoryWatcher

    private final class Pending: Sendable {
        let update = Mutex<Update?>(nil)
    }

    /// Starts following `file` (its directory must exist).
    public init(file: URL, debounce: Double = 0.15) throws(FileError) {
        self.file = file
        let pending = Pending()
        self.pending = pending
        let name = file.lastPathComponent
        watcher = try DirectoryWatcher(directory: file.deletingLastPathComponent(), debounce: debounce) { changed in
            guard changed.isEmpty || changed.contains(name) else { return }
            let update: Update
            do throws(JSONErrorList) {
                update = .reloaded(try AudioConfig.load(contentsOf: file), file)
            } catch {
                update = .failed(error, file)
            }
            pending.update.withLock { $0 = update }
        }
    }

    /// The latest reload result not yet taken, if any (never blocks for long).
    public func poll() -> Update? {
        pending.update.withLock { u in
            defer { u = nil }
            return u
        }
    }

    /// Stops following the file.
    public func stop() { watcher.stop() }
}
