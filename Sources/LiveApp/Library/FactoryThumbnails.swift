import Engine
import Foundation
import LiveCore
import Storage
import Synchronization

/// Thumbnails of the factory presets for the library panel: each rendered
/// once offline (a small field, the preset's density, a fixed seed) and
/// cached as `<id>-<key>.png` under the XDG cache folder
/// (`$XDG_CACHE_HOME/physarum/thumbnails/`). The key is a hash of the
/// preset's file text, so an edited preset is rendered again and its old
/// picture removed. The work runs on one background thread at low priority;
/// `url(for:)` answers from memory (never touches the disk on the frame path).
///
/// Thread safety: `start`, `url(for:)`, `waitUntilDone` from any thread; the
/// state shared with the worker is behind a Mutex.
final class FactoryThumbnails: Sendable {
    let directory: URL
    private let presets: [Preset]
    private let shared = Mutex<(ready: [String: URL], rendered: Int, problems: [String], done: Bool)>(([:], 0, [], false))
    private let finished = DispatchSemaphore(value: 0)

    init(presets: [Preset], directory: URL) {
        self.presets = presets
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/physarum/thumbnails` (fallback `~/.cache/physarum/thumbnails`).
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        UserFolders.app(.cache, environment).appendingPathComponent("thumbnails", isDirectory: true)
    }

    /// The cache key of a preset: FNV-1a (64 bits) of its file text, in hex.
    static func key(_ p: Preset) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in p.fileText.utf8 {
            h ^= UInt64(b)
            h &*= 0x0000_0100_0000_01b3
        }
        return String(h, radix: 16)
    }

    /// The cached file of `p`.
    func file(for p: Preset) -> URL { directory.appendingPathComponent("\(p.id)-\(Self.key(p)).png") }

    /// The thumbnail file of factory preset `id`, once it is on disk.
    func url(for id: String) -> URL? { shared.withLock { $0.ready[id] } }

    /// Thumbnails rendered by this run (not found in the cache).
    var rendered: Int { shared.withLock { $0.rendered } }

    /// Problems met (a folder that cannot be written, a failed render).
    var problems: [String] { shared.withLock { $0.problems } }

    /// Starts the background work: every preset whose picture is not cached is rendered.
    func start() {
        let thread = Thread { [self] in
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)  // per thread on Linux: behind the frame loop
            work()
        }
        thread.name = "physarum.factory-thumbnails"
        thread.start()
    }

    /// Waits until every preset has a picture (tests); false on timeout.
    func waitUntilDone(timeout: Double) -> Bool {
        if shared.withLock({ $0.done }) { return true }
        guard finished.wait(timeout: .now() + timeout) == .success else { return false }
        finished.signal()
        return true
    }

    private func work() {
        defer {
            shared.withLock { $0.done = true }
            finished.signal()
        }
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            shared.withLock { $0.problems.append("Preset thumbnails are not cached: cannot create \(directory.path) (\(error.localizedDescription))") }
            return
        }
        let existing = (try? fm.contentsOfDirectory(atPath: directory.path)) ?? []
        for p in presets {
            let url = file(for: p)
            // Pictures of this preset made from an older version of it.
            for name in existing where name.hasPrefix(p.id + "-") && name.hasSuffix(".png") && name != url.lastPathComponent {
                try? fm.removeItem(at: directory.appendingPathComponent(name))
            }
            if !fm.fileExists(atPath: url.path) {
                do {
                    try PNGCodec.write(try Self.render(p), to: url.path)
                    shared.withLock { $0.rendered += 1 }
                } catch {
                    shared.withLock { $0.problems.append("Thumbnail of preset \(p.id) not made: \(error)") }
                    continue
                }
            }
            shared.withLock { $0.ready[p.id] = url }
        }
    }

    /// One thumbnail: the preset on a 320×180 field at its density, 240 steps, seed 1.
    static func render(_ p: Preset) throws -> RGBAImage {
        var job = OfflineRender(preset: p)
        job.width = Thumbnail.width
        job.height = Thumbnail.height
        job.fieldWidth = 320
        job.fieldHeight = 180
        job.agents = max(1_000, p.params.agents(forFieldWidth: 320, height: 180))
        job.seed = 1
        job.warmup = 240
        job.stepsPerFrame = 0
        job.threads = 1
        var out = RGBAImage(width: Thumbnail.width, height: Thumbnail.height)
        try job.run { _, image in out = image }
        return out
    }
}
