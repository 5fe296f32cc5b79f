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

/// The host's connection policy: who waits for a `hello`, who is the remote,
/// tokens, timeouts, pings. A pure state machine driven by an injected clock
/// (seconds); the network thread executes its decisions.
public struct HostTable: Sendable {
    /// Limits and the token (docs/remote-protocol.md).
    public struct Policy: Sendable {
        /// Required in `hello` when set.
        public var token: String?
        public var maxPending = RemoteProtocol.maxPending
        public var helloTimeout = RemoteProtocol.helloTimeout
        public var pingInterval = RemoteProtocol.pingInterval
        public var silenceLimit = RemoteProtocol.silenceLimit
        /// Shortest time between two `bad-message` replies to one connection.
        public var errorReplyInterval = 1.0

        /// A value with these members (defaults as declared).
        public init(token: String? = nil, maxPending: Int = RemoteProtocol.maxPending, helloTimeout: Double = RemoteProtocol.helloTimeout, pingInterval: Double = RemoteProtocol.pingInterval, silenceLimit: Double = RemoteProtocol.silenceLimit, errorReplyInterval: Double = 1.0) {
            self.token = token
            self.maxPending = maxPending
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
    /// Connections waiting for their `hello`: id → time opened.
    public private(set) var pending: [Int: Double] = [:]
    public private(set) var active: Active?
    private var pingCounter: UInt64 = 0

    public init(policy: Policy) { self.policy = policy }

    /// A connection was accepted.
    public mutating func opened(_ id: Int, now: Double) -> [Decision] {
        guard pending.count < policy.maxPending else {
            return [.send(id, .error(code: RemoteErrorCode.busy.rawValue, message: "too many connections are waiting for their hello")),
                    .close(id, reason: "refused: \(policy.maxPending) connections already wait for their hello")]
        }
        pending[id] = now
        return []
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
        var out: [Decision] = []
        for (id, opened) in pending.sorted(by: { $0.key < $1.key }) where now >= opened + policy.helloTimeout {
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
        for opened in pending.values { d = min(d, opened + policy.helloTimeout) }
        if let a = active { d = min(d, a.lastHeard + policy.silenceLimit, a.lastPing + policy.pingInterval) }
        return d
    }

    private mutating func receivedPending(_ id: Int, _ frame: DecodedFrame, now: Double) -> [Decision] {
        switch frame {
        case .message(.hello(let h)):
            pending[id] = nil
            guard h.version == RemoteProtocol.version else {
                return refuse(id, .version, "this host speaks protocol version \(RemoteProtocol.version), the remote \(h.version)")
            }
            if let token = policy.token, !RemoteToken.matches(h.token, expected: token) {
                return refuse(id, .unauthorized, h.token == nil ? "this host requires a token (--token)" : "wrong token")
            }
            var out: [Decision] = []
            if let old = active {
                out.append(.send(old.id, .error(code: RemoteErrorCode.replaced.rawValue, message: "another remote took over")))
                out.append(.close(old.id, reason: "replaced by a newer remote"))
            }
            active = Active(id: id, lastHeard: now, lastPing: now)
            out += [.authenticated(id), .deliver(.connected(connection: id, push: h.push))]
            return out
        case .message(let m):
            pending[id] = nil
            return refuse(id, .helloFirst, "the first message must be hello, got \(m.type)")
        case .unknownType(let t):
            return [.log("skipped a message of unknown type '\(t)' before hello")]
        case .invalid(let reason):
            return [.log("skipped an invalid frame before hello: \(reason)")]
        }
    }

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
