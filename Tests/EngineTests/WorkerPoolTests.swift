import Synchronization
import Testing
@testable import Engine

@Suite struct WorkerPoolTests {
    @Test(arguments: [1, 2, 3, 4])
    func everyChunkRunsExactlyOnce(threads: Int) {
        let pool = WorkerPool(threads: threads)
        let hits = AlignedBuffer<Int32>(count: 1000)
        for _ in 0..<20 {
            pool.run(chunks: 1000) { c, _ in hits[c] += 1 }
        }
        #expect(hits.array.allSatisfy { $0 == 20 })
        #expect(pool.threadsSeen.count == threads)
    }

    @Test func fewerChunksThanThreads() {
        let pool = WorkerPool(threads: 4)
        let total = Atomic<Int>(0)
        pool.run(chunks: 2) { c, _ in total.wrappingAdd(c + 1, ordering: .relaxed) }
        #expect(total.load(ordering: .relaxed) == 3)
    }

    /// Work the caller's hook returns runs while no other worker starts a
    /// chunk (the hit reaction gets the cores), and every chunk still runs once.
    @Test(arguments: [2, 3])
    func hookWorkRunsWithTheOtherWorkersHeld(threads: Int) {
        let pool = WorkerPool(threads: threads)
        let started = Atomic<Int>(0)
        let hits = AlignedBuffer<Int32>(count: 4000)
        var asked = 0
        var startedDuringWork: (Int, Int)?
        pool.callerHook = {
            asked += 1
            guard asked == 20 else { return nil }
            return {
                // Each other worker may still start the one chunk it claimed
                // before the hold; none claims another.
                let before = started.load(ordering: .acquiring)
                // Long enough for an unheld worker to start many chunks (each is a few µs).
                let until = ContinuousClock.now + .milliseconds(20)
                while ContinuousClock.now < until {}
                startedDuringWork = (before, started.load(ordering: .acquiring))
            }
        }
        pool.run(chunks: 4000) { c, _ in
            started.add(1, ordering: .acquiringAndReleasing)
            var x = 0.0
            for i in 0..<2000 { x += Double(i ^ c) }
            hits[c] += x >= 0 ? 1 : 2
        }
        #expect(hits.array.allSatisfy { $0 == 1 }, "every chunk ran exactly once")
        let s = startedDuringWork
        #expect(s != nil, "the hook's work ran")
        #expect(s.map { $0.1 - $0.0 <= threads - 1 } == true, "no chunk claimed while the work ran: \(String(describing: s))")
        #expect(s.map { $0.0 < 4000 - 100 } == true, "chunks were left for the others to take meanwhile: \(String(describing: s))")
    }
}
