import Engine
import LiveCore
/// Executes the library's file effects on the I/O worker, off the frame path.
/// Results come back as app actions through `worker.drainReplies()`: a notice
/// for a failure, `.library(.importLoaded…)` for an import.
///
/// The frame loop calls `perform` on the main thread for every `.library`
/// effect; only a thumbnail reads the frame there (via the `thumbnail`
/// closure, downscaled at once), everything else is a copy-free hand-off.
/// Thread safety: `perform` is main-thread; jobs run on the worker.
final class LibraryIO: Sendable {
    let store: LibraryStore
    let worker: FileWorker<AppAction>

    init(store: LibraryStore, worker: FileWorker<AppAction>) {
        self.store = store
        self.worker = worker
    }

    /// Queues the file work of `effect`. `thumbnail` is called (on this
    /// thread) only for `.writeThumbnail`, to grab the current output as a
    /// small image. Returns actions to apply at once (a notice when the
    /// worker's queue is full).
    func perform(_ effect: LibraryEffect, thumbnail: () -> RGBAImage?) -> [AppAction] {
        let store = store
        let queued: Bool
        switch effect {
        case .writeLibrary(let doc):
            queued = worker.submit(key: "library.json") {
                do {
                    if let note = try store.write(doc) { return [.notice(note, .warning)] }
                    return []
                } catch {
                    return [.notice("\(error)", .error)]
                }
            }
        case .writeThumbnail(let id):
            guard let image = thumbnail() else { return [] }
            queued = worker.submit(key: "thumbnail:" + id) {
                do {
                    try store.writeThumbnail(image, for: id)
                    return []
                } catch {
                    return [.notice("\(error)", .warning)]
                }
            }
        case .removeThumbnails(let ids):
            queued = worker.submit {
                store.removeThumbnails(ids)
                return []
            }
        case .readPreset(let path):
            queued = worker.submit {
                do {
                    let p = try LibraryStore.readPreset(path: path)
                    return [.library(.importLoaded(p, file: path))]
                } catch {
                    return [.notice("\(error)", .error)]
                }
            }
        case .writePreset(let preset, let path):
            queued = worker.submit {
                do {
                    let written = try LibraryStore.writePreset(preset, path: path)
                    return [.notice("Exported \"\(preset.name)\" to \(written)", .info)]
                } catch {
                    return [.notice("\(error)", .error)]
                }
            }
        }
        return queued ? [] : [.notice("File work is falling behind (queue full): \(Self.describe(effect)) was not done", .error)]
    }

    private static func describe(_ e: LibraryEffect) -> String {
        switch e {
        case .writeLibrary: "saving the library"
        case .writeThumbnail: "saving a thumbnail"
        case .removeThumbnails: "removing thumbnails"
        case .readPreset(let p): "importing \(p)"
        case .writePreset(_, let p): "exporting to \(p)"
        }
    }
}
