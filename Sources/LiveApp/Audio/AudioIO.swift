import AudioReactive
import Engine
import Foundation
import LiveCore
import Storage
import Synchronization

/// Executes the audio panel's file and source work off the frame path:
/// config list/load/save/rename/export/import/delete on the shared file
/// worker, source listing on its own worker (a silent server may take its
/// whole timeout), and the live-reload watcher of the config being edited.
/// Results come back as app actions (worker replies, `pollReload`).
///
/// Thread safety: `perform`, `pollReload` and `drainReplies` from the main
/// thread; jobs run on the workers; the watcher slot is behind a `Mutex`.
final class AudioIO: Sendable {
    let store: AudioConfigStore
    let files: FileWorker<AppAction>
    let sourceWorker: FileWorker<AppAction>
    private let listSources: @Sendable () throws -> [PulseSourceInfo]
    private let watcher = WatcherSlot()

    /// The live-reload watcher, shared with the worker that (re)creates it.
    private final class WatcherSlot: Sendable {
        let current = Mutex<AudioConfigWatcher?>(nil)
        func withLock<R>(_ body: (inout AudioConfigWatcher?) -> R) -> R { current.withLock { body(&$0) } }
    }

    /// `listSources` defaults to the PulseAudio server's list (2 s timeout).
    init(store: AudioConfigStore, files: FileWorker<AppAction>,
         listSources: @escaping @Sendable () throws -> [PulseSourceInfo] = { try PulseSources.list(timeout: 2) }) {
        self.store = store
        self.files = files
        self.listSources = listSources
        sourceWorker = FileWorker(name: "physarum.sources", capacity: 4)
    }

    /// Queues `body` on the file worker; an error it throws becomes a `failure` notice.
    private func job(_ failure: String, _ body: @escaping @Sendable () throws -> [AppAction]) -> Bool {
        files.submit {
            do { return try body() } catch { return [Self.failure(failure, "\(error)")] }
        }
    }

    /// Queues the work of `effect` (`.configure`, `.switchSource` and `.beat` belong
    /// to the shell and are ignored here). Returns actions to apply at once.
    func perform(_ effect: AudioEffect) -> [AppAction] {
        let store = store
        let queued: Bool
        switch effect {
        case .configure, .switchSource, .beat:
            return []
        case .listConfigs:
            queued = files.submit(key: "audio.list") { [.audio(.configsListed(store.list()))] }
        case .load(let url):
            queued = job("Audio config not applied, the one in use stays") {
                [.audio(.loaded(try AudioConfig.load(contentsOf: url).config, url))]
            }
        case .saveAs(let config, let name, let replace):
            queued = job("Audio config not saved") {
                let url = try store.save(config, as: name, replace: replace)
                var c = config
                c.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
                return [.audio(.saved(c, url)), .notice("Audio config saved as \(url.path)", .info)]
            }
        case .overwrite(let config, let url):
            queued = job("Audio config not saved") {
                if let shipped = store.shippedDirectory,
                   url.deletingLastPathComponent().standardizedFileURL.path == shipped.standardizedFileURL.path {
                    throw AudioConfigStoreError.readOnly(path: url.path)
                }
                // A file that does not load is never overwritten.
                do throws(JSONErrorList) { _ = try AudioConfig.load(contentsOf: url) } catch {
                    throw AudioConfigStoreError.wouldOverwriteInvalid(path: url.path, errors: error)
                }
                try store.export(config, to: url)
                return [.audio(.saved(config, url)), .notice("Audio config saved (\(url.path))", .info)]
            }
        case .rename(let url, let name):
            queued = job("Audio config not renamed") {
                let to = try store.rename(url, to: name)
                let clean = name.trimmingCharacters(in: .whitespacesAndNewlines)
                return [.audio(.renamed(from: url, to: to, name: clean)), .audio(.configsListed(store.list()))]
            }
        case .export(let config, let path):
            queued = job("Audio config not exported") {
                let url = Self.exportURL(path, name: config.name)
                try store.export(config, to: url)
                return [.notice("Audio config exported to \(url.path)", .info)]
            }
        case .importFile(let path):
            queued = files.submit {
                let source = URL(fileURLWithPath: Self.expandTilde(path))
                do {
                    let url = try store.importConfig(from: source)
                    let loaded = try AudioConfig.load(contentsOf: url)
                    return [.audio(.configsListed(store.list())), .audio(.loaded(loaded.config, url))]
                } catch let e as AudioConfigStoreError {
                    return [Self.failure("Import failed, nothing changed", e.description)]
                } catch {
                    return [Self.failure("Import failed, nothing changed", "\(source.path): \(error)")]
                }
            }
        case .delete(let url):
            queued = job("Audio config not deleted") {
                try store.delete(url)
                return [.audio(.deleted(url)), .audio(.configsListed(store.list())),
                        .notice("Audio config deleted (\(url.path))", .info)]
            }
        case .watch(let url):
            let slot = watcher
            queued = files.submit(key: "audio.watch") {
                slot.withLock { w in
                    w?.stop()
                    w = nil
                }
                guard let url else { return [] }
                do {
                    let w = try AudioConfigWatcher(file: url)
                    slot.withLock { $0 = w }
                    return []
                } catch {
                    return [.notice("Live reload of \(url.path) is off: \(error)", .warning)]
                }
            }
        case .listSources:
            let list = listSources
            queued = sourceWorker.submit(key: "sources") {
                do { return [.audio(.sourcesListed(try list()))] } catch { return [.audio(.sourcesFailed("\(error)"))] }
            }
        }
        return queued ? [] : [.notice("File work is falling behind (queue full): audio config work was not done", .error)]
    }

    /// A reload of the followed file since the last call, as an action: the
    /// new config, or a notice when the saved text does not load.
    func pollReload() -> AppAction? {
        guard let update = watcher.withLock({ $0?.poll() }) else { return nil }
        switch update {
        case .reloaded(let loaded, let url):
            return .audio(.reloaded(loaded.config, url))
        case .failed(let errors, let url):
            return Self.failure("\(url.path) changed but does not load; the config in use stays", errors.description)
        }
    }

    /// Replies of the source worker (the file worker's are drained by its owner).
    func drainReplies() -> [AppAction] { sourceWorker.drainReplies() }

    /// Stops the watcher and the source worker.
    func shutdown() {
        watcher.withLock { w in
            w?.stop()
            w = nil
        }
        sourceWorker.shutdown(timeout: 3)
    }

    /// A one-line warning notice: `what: first problem (+N more)`.
    static func failure(_ what: String, _ detail: String) -> AppAction {
        let lines = detail.split(separator: "\n")
        let more = lines.count > 1 ? " (+\(lines.count - 1) more)" : ""
        return .notice("\(what): \(lines.first.map(String.init) ?? detail)\(more)", .warning)
    }

    /// A folder (existing, or written with a trailing /) gets the config's file name.
    static func exportURL(_ path: String, name: String) -> URL {
        let p = expandTilde(path)
        var isDir: ObjCBool = false
        if p.hasSuffix("/") || (FileManager.default.fileExists(atPath: p, isDirectory: &isDir) && isDir.boolValue) {
            try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
            return URL(fileURLWithPath: p).appendingPathComponent(AudioConfigStore.fileName(for: name))
        }
        return URL(fileURLWithPath: p)
    }

    static func expandTilde(_ path: String) -> String {
        guard path.hasPrefix("~") else { return path }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        return home + path.dropFirst()
    }
}
