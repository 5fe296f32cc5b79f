import Foundation
import LiveCore
import Synchronization

/// OSC state out for a tablet: the app's values as messages (the
/// `OSCStateFeedback` of the layout), sent as one bundle a frame by its own
/// thread ("physarum.osc-state") to `--osc-feedback HOST:PORT`; the frame only
/// hands over a batch (`offer`), a full queue drops the oldest batch (the
/// next full resend brings everything back). Thread safety: `offer`/`stop`/
/// counters from any thread.
final class OSCStateSender: @unchecked Sendable {
    let destination: OSCDestination
    private let queue = Mutex<[[OSCMessage]]>([])
    private let ready = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let sentCount = Atomic<Int>(0)
    static let queueLimit = 16

    init(_ target: HostPort) throws(NetError) {
        destination = try OSCDestination(host: target.host ?? "127.0.0.1", port: target.port)
        let t = Thread { [self] in run() }
        t.name = "physarum.osc-state"
        t.start()
    }

    /// Messages sent so far.
    var sent: Int { sentCount.load(ordering: .relaxed) }

    /// Queues one frame's messages (never blocks).
    func offer(_ batch: [OSCMessage]) {
        guard !batch.isEmpty else { return }
        queue.withLock { q in
            if q.count >= Self.queueLimit { q.removeFirst() }
            q.append(batch)
        }
        ready.signal()
    }

    func stop(timeout: Double = 2) {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        ready.signal()
        _ = finished.wait(timeout: .now() + timeout)
    }

    private func run() {
        while true {
            ready.wait()
            for batch in queue.withLock({ q in defer { q.removeAll() }; return q }) where destination.send(batch) {
                sentCount.add(batch.count, ordering: .relaxed)
            }
            if stopping.load(ordering: .relaxed) { break }
        }
        finished.signal()
    }
}
