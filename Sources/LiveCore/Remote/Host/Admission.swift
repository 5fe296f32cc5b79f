/// Who may wait for a `hello`, and how often one address may try a token.
///
/// - Waiting connections are limited per source address and in total. A
///   newcomer is always let in: when its address (or the host) is full, the
///   connection that has waited longest — from the address holding the most
///   places — makes room (answered `busy`). A flood from one address thus
///   costs that address its own places, never another address's, and it
///   never touches the connected remote, which waits for nothing.
/// - After `freeFailures` wrong tokens from one address, its next hellos are
///   checked one at a time, the first `firstDelay` seconds after the last
///   failure, the delay doubling with each further failure up to `maxDelay`.
///   A right token clears the address's record; failures are forgotten after
///   `forgetAfter` seconds without one.
///
/// Pure (the clock is injected); the network thread executes the outcome.
public struct Admission: Sendable {
    /// The limits (docs/remote-protocol.md).
    public struct Limits: Sendable {
        /// Connections waiting for their hello, in all.
        public var total: Int
        /// Connections waiting for their hello from one address (an IPv6 /64).
        public var perAddress: Int
        public var freeFailures = 3
        public var firstDelay = 0.5
        public var maxDelay = 30.0
        public var forgetAfter = 600.0
        /// Addresses whose failures are remembered at most (the oldest go first).
        public var maxRemembered = 4096

        /// A value with these members (defaults as declared).
        public init(total: Int = RemoteProtocol.maxPending, perAddress: Int = RemoteProtocol.maxPendingPerAddress) {
            self.total = total
            self.perAddress = perAddress
        }
    }

    /// A connection waiting for its hello, as admission sees it.
    public struct Waiting: Equatable, Sendable {
        public var id: Int
        public var address: String
        public var opened: Double
    }

    private struct Record: Sendable {
        var failures: Int
        var last: Double
    }

    public let limits: Limits
    private var records: [String: Record] = [:]

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// The waiting connection that must go so one from `address` can wait
    /// too; nil when there is room.
    public func makeRoom(for address: String, among waiting: [Waiting]) -> Int? {
        let same = waiting.filter { $0.address == address }
        if same.count >= limits.perAddress { return Self.oldest(same) }
        guard waiting.count >= limits.total else { return nil }
        var byAddress: [String: [Waiting]] = [:]
        for w in waiting { byAddress[w.address, default: []].append(w) }
        let fullest = byAddress.values.max { a, b in
            a.count != b.count ? a.count < b.count : (Self.oldestTime(a) > Self.oldestTime(b))
        }
        return fullest.flatMap(Self.oldest)
    }

    /// When a hello from `address` may be checked: `now` unless the address
    /// is in back-off.
    public func checkTime(_ address: String, now: Double) -> Double {
        guard let r = records[address], now - r.last < limits.forgetAfter, r.failures >= limits.freeFailures else { return now }
        let doublings = Double(r.failures - limits.freeFailures)
        return max(now, r.last + min(limits.firstDelay * Double.pow2(doublings), limits.maxDelay))
    }

    /// Failures on record for `address` (0 when forgotten).
    public func failures(_ address: String, now: Double) -> Int {
        guard let r = records[address], now - r.last < limits.forgetAfter else { return 0 }
        return r.failures
    }

    /// A hello from `address` carried a wrong or missing token.
    public mutating func failed(_ address: String, now: Double) {
        records[address] = Record(failures: failures(address, now: now) + 1, last: now)
        if records.count > limits.maxRemembered {
            records = records.filter { now - $0.value.last < limits.forgetAfter }
            while records.count > limits.maxRemembered, let old = records.min(by: { $0.value.last < $1.value.last }) {
                records[old.key] = nil
            }
        }
    }

    /// A hello from `address` carried the right token.
    public mutating func succeeded(_ address: String) { records[address] = nil }

    private static func oldest(_ w: [Waiting]) -> Int? {
        w.min { a, b in a.opened != b.opened ? a.opened < b.opened : a.id < b.id }?.id
    }

    private static func oldestTime(_ w: [Waiting]) -> Double { w.map(\.opened).min() ?? .infinity }
}

extension Double {
    fileprivate static func pow2(_ x: Double) -> Double { x >= 60 ? 1e18 : Double(1 << Int(x)) }
}
