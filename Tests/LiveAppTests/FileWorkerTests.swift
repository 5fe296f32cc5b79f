import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import LiveApp

/// The I/O worker: order, latest-wins keys, a bounded queue that never blocks.
@Suite struct FileWorkerTests {
    /// A job that waits until the test opens the gate (so the queue fills deterministically).
    final class Gate: Sendable {
        let open = DispatchSemaphore(value: 0)
        let entered = Atomic<Bool>(false)
        func job() -> [Int] {
            entered.store(true, ordering: .releasing)
            open.wait()
            return [-1]
        }
    }

    @Test func runsJobsInOrderAndReturnsTheirReplies() {
        let w = FileWorker<Int>(name: "t")
        defer { w.shutdown(timeout: 5) }
        for i in 0..<10 { #expect(w.submit { [i] }) }
        #expect(poll(seconds: 10) { w.completedCount == 10 })
        #expect(w.drainReplies() == Array(0..<10))
        #expect(w.drainReplies().isEmpty)
    }

    @Test func aKeyedJobReplacesTheQueuedOneAndAFullQueueRefusesWithoutBlocking() {
        let w = FileWorker<Int>(name: "t", capacity: 3)
        defer { w.shutdown(timeout: 5) }
        let gate = Gate()
        #expect(w.submit { gate.job() })
        #expect(poll(seconds: 10) { gate.entered.load(ordering: .acquiring) })
        // The worker is busy: queue three, then the fourth is refused at once.
        #expect(w.submit(key: "lib") { [1] })
        #expect(w.submit { [2] })
        #expect(w.submit(key: "lib") { [3] })  // replaces [1] in place, takes no room
        #expect(w.submit { [4] })
        #expect(!w.submit { [5] })
        #expect(!w.isIdle)
        gate.open.signal()
        #expect(poll(seconds: 10) { w.isIdle })
        #expect(w.drainReplies() == [-1, 3, 2, 4])
    }

    @Test func shutdownFinishesQueuedJobsThenRefusesNewOnes() {
        let w = FileWorker<Int>(name: "t")
        let gate = Gate()
        w.submit { gate.job() }
        for i in 0..<5 { w.submit { [i] } }
        gate.open.signal()
        #expect(w.shutdown(timeout: 10))
        #expect(w.drainReplies() == [-1, 0, 1, 2, 3, 4])
        #expect(!w.submit { [9] })
    }
}
