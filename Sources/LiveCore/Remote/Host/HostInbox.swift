import Synchronization

/// The bounded queue from the host's network thread to the frame loop.
/// Consecutive `params` events merge (last value per parameter), so a
/// parameter flood cannot grow it; other events beyond `capacity` are dropped
/// and counted. Thread-safe (a Mutex; the frame loop only takes the lock to
/// swap the array out).
public final class HostInbox: Sendable {
    private struct Queue {
        var events: [HostEvent] = []
        var dropped = 0
    }

    public let capacity: Int
    private let queue = Mutex(Queue())

    public init(capacity: Int = RemoteProtocol.inboxCapacity) { self.capacity = capacity }

    /// Adds an event (network thread). Returns false when it was dropped.
    @discardableResult
    public func post(_ event: HostEvent) -> Bool {
        queue.withLock { q in
            if case .params(let seq, let values) = event, case .params(_, let before)? = q.events.last {
                var batch = ParamBatch(before)
                batch.merge(values)
                q.events[q.events.count - 1] = .params(seq: seq, batch.values)
                return true
            }
            // Connection changes always get through (they decide who is in control).
            let vital: Bool
            switch event {
            case .connected, .disconnected: vital = true
            default: vital = false
            }
            guard q.events.count < capacity || vital else {
                q.dropped += 1
                return false
            }
            q.events.append(event)
            return true
        }
    }

    /// Everything queued, oldest first (frame loop).
    public func drain() -> [HostEvent] {
        queue.withLock { q in
            if q.events.isEmpty { return [] }
            let out = q.events
            q.events.removeAll(keepingCapacity: true)
            return out
        }
    }

    /// Events dropped because the queue was full.
    public var dropped: Int { queue.withLock { $0.dropped } }
}
