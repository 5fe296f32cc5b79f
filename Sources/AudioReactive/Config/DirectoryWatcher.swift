import Dispatch
import Foundation
import Storage
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Collects file-change events and releases them once no new event has
/// arrived for `interval` seconds (editors write a file in several steps).
/// A pure state machine; times are seconds on any monotonic clock.
public struct ChangeDebouncer: Sendable {
    /// Quiet time before changes are released.
    public let interval: Double
    private var pending: Set<String> = []
    private var deadline: Double?

    public init(interval: Double) { self.interval = interval }

    /// Records changed names at time `now` (restarts the quiet period).
    public mutating func note(_ names: some Sequence<String>, at now: Double) {
        pending.formUnion(names)
        deadline = now + interval
    }

    /// The changed names once the quiet period has passed, else nil.
    public mutating func release(at now: Double) -> Set<String>? {
        guard let d = deadline, now >= d else { return nil }
        defer {
            pending = []
            deadline = nil
        }
        return pending
    }

    /// Seconds until `release` can return something (nil: nothing pending).
    public func timeUntilRelease(at now: Double) -> Double? { deadline.map { max(0, $0 - now) } }
}

/// Watches one directory with inotify and calls `onChange` on its own thread
/// with the names of the entries that were written, created, moved in or out
/// or deleted, debounced (default 150 ms). Watching the directory rather than
/// the file catches editors that save by writing a new file and renaming it.
/// An empty set means "the event queue overflowed: anything may have changed".
///
/// Thread-safe; `onChange` runs on the watcher thread. Stops on `stop()` or
/// deinit (within ~100 ms); never call `stop()` from inside `onChange`. Calls
/// inotify_init1, inotify_add_watch, poll, read.
public final class DirectoryWatcher: Sendable {
    /// The directory watched.
    public let directory: URL
    private let control: Control

    /// State shared with the watcher thread.
    private final class Control: Sendable {
        let stop = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
    }

    /// Starts watching `directory` (which must exist).
    public init(directory: URL, debounce: Double = 0.15,
                onChange: @escaping @Sendable (Set<String>) -> Void) throws(FileError) {
        self.directory = directory
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw .errno(directory.path, "cannot start watching for changes (inotify_init1)") }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        guard inotify_add_watch(fd, directory.path, mask) >= 0 else {
            let e = FileError.errno(directory.path, "cannot watch the directory (inotify_add_watch)")
            close(fd)
            throw e
        }
        let control = Control()
        self.control = control
        let thread = Thread {
            Self.run(fd: fd, debounce: debounce, control: control, onChange: onChange)
            close(fd)
            control.finished.signal()
        }
        thread.name = "physarum.config-watch"
        thread.start()
    }

    deinit { stop() }

    /// Stops the watcher thread and waits for it to end. Idempotent.
    public func stop() {
        if control.stop.exchange(true, ordering: .acquiringAndReleasing) { return }
        control.finished.wait()
    }

    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    private static func run(fd: Int32, debounce: Double, control: Control,
                            onChange: @Sendable (Set<String>) -> Void) {
        var debouncer = ChangeDebouncer(interval: debounce)
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while !control.stop.load(ordering: .acquiring) {
            let wait = debouncer.timeUntilRelease(at: now()).map { min(0.1, $0) } ?? 0.1
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32((wait * 1000).rounded(.up)))
            if ready > 0 {
                let (names, overflow) = readEvents(fd: fd, buffer: &buffer)
                if overflow { debouncer.note(["\u{0}overflow"], at: now()) }
                if !names.isEmpty { debouncer.note(names, at: now()) }
            }
            if var changed = debouncer.release(at: now()) {
                if changed.contains("\u{0}overflow") { changed = [] }
                onChange(changed)
            }
        }
    }

    /// Drains the inotify queue: the entry names seen and whether it overflowed.
    private static func readEvents(fd: Int32, buffer: inout [UInt8]) -> (Set<String>, Bool) {
        var names: Set<String> = []
        var overflow = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n <= 0 { break }
            var off = 0
            let header = MemoryLayout<inotify_event>.size
            while off + header <= n {
                let (mask, len) = buffer.withUnsafeBytes { raw -> (UInt32, Int) in
                    let e = raw.loadUnaligned(fromByteOffset: off, as: inotify_event.self)
                    return (e.mask, Int(e.len))
                }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflow = true }
                if len > 0 {
                    let bytes = buffer[(off + header)..<min(n, off + header + len)]
                    let name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                    if !name.isEmpty { names.insert(name) }
                }
                off += header + len
            }
        }
        return (names, overflow)
    }
}
