/// Who may wait for a `hello`, and how slowly wrong tokens are answered.
///
/// - Waiting connections are limited per source address and in total. A
///   newcomer is always let in: when its address (or the host) is full, a
///   connection of that address (or of the address holding the most places)
///   makes room — first one whose wrong token is already decided and only
///   waits for its answer, else the one that has waited longest. A flood from
///   one address thus costs that address its own places, never another
///   address's, and it never touches the connected remote, which waits for
///   nothing.
/// - Every hello is checked the moment it arrives: a right token is admitted
///   at once, whatever came before it from the same address. Back-off slows
///   only the *answers* to wrong tokens: after `freeFailures` wrong tokens
///   from one address, the refusal of the next is sent `firstDelay` seconds
///   after it was checked, the delay doubling with each further failure up to
///   `maxDelay`. Failures are forgotten after `forgetAfter` seconds without
///   one.
///
/// Pure (the clock is injected); the network thread executes the outcome.
public struct Admission: Sendable {
    /// The limits (docs/remote-protocol.md).
    public struct Limits: Sendable {
        /// Connections waiting for their hello (or their refusal), in all.
        public var total: Int
        /// The same from one address (an IPv6 /64).
        public var perAddress: Int
        public var freeFailures = RemoteProtocol.freeTokenFailures
        public var firstDelay = RemoteProtocol.firstRefusalDelay
        public var maxDelay = RemoteProtocol.maxRefusalDelay
        public var forgetAfter = RemoteProtocol.forgetFailuresAfter
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
        /// Its hello was refused; only the answer waits (it goes first when room is made).
        public var decided = false

        public init(id: Int, address: String, opened: Double, decided: Bool = false) {
            self.id = id
            self.address = address
            self.opened = opened
            self.decided = decided
        }
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
        if same.count >= limits.perAddress { return Self.first(same) }
        guard waiting.count >= limits.total else { return nil }
        var byAddress: [String: [Waiting]] = [:]
        for w in waiting { byAddress[w.address, default: []].append(w) }
        let fullest = byAddress.values.max { a, b in
            a.count != b.count ? a.count < b.count : (Self.oldestTime(a) > Self.oldestTime(b))
        }
        return fullest.flatMap(Self.first)
    }

    /// How long the refusal of a wrong token from `address`, checked at
    /// `now` (after `failed`), waits before it is sent: 0 for the first
    /// `freeFailures`.
    public func refusalDelay(_ address: String, now: Double) -> Double {
        let f = failures(address, now: now)
        guard f > limits.freeFailures else { return 0 }
        return min(limits.firstDelay * Double.pow2(Double(f - limits.freeFailures - 1)), limits.maxDelay)
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

    /// Which of `w` goes first: a decided one (oldest first), else the oldest.
    private static func first(_ w: [Waiting]) -> Int? {
        let decided = w.filter(\.decided)
        return oldest(decided.isEmpty ? w : decided)
    }

    private static func oldest(_ w: [Waiting]) -> Int? {
        w.min { a, b in a.opened != b.opened ? a.opened < b.opened : a.id < b.id }?.id
    }

    private static func oldestTime(_ w: [Waiting]) -> Double { w.map(\.opened).min() ?? .infinity }
}

extension Double {
    fileprivate static func pow2(_ x: Double) -> Double { x >= 60 ? 1e18 : Double(1 << Int(x)) }
}
