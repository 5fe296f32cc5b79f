import Foundation
import LiveCore
import Synchronization

/// The remote's network side: connects to a host, greets it, keeps the
/// connection (answers pings, drops a host silent for 3 s), reconnects with
/// back-off, and sends what the editor posts — intents at once, params
/// through the 20-per-second throttle (held values go out before an intent).
/// One thread with poll(2) and a non-blocking socket.
///
/// Thread safety: `post`, `setLook`, `drain`, `stop` from any thread;
/// the rest belongs to the network thread.
final class RemoteClient: @unchecked Sendable {
    /// What the editor hears from the network.
    enum Event: Equatable, Sendable {
        case status(RemoteStatus)
        /// A new connection was greeted: its states follow (acks restart from 0).
        case greeted
        case state(RemoteState)
        /// The host reported a problem (e.g. an unknown preset).
        case hostError(code: String, message: String)
    }

    /// What the editor sends.
    enum Outgoing: Equatable, Sendable {
        case intent(seq: UInt64, RemoteIntent)
        case params(seq: UInt64, [ParamAssignment])
    }

    let target: HostPort
    let token: String?
    /// Send our own look in `hello` (`--push`) instead of pulling the host's.
    let push: Bool
    /// Attempts before giving up on a host never reached (nil: keep trying, `--wait`).
    /// A host that was reached once is tried again forever after a loss.
    let giveUpAfter: Int?
    static let defaultAttempts = 5

    private struct Shared {
        var events: [Event] = []
        var outgoing: [Outgoing] = []
        var look: RemoteState?
    }

    private enum Phase {
        case idle(retryAt: Double)
        case connecting(Socket, since: Double)
        case open(Socket)
    }

    private let shared = Mutex(Shared())
    private let thread: NetworkThread
    private var wake: Wakeup { thread.wake }
    private var readBuffer: UnsafeMutableRawBufferPointer { thread.readBuffer }
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    // Network thread only:
    private var phase = Phase.idle(retryAt: 0)
    private var attempt = 0
    private var backoff = Backoff()
    private var decoder = FrameDecoder(limit: RemoteProtocol.frameLimit)
    private var out: [UInt8] = []
    private var lastHeard = 0.0
    private var throttle = ParamThrottle()
    private var stoppedForGood = false
    private var everConnected = false
    /// The reason of the last `retrying` status sent (the same reason is not repeated each try).
    private var lastRetryReason: String?

    init(target: HostPort, token: String?, push: Bool, giveUpAfter: Int? = RemoteClient.defaultAttempts) throws(NetError) {
        self.target = target
        self.token = token
        self.push = push
        self.giveUpAfter = giveUpAfter
        thread = try NetworkThread()
        origin = clock.now
    }

    /// Starts the network thread.
    func start() { thread.start(name: "physarum.remote-client") { [self] in run() } }

    /// Sends held params, closes the connection and stops the thread (waits up to 2 s).
    func stop() {
        thread.stop()
    }

    /// Queues an intent or params for the host (dropped while not connected).
    func post(_ message: Outgoing) {
        shared.withLock { s in
            if s.outgoing.count < 1024 { s.outgoing.append(message) }
        }
        wake.signal()
    }

    /// The editor's current look, pushed in `hello` when `push` is set
    /// (set it before `start`, and whenever it changes).
    func setLook(_ look: RemoteState) {
        shared.withLock { $0.look = look }
    }

    /// Events since the last call (frame loop).
    func drain() -> [Event] {
        shared.withLock { s in
            let e = s.events
            s.events.removeAll(keepingCapacity: true)
            return e
        }
    }

    private var now: Double { (clock.now - origin).seconds }

    private func emit(_ e: Event) {
        shared.withLock { s in
            // States supersede each other; keep the queue short if the editor stalls.
            if case .state = e, case .state? = s.events.last { s.events[s.events.count - 1] = e } else { s.events.append(e) }
        }
    }

    // MARK: the network thread

    private func run() {
        while !thread.isStopping {
            let t = now
            var timeout = 0.5
            var entries = [PollSet.Entry(fd: wake.fd, read: true, write: false)]
            switch phase {
            case .idle(let at):
                if stoppedForGood { break }
                if t >= at { beginConnect(t); continue }
                timeout = min(timeout, at - t)
            case .connecting(let s, let since):
                if t - since > RemoteProtocol.helloTimeout { fail("no answer from \(target) within \(Int(RemoteProtocol.helloTimeout)) s"); continue }
                entries.append(PollSet.Entry(fd: s.fd, read: false, write: true))
                timeout = min(timeout, since + RemoteProtocol.helloTimeout - t)
            case .open(let s):
                if t - lastHeard >= RemoteProtocol.silenceLimit { fail("the host was silent for \(Int(RemoteProtocol.silenceLimit)) s"); continue }
                sendOutgoing(t)
                if let d = throttle.deadline { timeout = min(timeout, d - t) }
                timeout = min(timeout, lastHeard + RemoteProtocol.silenceLimit - t)
                entries.append(PollSet.Entry(fd: s.fd, read: true, write: !out.isEmpty))
            }
            let ready = PollSet.wait(entries, timeout: max(timeout, 0))
            if ready[0].readable { wake.drain() }
            guard ready.count > 1 else { continue }
            switch phase {
            case .connecting(let s, _):
                if ready[1].writable || ready[1].broken { finishConnect(s) }
            case .open(let s):
                if ready[1].readable || ready[1].broken { readFrom(s) }
                if case .open = phase, ready[1].writable { flush(s) }
            case .idle:
                break
            }
        }
        // Last held params, best effort.
        if case .open(let s) = phase {
            sendOutgoing(now)
            if let p = throttle.flush(now: now) { enqueue(.params(seq: p.seq, p.values)) }
            flush(s)
        }
        phase = .idle(retryAt: .infinity)
    }

    private func beginConnect(_ t: Double) {
        attempt += 1
        if attempt == 1 { emit(.status(.connecting(attempt: attempt))) }  // later tries: the retrying line already says so
        do {
            let addresses = try SocketAddress.resolve(host: target.host, port: target.port, passive: false)
            phase = .connecting(try Socket.connect(addresses[0]), since: t)
        } catch {
            fail(error.description)
        }
    }

    private func finishConnect(_ s: Socket) {
        if let e = s.pendingError {
            fail("cannot connect to \(target): \(e)")
            return
        }
        decoder = FrameDecoder(limit: RemoteProtocol.frameLimit)
        out = []
        throttle.reset()
        shared.withLock { $0.outgoing.removeAll() }
        lastHeard = now
        let look = push ? shared.withLock { $0.look } : nil
        phase = .open(s)
        enqueue(.hello(RemoteHello(token: token, push: look)))
        flush(s)
        emit(.greeted)
    }

    /// Drops the connection and schedules another attempt (or stops for good).
    private func fail(_ reason: String, final: Bool = false) {
        phase = .idle(retryAt: .infinity)
        out = []
        throttle.reset()
        shared.withLock { $0.outgoing.removeAll() }
        if final {
            stoppedForGood = true
            emit(.status(.stopped(reason: reason)))
            return
        }
        if !everConnected, let limit = giveUpAfter, attempt >= limit {
            stoppedForGood = true
            emit(.status(.stopped(reason: "cannot reach \(target) after \(attempt) tries (\(reason)); is `physarum --listen` running there? (--wait keeps trying)")))
            return
        }
        let delay = backoff.take()
        phase = .idle(retryAt: now + delay)
        if reason != lastRetryReason {
            lastRetryReason = reason
            emit(.status(.retrying(reason: reason, inSeconds: delay)))
        }
    }

    private func readFrom(_ s: Socket) {
        var events: [FrameDecoder.Event] = []
        var closed: String?
        reading: for _ in 0..<16 {
            switch s.read(into: readBuffer) {
            case .data(let n):
                lastHeard = now
                events += decoder.feed(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]))
            case .wouldBlock: break reading
            case .closed: closed = "the host closed the connection"; break reading
            case .failed(let e): closed = "connection lost: \(e)"; break reading
            }
        }
        let t = now
        for e in events {
            guard case .open = phase else { return }
            switch e {
            case .frame(let bytes):
                lastHeard = t
                handle(RemoteMessage.decode(bytes), s)
            case .skipped(let reason):
                lastHeard = t
                printError("physarum remote: skipped a frame from the host: \(reason)")
            case .fatal(let reason):
                fail("the host sent a bad frame: \(reason)")
            }
        }
        if let closed, case .open = phase { fail(closed) }
    }

    private func handle(_ decoded: DecodedFrame, _ s: Socket) {
        switch decoded {
        case .message(.state(let st)):
            if attempt > 0 {
                attempt = 0
                backoff.reset()
                everConnected = true
                lastRetryReason = nil
                emit(.status(.connected))
            }
            emit(.state(st))
        case .message(.ping(let n)):
            enqueue(.pong(n))
            flush(s)
        case .message(.error(let code, let message)):
            switch RemoteErrorCode(rawValue: code) {
            case .unauthorized?, .version?:
                fail("refused by the host: \(message)", final: true)
            case .replaced?:
                fail("another remote took over", final: true)
            case .rejected?, .badMessage?:
                emit(.hostError(code: code, message: message))
            default:
                fail("the host said: \(message)")
            }
        case .message:
            break
        case .unknownType, .invalid:
            break
        }
    }

    private func sendOutgoing(_ t: Double) {
        let queued = shared.withLock { s in
            let q = s.outgoing
            s.outgoing.removeAll(keepingCapacity: true)
            return q
        }
        for m in queued {
            switch m {
            case .params(let seq, let values):
                if let p = throttle.offer(values, seq: seq, now: t) { enqueue(.params(seq: p.seq, p.values)) }
            case .intent(let seq, let intent):
                if let p = throttle.flush(now: t) { enqueue(.params(seq: p.seq, p.values)) }
                enqueue(.intent(seq: seq, intent))
            }
        }
        if let p = throttle.poll(now: t) { enqueue(.params(seq: p.seq, p.values)) }
        if case .open(let s) = phase, !out.isEmpty { flush(s) }
    }

    private func enqueue(_ m: RemoteMessage) {
        out += m.frame
    }

    private func flush(_ s: Socket) {
        guard !out.isEmpty else { return }
        guard let n = out.withUnsafeBytes({ s.write($0) }) else {
            fail("connection lost while sending")
            return
        }
        out.removeFirst(n)
    }
}
