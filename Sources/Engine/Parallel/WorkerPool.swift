import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A fixed set of worker threads that run the chunks of one parallel pass at a
/// time. The calling thread is worker 0; `threads − 1` background threads are
/// workers 1…. Each worker first runs its "home" chunk (chunk index = worker
/// index, so every worker takes part whenever there are enough chunks), then
/// claims the rest dynamically. Results must not depend on which worker ran a
/// chunk — passes write disjoint ranges or per-worker integer buffers.
///
/// Thread safety: `run` must be called from one thread at a time (the
/// simulation's owner); the body runs concurrently on all workers.
final class WorkerPool: @unchecked Sendable {
    /// Number of threads, the caller included.
    let threads: Int

    private final class Shared: @unchecked Sendable {
        // Written by the caller before waking workers, read by workers after
        // their semaphore wait (the semaphore orders the accesses).
        var body: ((Int, Int) -> Void)?
        var chunkCount = 0
        var stop = false
        let next = Atomic<Int>(0)
        /// Set while the caller runs urgent work (`callerHook`): the other
        /// workers finish their chunk and wait before claiming the next.
        let hold = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        let wake: [DispatchSemaphore]
        /// Per worker: chunks run in the last pass and the OS thread id seen.
        let chunksRun: UnsafeMutablePointer<Int>
        let threadIDs: UnsafeMutablePointer<UInt>

        init(threads: Int) {
            wake = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
            chunksRun = .allocate(capacity: threads)
            chunksRun.initialize(repeating: 0, count: threads)
            threadIDs = .allocate(capacity: threads)
            threadIDs.initialize(repeating: 0, count: threads)
        }

        deinit {
            chunksRun.deallocate()
            threadIDs.deallocate()
        }

        func work(_ w: Int, after hook: (() -> (() -> Void)?)? = nil) {
            guard let body else { return }
            threadIDs[w] = UInt(bitPattern: Int(bitPattern: UInt(pthread_self())))
            var n = 0
            if w < chunkCount {
                body(w, w)
                n += 1
                if let hook { urgent(hook) }
            }
            while true {
                if w > 0 { while hold.load(ordering: .acquiring) { usleep(100) } }
                let c = next.wrappingAdd(1, ordering: .relaxed).oldValue
                if c >= chunkCount { break }
                body(c, w)
                n += 1
                if let hook { urgent(hook) }
            }
            chunksRun[w] = n
        }

        /// Runs what the caller's hook asks for with the other workers held.
        func urgent(_ hook: () -> (() -> Void)?) {
            guard let work = hook() else { return }
            hold.store(true, ordering: .releasing)
            work()
            hold.store(false, ordering: .releasing)
        }
    }

    private let shared: Shared
    /// Called on the calling thread after each chunk it runs (the others go
    /// on with theirs meanwhile): lets the owner react to something urgent in
    /// the middle of a long pass. When it returns work, that work runs at once
    /// on the calling thread while the other workers wait after their
    /// current chunk (so it has the cores to itself). Neither may touch the pass's data.
    var callerHook: (() -> (() -> Void)?)?
    /// OS thread ids that ran at least one chunk since `resetThreadStats()`.
    private(set) var threadsSeen = Set<UInt>()

    /// Starts `threads − 1` background threads (threads ≥ 1).
    init(threads: Int) {
        precondition(threads >= 1 && threads <= 256)
        self.threads = threads
        shared = Shared(threads: threads)
        for w in 1..<max(1, threads) {
            let s = shared
            let t = Thread {
                while true {
                    s.wake[w].wait()
                    if s.stop { return }
                    s.work(w)
                    s.done.signal()
                }
            }
            t.name = "physarum-worker-\(w)"
            t.stackSize = 1 << 20
            t.start()
        }
    }

    deinit {
        shared.stop = true
        for w in 1..<max(1, threads) { shared.wake[w].signal() }
    }

    /// Runs `body(chunk, worker)` for every chunk in 0..<chunks on all workers
    /// and returns when all are done.
    func run(chunks: Int, _ body: (Int, Int) -> Void) {
        guard chunks > 0 else { return }
        if threads == 1 {
            for c in 0..<chunks {
                body(c, 0)
                if let work = callerHook?() { work() }
            }
            shared.chunksRun[0] = chunks
            shared.threadIDs[0] = UInt(bitPattern: Int(bitPattern: UInt(pthread_self())))
            threadsSeen.insert(shared.threadIDs[0])
            return
        }
        withoutActuallyEscaping(body) { b in
            let s = shared
            s.body = b
            s.chunkCount = chunks
            s.next.store(threads, ordering: .relaxed)
            for w in 1..<threads { s.wake[w].signal() }
            s.work(0, after: callerHook)
            for _ in 1..<threads { s.done.wait() }
            s.body = nil
        }
        for w in 0..<threads where shared.chunksRun[w] > 0 { threadsSeen.insert(shared.threadIDs[w]) }
    }

    /// Forgets the threads seen so far.
    func resetThreadStats() { threadsSeen.removeAll(keepingCapacity: true) }
}
