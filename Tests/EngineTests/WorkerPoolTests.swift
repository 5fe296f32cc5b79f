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
}
