/// What the host's frame loop hears from the network (through `HostInbox`).
public enum HostEvent: Equatable, Sendable {
    /// A connection sent a valid `hello` and is now the remote (replacing any
    /// other). `push` is its own state when it chose to push.
    case connected(connection: Int, push: RemoteState?)
    case intent(seq: UInt64, RemoteIntent)
    case params(seq: UInt64, [ParamAssignment])
    /// The remote went away (closed, silent, broke the protocol). Not sent
    /// when another remote replaces it.
    case disconnected(reason: String)
}

/// The host's connection policy: who waits for a `hello` (`Admission`), who
/// is the remote, tokens and the back-off of wrong ones' answers, timeouts,
/// pings. A pure state machine driven by an injected clock (seconds); the
/// network thread executes its decisions. The remote is replaced only by a
/// connection whose hello carried the token; nothing a connection does before
/// that touches it, and a right token is never made to wait behind wrong ones.
public struct HostTable: Sendable {
    /// Limits and the token (docs/remote-protocol.md).
    public struct Policy: Sendable {
        /// Required in `hello` when set.
        public var token: String?
        public var maxPending = RemoteProtocol.maxPending
        public var maxPendingPerAddress = RemoteProtocol.maxPendingPerAddress
        public var helloTimeout = RemoteProtocol.helloTimeout
        public var pingInterval = RemoteProtocol.pingInterval
        public var silenceLimit = RemoteProtocol.silenceLimit
        /// Shortest time between two `bad-message` replies to one connection.
        public var errorReplyInterval = 1.0

        /// A value with these members (defaults as declared).
        public init(token: String? = nil, maxPending: Int = RemoteProtocol.maxPending,
                    maxPendingPerAddress: Int = RemoteProtocol.maxPendingPerAddress, helloTimeout: Double = RemoteProtocol.helloTimeout,
                    pingInterval: Double = RemoteProtocol.pingInterval, silenceLimit: Double = RemoteProtocol.silenceLimit,
                    errorReplyInterval: Double = 1.0) {
            self.token = token
            self.maxPending = maxPending
            self.maxPendingPerAddress = maxPendingPerAddress
            self.helloTimeout = helloTimeout
            self.pingInterval = pingInterval
            self.silenceLimit = silenceLimit
            self.errorReplyInterval = errorReplyInterval
        }
    }

    /// Work for the network thread.
    public enum Decision: Equatable, Sendable {
        case send(Int, RemoteMessage)
        /// Close after flushing what is queued for it; the table has forgotten it.
        case close(Int, reason: String)
        /// Frames up to `RemoteProtocol.frameLimit` are allowed from now on.
        case authenticated(Int)
        case deliver(HostEvent)
        case log(String)
    }

    /// The connection currently acting as the remote.
    public struct Active: Equatable, Sendable {
        public var id: Int
        public var lastHeard: Double
        public var lastPing: Double
        public var lastErrorReply = -Double.infinity
    }

    public let policy: Policy
    /// A refusal decided but not sent yet (a wrong token while its address is in back-off).
    public struct Refusal: Equatable, Sendable {
        public var code: RemoteErrorCode
        public var message: String
        /// When it is sent.
        public var at: Double
    }

    /// A connection waiting for its `hello`, or for the answer to a wrong one.
    public struct Pending: Equatable, Sendable {
        public var opened: Double
        public var address: String
        /// Set once its hello was refused while the answer waits; nothing it sends is read any more.
        public var refusal: Refusal?
        public var lastPing = 0.0
    }

    /// Connections waiting for their `hello`, by id.
    public private(set) var pending: [Int: Pending] = [:]
    public private(set) var admission: Admission
    public private(set) var active: Active?
    private var pingCounter: UInt64 = 0

    public init(policy: Policy) {
        self.policy = policy
        admission = Admission(limits: Admission.Limits(total: policy.maxPending, perAddress: policy.maxPendingPerAddress))
    }

    /// A connection from `address` (the peer's address without the port) was
    /// accepted. It always gets a place: when its address or the host is
    /// full, the longest-waiting connection of the fullest address goes.
    public mutating func opened(_ id: Int, from address: String = "", now: Double) -> [Decision] {
        var out: [Decision] = []
        let waiting = pending.map {
            Admission.Waiting(id: $0.key, address: $0.value.address, opened: $0.value.opened, decided: $0.value.refusal != nil)
        }
        if let victim = admission.makeRoom(for: address, among: waiting), let v = pending.removeValue(forKey: victim) {
            if let r = v.refusal {
                out += refuse(victim, r.code, r.message)  // its answer was decided: it goes out early
            } else {
                out += [.send(victim, .error(code: RemoteErrorCode.busy.rawValue, message: "too many connections are waiting for their hello")),
                        .close(victim, reason: "made room for a newer connection: too many wait for their hello")]
            }
        }
        pending[id] = Pending(opened: now, address: address)
        return out
    }

    /// A frame from connection `id` was decoded (or failed to).
    public mutating func received(_ id: Int, _ frame: DecodedFrame, now: Double) -> [Decision] {
        if pending[id] != nil { return receivedPending(id, frame, now: now) }
        guard var a = active, a.id == id else { return [] }
        a.lastHeard = now
        active = a
        switch frame {
        case .message(.intent(let seq, let intent)):
            return [.deliver(.intent(seq: seq, intent))]
        case .message(.params(let seq, let values)):
            return [.deliver(.params(seq: seq, values))]
        case .message(.ping(let n)):
            return [.send(id, .pong(n))]
        case .message(.pong):
            return []
        case .message(.hello):
            return [.send(id, .error(code: RemoteErrorCode.badMessage.rawValue, message: "hello was already accepted; ignored"))]
        case .message(.state):
            return [.send(id, .error(code: RemoteErrorCode.badMessage.rawValue, message: "a remote pushes its state only in hello; ignored"))]
        case .message(.error(let code, let message)):
            return [.log("remote reported \(code): \(message.prefix(200))")]
        case .unknownType(let t):
            return [.log("skipped a message of unknown type '\(t)' (a newer remote?)")]
        case .invalid(let reason):
            return skippedByActive(id, reason, now: now)
        }
    }

    /// Bytes arrived from `id` (a frame may still be incomplete): the remote is not silent.
    public mutating func heard(_ id: Int, now: Double) {
        if active?.id == id { active!.lastHeard = now }
    }

    /// The decoder dropped a frame from `id` (empty, or not a JSON object).
    public mutating func skipped(_ id: Int, reason: String, now: Double) -> [Decision] {
        if pending[id] != nil { return [.log("skipped a frame before hello: \(reason)")] }
        guard var a = active, a.id == id else { return [] }
        a.lastHeard = now
        active = a
        return skippedByActive(id, reason, now: now)
    }

    /// Connection `id` closed (peer, error, or an oversized frame).
    public mutating func closed(_ id: Int, reason: String) -> [Decision] {
        if pending.removeValue(forKey: id) != nil { return [.close(id, reason: reason)] }
        guard active?.id == id else { return [.close(id, reason: reason)] }
        active = nil
        return [.close(id, reason: reason), .deliver(.disconnected(reason: reason))]
    }

    /// Timeouts and pings due at `now`.
    public mutating func tick(now: Double) -> [Decision] {
        var out = tickRefusals(now: now)
        for (id, p) in pending.sorted(by: { $0.key < $1.key }) where p.refusal == nil && now >= p.opened + policy.helloTimeout {
            pending[id] = nil
            out.append(.send(id, .error(code: RemoteErrorCode.helloTimeout.rawValue,
                                        message: "no hello within \(Int(policy.helloTimeout)) s")))
            out.append(.close(id, reason: "no hello within \(Int(policy.helloTimeout)) s"))
        }
        if var a = active {
            if now >= a.lastHeard + policy.silenceLimit {
                active = nil
                let reason = "the remote was silent for \(Int(policy.silenceLimit)) s"
                out += [.close(a.id, reason: reason), .deliver(.disconnected(reason: reason))]
            } else if now >= a.lastPing + policy.pingInterval {
                pingCounter += 1
                a.lastPing = now
                active = a
                out.append(.send(a.id, .ping(pingCounter)))
            }
        }
        return out
    }

    /// The next time `tick` has something to do.
    public func deadline() -> Double {
        var d = Double.infinity
        for p in pending.values {
            if let r = p.refusal {
                d = min(d, p.lastPing + policy.pingInterval, r.at)
            } else {
                d = min(d, p.opened + policy.helloTimeout)
            }
        }
        if let a = active { d = min(d, a.lastHeard + policy.silenceLimit, a.lastPing + policy.pingInterval) }
        return d
    }

    private mutating func receivedPending(_ id: Int, _ frame: DecodedFrame, now: Double) -> [Decision] {
        guard let p = pending[id] else { return [] }
        if p.refusal != nil { return [] }  // refused, waiting for its answer; pongs and the rest are not read
        switch frame {
        case .message(.hello(let h)):
            return check(id, h, from: p.address, now: now)
        case .message(let m):
            pending[id] = nil
            return refuse(id, .helloFirst, "the first message must be hello, got \(m.type)")
        case .unknownType(let t):
            return [.log("skipped a message of unknown type '\(t)' before hello")]
        case .invalid(let reason):
            return [.log("skipped an invalid frame before hello: \(reason)")]
        }
    }

    /// Checks a hello at once: version, then token. A wrong token counts
    /// against its address, whose back-off may hold the answer (never the
    /// check of the next hello).
    private mutating func check(_ id: Int, _ h: RemoteHello, from address: String, now: Double) -> [Decision] {
        guard h.version == RemoteProtocol.version else {
            pending[id] = nil
            return refuse(id, .version, "this host speaks protocol version \(RemoteProtocol.version), the remote \(h.version)")
        }
        if let token = policy.token {
            guard RemoteToken.matches(h.token, expected: token) else {
                admission.failed(address, now: now)
                let message = h.token == nil ? "this host requires a token (--token)" : "wrong token"
                let delay = admission.refusalDelay(address, now: now)
                guard delay > 0 else {
                    pending[id] = nil
                    return refuse(id, .unauthorized, message)
                }
                pending[id]?.refusal = Refusal(code: .unauthorized, message: message, at: now + delay)
                pending[id]?.lastPing = now
                let n = admission.failures(address, now: now)
                return [.log("wrong token from \(address) (\(n) in a row): answered in \(Self.seconds(delay))")]
            }
        }
        pending[id] = nil
        var out: [Decision] = []
        if let old = active {
            out.append(.send(old.id, .error(code: RemoteErrorCode.replaced.rawValue, message: "another remote took over")))
            out.append(.close(old.id, reason: "replaced by a newer remote"))
        }
        active = Active(id: id, lastHeard: now, lastPing: now)
        out += [.authenticated(id), .deliver(.connected(connection: id, push: h.push))]
        return out
    }

    /// Refusals whose time has come are sent; the others are pinged (so
    /// their remote waits for the answer instead of retrying).
    private mutating func tickRefusals(now: Double) -> [Decision] {
        var out: [Decision] = []
        for (id, p) in pending.sorted(by: { $0.key < $1.key }) {
            guard let r = p.refusal else { continue }
            if now >= r.at {
                pending[id] = nil
                out += refuse(id, r.code, r.message)
            } else if now >= p.lastPing + policy.pingInterval {
                pingCounter += 1
                pending[id]?.lastPing = now
                out.append(.send(id, .ping(pingCounter)))
            }
        }
        return out
    }

    private static func seconds(_ s: Double) -> String { s == s.rounded() ? "\(Int(s)) s" : "\(s) s" }

    private func refuse(_ id: Int, _ code: RemoteErrorCode, _ message: String) -> [Decision] {
        [.send(id, .error(code: code.rawValue, message: message)), .close(id, reason: "refused (\(code.rawValue)): \(message)")]
    }

    private mutating func skippedByActive(_ id: Int, _ reason: String, now: Double) -> [Decision] {
        var out: [Decision] = [.log("skipped a frame from the remote: \(reason)")]
        if var a = active, now - a.lastErrorReply >= policy.errorReplyInterval {
            a.lastErrorReply = now
            active = a
            out.append(.send(id, .error(code: RemoteErrorCode.badMessage.rawValue, message: String(reason.prefix(300)))))
        }
        return out
    }
}
