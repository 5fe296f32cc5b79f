import Foundation
import LiveCore

/// Appends text lines to a file from a background queue so the frame path
/// never touches the disk. A bounded backlog: when the disk is slower than the
/// producer, the oldest unwritten lines are dropped and counted.
///
/// Thread safety: `append` from one producer thread; writing happens on a
/// private serial queue.
final class LineWriter: @unchecked Sendable {
    private let handle: FileHandle
    private let queue = DispatchQueue(label: "physarum.linewriter")
    private let pending = NSLock()
    private var backlog = 0
    private let limit: Int
    /// Lines dropped because the backlog was full.
    private(set) var dropped = 0
    /// The first write error, if any (the writer stops after it).
    private(set) var failure: String?

    /// Opens (creates or truncates) the file; throws a readable error.
    init(path: String, backlog limit: Int = 64) throws {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw RuntimeFailure("cannot create \(path)")
        }
        handle = try FileHandle(forWritingTo: url)
        self.limit = limit
    }

    deinit { try? handle.close() }

    /// Queues one line (a newline is added).
    func append(_ line: String) {
        pending.lock()
        if backlog >= limit || failure != nil {
            dropped += 1
            pending.unlock()
            return
        }
        backlog += 1
        pending.unlock()
        let data = Data((line + "\n").utf8)
        queue.async { [self] in
            do {
                try handle.write(contentsOf: data)
            } catch {
                pending.lock()
                failure = failure ?? "\(error)"
                pending.unlock()
            }
            pending.lock()
            backlog -= 1
            pending.unlock()
        }
    }

    /// Waits until every queued line is written.
    func flush() {
        queue.sync {}
        try? handle.synchronize()
    }
}
