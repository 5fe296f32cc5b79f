import Dispatch
import Foundation
import Synchronization

/// The thread of one network endpoint (the host's listener, the remote's
/// connection): started once, woken from other threads through a pipe it
/// polls, asked to stop with a bounded wait. Owns the endpoint's read buffer.
/// Thread safety: `start`/`stop`/`wake` from any thread; `readBuffer` only
/// on the network thread.
final class NetworkThread: @unchecked Sendable {
    /// The pipe the thread polls beside its sockets; `wake.signal()` interrupts the poll.
    let wake: Wakeup
    /// 64 KiB for `recv` (network thread only).
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init() throws(NetError) { wake = try Wakeup() }

    deinit { readBuffer.deallocate() }

    /// True once `stop` was called: the thread's loop ends.
    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Runs `body` on a new thread named `name`.
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let t = Thread { [finished] in
            body()
            finished.signal()
        }
        t.name = name
        t.start()
    }

    /// Asks the thread to stop and waits up to `timeout` seconds for it.
    func stop(timeout: Double = 2) {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        wake.signal()
        _ = finished.wait(timeout: .now() + timeout)
    }
}
