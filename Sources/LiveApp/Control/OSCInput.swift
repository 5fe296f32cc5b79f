import AudioReactive
import Foundation
import Glibc
import LiveCore
import Synchronization

/// What OSC input has seen (for `--stats`, the state file and the panel).
struct OSCInputStats: Equatable, Sendable {
    /// Datagrams read.
    var packets = 0
    /// Messages that became actions.
    var accepted = 0
    /// Malformed datagrams and messages the address space refused (counted, ignored).
    var rejected = 0
    /// Actions dropped because the frame did not take them fast enough.
    var droppedActions = 0
    /// Datagrams the kernel dropped before we read them (a full receive buffer in a flood; SO_RXQ_OVFL).
    var droppedByKernel = 0
    /// Everything lost: datagrams the kernel dropped and actions the frame had no room for.
    var dropped: Int { droppedActions + droppedByKernel }
    /// Datagrams decoded on the OSC thread, and on the main (frame) thread (always 0: the proof).
    var decodedOnOSCThread = 0
    var decodedOnFrameThread = 0
}

/// OSC in: a UDP port read by its own thread ("physarum.osc-in"), which
/// decodes each datagram (liblo), maps it through `OSCAddressSpace` to
/// actions and queues them; the frame only takes finished actions
/// (`drain`). Bad packets are counted and logged at most 5 a second.
/// Thread safety: `drain`/`stats`/`stop` from any thread.
final class OSCInput: @unchecked Sendable {
    /// The bound address (its port when 0 was asked).
    let address: SocketAddress
    private let socket: Socket
    private let thread: NetworkThread
    private let inbox = Mutex<[AppAction]>([])
    private let counters = Mutex(OSCInputStats())
    private let routes = Atomic<Int>(AudioConfig.maxRoutes)
    static let inboxLimit = 4096

    /// Binds `[host:]port` (no host: every IPv4 interface) and starts the thread.
    init(_ where_: HostPort) throws(NetError) {
        let a = try SocketAddress.resolve(host: where_.host ?? "0.0.0.0", port: where_.port, passive: true)[0]
        socket = try Socket.udp(bind: a)
        address = socket.localAddress ?? a
        thread = try NetworkThread()
        thread.start(name: "physarum.osc-in") { [self] in run() }
    }

    deinit { stop() }

    func stop() { thread.stop() }

    var stats: OSCInputStats { counters.withLock { $0 } }

    /// Routes in the audio config now (the frame keeps it fresh): an address
    /// naming a route beyond it is refused on the OSC thread.
    var routeCount: Int {
        get { routes.load(ordering: .relaxed) }
        set { routes.store(newValue, ordering: .relaxed) }
    }

    /// The actions that arrived since the last call, in order.
    func drain() -> [AppAction] {
        inbox.withLock { q in
            defer { q.removeAll(keepingCapacity: true) }
            return q
        }
    }

    private func run() {
        var log = RateLimitedLog(prefix: "physarum: OSC")
        let clock = ContinuousClock(), start = clock.now
        var fds = [pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: thread.wake.fd, events: Int16(POLLIN), revents: 0)]
        while !thread.isStopping {
            _ = poll(&fds, 2, 500)
            thread.wake.drain()
            while let (n, kernelDropped) = socket.receiveDatagram(into: thread.readBuffer) {
                let now = (clock.now - start) / .seconds(1)
                if let kernelDropped { counters.withLock { $0.droppedByKernel = kernelDropped } }
                let problems = handle(UnsafeRawBufferPointer(rebasing: thread.readBuffer[0..<n]))
                for p in problems { log.log(p, now: now) }
            }
        }
    }

    /// Decodes one datagram and queues its actions; returns what was wrong.
    private func handle(_ data: UnsafeRawBufferPointer) -> [String] {
        var actions: [AppAction] = []
        var problems: [String] = []
        var accepted = 0
        let decoded = OSCWire.decode(data)
        if let why = decoded.problem {
            problems.append(why)
        } else {
            for m in decoded.messages {
                switch OSCAddressSpace.actions(for: m, context: OSCContext(routeCount: routeCount)) {
                case .success(let a):
                    actions += a
                    accepted += 1
                case .failure(let e):
                    problems.append(e.description)
                }
            }
        }
        var dropped = 0
        if !actions.isEmpty {
            inbox.withLock { q in
                let room = max(0, Self.inboxLimit - q.count)
                q += actions.prefix(room)
                dropped = actions.count - min(room, actions.count)
            }
        }
        let onMain = Thread.isMainThread
        counters.withLock { c in
            c.packets += 1
            c.accepted += accepted
            c.rejected += problems.count
            c.droppedActions += dropped
            if onMain { c.decodedOnFrameThread += 1 } else { c.decodedOnOSCThread += 1 }
        }
        return problems
    }
}

/// OSC out: the feature stream, one bundle per frame, sent by its own
/// thread ("physarum.osc-out") from a short queue; the frame only hands over
/// a value (`offer`), and a full queue drops the oldest (counted).
/// Thread safety: `offer`/`stats`/`stop` from any thread.
final class OSCFeatureSender: @unchecked Sendable {
    let destination: OSCDestination
    private let queue = Mutex<[FeatureFrame]>([])
    private let ready = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let sentCount = Atomic<Int>(0)
    private let droppedCount = Atomic<Int>(0)
    private let failedCount = Atomic<Int>(0)
    static let queueLimit = 64

    /// Sends to `HOST:PORT`.
    init(_ target: HostPort) throws(NetError) {
        destination = try OSCDestination(host: target.host ?? "127.0.0.1", port: target.port)
        let t = Thread { [self] in run() }
        t.name = "physarum.osc-out"
        t.start()
    }

    var sent: Int { sentCount.load(ordering: .relaxed) }
    var dropped: Int { droppedCount.load(ordering: .relaxed) }
    var failed: Int { failedCount.load(ordering: .relaxed) }

    /// Queues a frame for sending (never blocks).
    func offer(_ f: FeatureFrame) {
        let drop = queue.withLock { q -> Bool in
            let full = q.count >= Self.queueLimit
            if full { q.removeFirst() }
            q.append(f)
            return full
        }
        if drop { droppedCount.add(1, ordering: .relaxed) }
        ready.signal()
    }

    /// Sends what is queued, then stops the thread (waits up to `timeout`).
    func stop(timeout: Double = 2) {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        ready.signal()
        _ = finished.wait(timeout: .now() + timeout)
    }

    private func run() {
        while true {
            ready.wait()
            let frames = queue.withLock { q in defer { q.removeAll() }; return q }
            for f in frames {
                if destination.send(f) { sentCount.add(1, ordering: .relaxed) } else { failedCount.add(1, ordering: .relaxed) }
            }
            if stopping.load(ordering: .relaxed) && queue.withLock({ $0.isEmpty }) { break }
        }
        finished.signal()
    }
}
