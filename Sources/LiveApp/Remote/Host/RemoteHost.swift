import Foundation
import LiveCore
import Synchronization

/// The host's network side: a listening socket and its connections, served by
/// one thread with poll(2) and non-blocking sockets. The frame loop never
/// touches a socket: it drains `inbox` and posts state snapshots with
/// `publish`, which wakes the thread.
///
/// Thread safety: `drain`, `publish`, `reject`, `stop` and the counters may be
/// called from any thread; everything else belongs to the network thread.
final class RemoteHost: HostTransport, @unchecked Sendable {
    /// Read limits per connection and the reply backlog (docs/remote-protocol.md's table).
    static let readRate = RemoteProtocol.readRate
    static let readBurst = RemoteProtocol.readBurst
    static let frameRate = RemoteProtocol.frameRate
    static let maxOutbox = RemoteProtocol.maxOutbox

    /// The address actually bound (the OS fills in port 0).
    let address: SocketAddress
    /// The token `hello` must carry, if any: the one given, else a random one
    /// when bound beyond loopback, else none.
    let token: String?
    /// Whether `token` was made up here (it must be shown to the user).
    let generatedToken: Bool
    let inbox = HostInbox()
    /// Connections accepted so far.
    var accepted: Int { counters.withLock { $0.accepted } }
    /// Frames skipped (empty, not JSON, invalid, unknown type).
    var skippedFrames: Int { counters.withLock { $0.skipped } }
    /// Socket reads done on a thread other than the network thread (the
    /// frame loop must never read a socket): 0 by design, counted to prove it.
    var readsOffNetworkThread: Int { counters.withLock { $0.readsElsewhere } }

    private struct Counters {
        var accepted = 0
        var skipped = 0
        var readsElsewhere = 0
    }
    /// The network thread (set when it starts; read only on it).
    private var networkThread: pthread_t?

    private struct Connection {
        let socket: Socket
        var decoder = FrameDecoder(limit: RemoteProtocol.preHelloLimit)
        var out: [UInt8] = []
        var outStart = 0
        /// Set once the table decided to close it: flush, then close by this time.
        var closeBy: Double?
        var tokens = RemoteHost.readBurst
        var frameTokens = RemoteHost.frameRate
        var refilled: Double
        var sentRevision: UInt64 = 0
        var pendingOut: Int { out.count - outStart }
    }

    private struct Outgoing {
        var state: (connection: Int, state: RemoteState)?
        var messages: [(connection: Int, message: RemoteMessage)] = []
    }

    private let listener: Socket
    private let thread: NetworkThread
    private var wake: Wakeup { thread.wake }
    private var readBuffer: UnsafeMutableRawBufferPointer { thread.readBuffer }
    private let outgoing = Mutex(Outgoing())
    private let counters = Mutex(Counters())
    /// Each open connection's peer address (written on the network thread, read anywhere).
    private let peers = Mutex([Int: String]())
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    // Network thread only:
    private var table: HostTable
    private var connections: [Int: Connection] = [:]
    private var nextID = 1
    private var log = RateLimitedLog(prefix: "physarum: remote control")

    /// Binds `listen` (host nil = 127.0.0.1). Throws when the address cannot be used.
    /// Bound outside 127.0.0.0/8 and ::1 without a `token`, it makes a random one.
    init(listen: HostPort, token: String?) throws(NetError) {
        let candidates = try SocketAddress.resolve(host: listen.host ?? "127.0.0.1", port: listen.port, passive: true)
        var bound: Socket?
        var lastError = NetError("no address")
        for a in candidates {
            do {
                bound = try Socket.listen(a)
                break
            } catch {
                lastError = error
            }
        }
        guard let bound, let local = bound.localAddress else { throw lastError }
        listener = bound
        address = local
        let required = token ?? (local.isLoopback ? nil : RemoteToken.generate())
        self.token = required
        generatedToken = token == nil && required != nil
        table = HostTable(policy: HostTable.Policy(token: required))
        thread = try NetworkThread()
        origin = clock.now
    }

    /// Starts the network thread.
    func start() { thread.start(name: "physarum.remote-host") { [self] in run() } }

    /// Stops the thread and closes every connection (waits up to 2 s).
    func stop() {
        thread.stop()
    }

    /// Events from the network since the last call (frame loop).
    func drain() -> [HostEvent] { inbox.drain() }

    /// The host's state for remote `connection`; sent unless it is no longer the remote.
    func publish(_ state: RemoteState, connection: Int) {
        outgoing.withLock { $0.state = (connection, state) }
        wake.signal()
    }

    /// Tells remote `connection` that something it asked could not be done.
    func reject(_ message: String, connection: Int) {
        outgoing.withLock { o in
            if o.messages.count < 64 {
                o.messages.append((connection, .error(code: RemoteErrorCode.rejected.rawValue, message: message)))
            }
        }
        wake.signal()
    }

    /// The address connection `connection` comes from, while it is open.
    func peerAddress(connection: Int) -> String? { peers.withLock { $0[connection] } }

    private var now: Double { (clock.now - origin).seconds }

    // MARK: the network thread

    private func run() {
        networkThread = pthread_self()
        while !thread.isStopping {
            execute(table.tick(now: now))
            sendOutgoing()
            reapClosing()
            let ids = connections.keys.sorted()
            var entries = [PollSet.Entry(fd: listener.fd, read: true, write: false), PollSet.Entry(fd: wake.fd, read: true, write: false)]
            var timeout = min(table.deadline() - now, 0.5)
            let t = now
            for id in ids {
                var c = connections[id]!
                refill(&c, t)
                connections[id] = c
                let readable = c.closeBy == nil && c.tokens > 0 && c.frameTokens > 0
                if c.closeBy == nil && c.tokens <= 0 { timeout = min(timeout, -c.tokens / Self.readRate + 0.001) }
                if c.closeBy == nil && c.frameTokens <= 0 { timeout = min(timeout, -c.frameTokens / Self.frameRate + 0.001) }
                if let by = c.closeBy { timeout = min(timeout, by - t) }
                entries.append(PollSet.Entry(fd: c.socket.fd, read: readable, write: c.pendingOut > 0))
            }
            let ready = PollSet.wait(entries, timeout: max(timeout, 0))
            if ready[1].readable { wake.drain() }
            // Existing connections first: hang-ups free pending places before newcomers are counted.
            for (k, id) in ids.enumerated() {
                let r = ready[k + 2]
                if r.readable || (r.broken && connections[id]?.closeBy == nil) { readFrom(id) }
                if r.writable || (connections[id]?.pendingOut ?? 0) > 0 { flush(id) }
            }
            if ready[0].readable { acceptAll() }
        }
        connections.removeAll()
        peers.withLock { $0.removeAll() }
    }

    private func acceptAll() {
        for _ in 0..<64 {
            guard let (socket, peer) = listener.accept() else { return }
            let id = nextID
            nextID += 1
            connections[id] = Connection(socket: socket, refilled: now)
            peers.withLock { $0[id] = peer.hostText }
            counters.withLock { $0.accepted += 1 }
            let decisions = table.opened(id, from: peer.admissionKey, now: now)
            if !decisions.isEmpty { log.log("connection from \(peer): an older one waiting for its hello made room", now: now) }
            execute(decisions)
        }
    }

    private func refill(_ c: inout Connection, _ t: Double) {
        c.tokens = min(Self.readBurst, c.tokens + (t - c.refilled) * Self.readRate)
        c.frameTokens = min(Self.frameRate, c.frameTokens + (t - c.refilled) * Self.frameRate)
        c.refilled = t
    }

    private func readFrom(_ id: Int) {
        guard var c = connections[id], c.closeBy == nil else { return }
        if networkThread.map({ pthread_equal($0, pthread_self()) == 0 }) ?? true { counters.withLock { $0.readsElsewhere += 1 } }
        var budget = c.frameTokens > 0 ? min(Int(c.tokens), 256 * 1024) : 0
        if budget <= 0 {
            // Hung up while over its read budget (a flood): do not spin on the hang-up.
            execute(table.closed(id, reason: "closed by the peer while over its read budget"))
            return
        }
        var closedReason: String?
        while budget > 0, closedReason == nil {
            let chunk = UnsafeMutableRawBufferPointer(rebasing: readBuffer[0..<min(readBuffer.count, budget)])
            switch c.socket.read(into: chunk) {
            case .data(let n):
                budget -= n
                c.tokens -= Double(n)
                connections[id] = c
                table.heard(id, now: now)
                // Frame by frame: a valid hello raises the limit before the next length is checked.
                var rest = UnsafeRawBufferPointer(rebasing: readBuffer[0..<n])
                while !rest.isEmpty {
                    guard var cur = connections[id], cur.closeBy == nil else { return }
                    let (events, used) = cur.decoder.feed(rest, stopAfterFrame: true)
                    cur.frameTokens -= Double(events.count)
                    connections[id] = cur
                    handle(events, from: id)
                    rest = UnsafeRawBufferPointer(rebasing: rest[used...])
                }
                guard let now = connections[id], now.closeBy == nil else { return }
                c = now
                if c.frameTokens <= 0 { budget = 0 }
            case .wouldBlock:
                budget = 0
            case .closed:
                closedReason = "closed by the peer"
            case .failed(let e):
                closedReason = "read failed: \(e)"
            }
        }
        connections[id] = c
        if let closedReason { execute(table.closed(id, reason: closedReason)) }
    }

    private func handle(_ events: [FrameDecoder.Event], from id: Int) {
        let t = now
        for e in events {
            guard connections[id]?.closeBy == nil else { return }
            switch e {
            case .frame(let bytes):
                let decoded = RemoteMessage.decode(bytes, limit: RemoteProtocol.frameLimit)
                if case .message = decoded {} else { counters.withLock { $0.skipped += 1 } }
                execute(table.received(id, decoded, now: t))
            case .skipped(let reason):
                counters.withLock { $0.skipped += 1 }
                execute(table.skipped(id, reason: reason, now: t))
            case .fatal(let reason):
                execute(table.closed(id, reason: reason))
            }
        }
    }

    private func execute(_ decisions: [HostTable.Decision]) {
        let t = now
        for d in decisions {
            switch d {
            case .send(let id, let m):
                enqueue(m, to: id)
            case .close(let id, let reason):
                guard var c = connections[id] else { continue }
                if c.closeBy == nil {
                    c.closeBy = t + 1
                    connections[id] = c
                    log.log("connection \(id) closed: \(reason)", now: t)
                }
            case .authenticated(let id):
                connections[id]?.decoder.limit = RemoteProtocol.frameLimit
                log.log("remote connected (connection \(id))", now: t)
            case .deliver(let e):
                if !inbox.post(e) { log.log("the frame loop is behind; a remote message was dropped", now: t) }
            case .log(let line):
                log.log(line, now: t)
            }
        }
    }

    private func enqueue(_ m: RemoteMessage, to id: Int) {
        guard var c = connections[id], c.closeBy == nil || isError(m) else { return }
        if c.pendingOut > Self.maxOutbox {
            connections[id] = c
            execute(table.closed(id, reason: "the peer does not read what is sent"))
            return
        }
        c.out += m.frame
        connections[id] = c
        flush(id)
    }

    private func isError(_ m: RemoteMessage) -> Bool {
        if case .error = m { return true }
        return false
    }

    private func flush(_ id: Int) {
        guard var c = connections[id], c.pendingOut > 0 else { return }
        let written = c.out.withUnsafeBytes { raw in c.socket.write(UnsafeRawBufferPointer(rebasing: raw[c.outStart...])) }
        guard let written else {
            c.out = []
            c.outStart = 0
            connections[id] = c
            if c.closeBy == nil { execute(table.closed(id, reason: "write failed")) }
            return
        }
        c.outStart += written
        if c.outStart == c.out.count {
            c.out.removeAll(keepingCapacity: c.out.count <= 64 * 1024)
            c.outStart = 0
        } else if c.outStart > 64 * 1024 {
            c.out.removeFirst(c.outStart)
            c.outStart = 0
        }
        connections[id] = c
    }

    private func sendOutgoing() {
        let (state, messages) = outgoing.withLock { o in
            let m = o.messages
            o.messages.removeAll()
            return (o.state, m)
        }
        for (id, m) in messages where table.active?.id == id { enqueue(m, to: id) }
        guard let (id, s) = state, table.active?.id == id, let c = connections[id], c.sentRevision < s.revision else { return }
        connections[id]!.sentRevision = s.revision
        enqueue(.state(s), to: id)
    }

    /// Closes connections whose goodbye went out (or that would not take it in time).
    private func reapClosing() {
        let t = now
        for (id, c) in connections {
            if let by = c.closeBy, c.pendingOut == 0 || t >= by {
                connections[id] = nil
                peers.withLock { $0[id] = nil }
            }
        }
    }
}
