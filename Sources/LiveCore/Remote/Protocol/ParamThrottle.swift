/// Rate limit for parameter messages: at most one per `interval` (20 per
/// second by default). Changes that arrive sooner are coalesced (the last
/// value per parameter wins) and go out when the interval has passed, so the
/// last value always arrives. Intents do not wait: `flush` sends what is held
/// first, so order is kept.
///
/// A pure state machine driven by an injected clock (seconds, any origin).
public struct ParamThrottle: Sendable {
    /// Shortest time between two sends.
    public let interval: Double
    /// Values held back, coalesced.
    public private(set) var held = ParamBatch()
    /// The highest caller sequence number among the held values.
    public private(set) var heldSeq: UInt64 = 0
    private var lastSend = -Double.infinity

    public init(interval: Double = 1 / RemoteProtocol.paramsPerSecond) { self.interval = interval }

    /// Offers changes made at `now` (tagged with the caller's `seq`). Returns
    /// what to send now — everything held plus these — or nil to wait.
    public mutating func offer(_ values: [ParamAssignment], seq: UInt64, now: Double) -> (seq: UInt64, values: [ParamAssignment])? {
        guard !values.isEmpty else { return poll(now: now) }
        held.merge(values)
        heldSeq = max(heldSeq, seq)
        return poll(now: now)
    }

    /// What is due at `now`, if anything (call it by `deadline`).
    public mutating func poll(now: Double) -> (seq: UInt64, values: [ParamAssignment])? {
        guard !held.isEmpty, now >= lastSend + interval else { return nil }
        return take(now)
    }

    /// Everything held, at once (before an intent, or when closing).
    public mutating func flush(now: Double) -> (seq: UInt64, values: [ParamAssignment])? {
        held.isEmpty ? nil : take(now)
    }

    /// When the held values are due; nil when nothing is held.
    public var deadline: Double? { held.isEmpty ? nil : lastSend + interval }

    /// Drops everything held (the connection went away).
    public mutating func reset() {
        held.removeAll()
        heldSeq = 0
        lastSend = -.infinity
    }

    private mutating func take(_ now: Double) -> (seq: UInt64, values: [ParamAssignment]) {
        let out = (heldSeq, held.values)
        held.removeAll()
        lastSend = now
        return out
    }
}
