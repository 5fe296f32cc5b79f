import Dispatch
import Foundation
import Synchronization

/// Runs file jobs (library saves, thumbnails, screenshots, imports, the
/// session autosave) on one background thread, so no file I/O happens on the
/// frame path.
///
/// The queue is bounded: `submit` never blocks and returns false when the
/// queue is full (the caller shows a notice). A job submitted with a `key`
/// replaces a queued job with the same key that has not started yet (latest
/// wins — right for "write the whole library" or "autosave the session").
/// A job returns replies (e.g. app actions: a notice, a loaded preset) that the
/// frame loop collects with `drainReplies()`.
///
/// Thread safety: every method may be called from any thread; jobs run one at
/// a time, in submission order, on the worker thread.
final class FileWorker<Reply: Sendable>: Sendable {
    /// A unit of work; runs on the worker thread.
    typealias Job = @Sendable () -> [Reply]

    private struct Pending {
        let key: String?
        var job: Job
    }

    private struct State {
        var queue: [Pending] = []
        var replies: [Reply] = []
        var busy = false
        var stopping = false
        var completed = 0
    }

    /// Most jobs waiting at once.
    let capacity: Int
    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the worker thread (named `name` for debuggers and `top -H`).
    init(name: String, capacity: Int = 32) {
        precondition(capacity > 0)
        self.capacity = capacity
        var s = State()
        s.queue.reserveCapacity(capacity)
        state = Mutex(s)
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Queues `job`. With a `key`, a queued job of the same key that has not
    /// started is replaced in place. Returns false (and drops the job) when the
    /// queue is full or the worker was shut down. Never blocks on I/O.
    @discardableResult
    func submit(key: String? = nil, _ job: @escaping Job) -> Bool {
        let queued: Bool? = state.withLock { s in
            if s.stopping { return nil }
            if let key, let i = s.queue.firstIndex(where: { $0.key == key }) {
                s.queue[i].job = job
                return false
            }
            guard s.queue.count < capacity else { return nil }
            s.queue.append(Pending(key: key, job: job))
            return true
        }
        guard let queued else { return false }
        if queued { wake.signal() }
        return true
    }

    /// The replies of jobs finished since the last call, in completion order.
    func drainReplies() -> [Reply] {
        state.withLock { s in
            defer { s.replies.removeAll(keepingCapacity: true) }
            return s.replies
        }
    }

    /// True when no job is queued or running.
    var isIdle: Bool { state.withLock { $0.queue.isEmpty && !$0.busy } }

    /// How many jobs have finished so far.
    var completedCount: Int { state.withLock { $0.completed } }

    /// Refuses new jobs, lets the queued ones finish and stops the thread.
    /// Waits at most `timeout` seconds; true when everything finished.
    @discardableResult
    func shutdown(timeout: Double) -> Bool {
        let first = state.withLock { s in
            defer { s.stopping = true }
            return !s.stopping
        }
        guard first else { return isIdle }
        wake.signal()
        return finished.wait(timeout: .now() + timeout) == .success
    }

    private func run() {
        while true {
            wake.wait()
            let next: Pending? = state.withLock { s in
                guard !s.queue.isEmpty else { return nil }
                s.busy = true
                return s.queue.removeFirst()
            }
            guard let next else {
                if state.withLock({ $0.stopping && $0.queue.isEmpty }) { break }
                continue
            }
            let replies = next.job()
            state.withLock { s in
                s.replies.append(contentsOf: replies)
                s.busy = false
                s.completed += 1
            }
        }
        finished.signal()
    }
}
