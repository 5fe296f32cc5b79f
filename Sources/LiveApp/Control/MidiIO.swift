import Foundation
import LiveCore
import Synchronization

/// MIDI in and out on its own thread ("physarum.midi"): the app's ports
/// named "Physarum Live" (on JACK one client with one input and one output
/// port), connected to every controller port, found again every second and
/// at once when JACK says ports changed, so controllers plugged in (or out)
/// while the app runs are picked up without a restart. A MIDI server that
/// dies (JACK) is noticed at once (the shim's shutdown flag) and looked for
/// every second until it is back; a system that appears later (a JACK
/// server started after the app) is picked up the same way. Incoming
/// messages are parsed, stamped with their arrival time on the frame clock
/// and queued for the frame (`drain`); feedback from the frame (`send`)
/// goes to every controller. Thread safety: every member from any thread.
final class MidiIO: @unchecked Sendable {
    static let clientName = "Physarum Live"
    private let origin: ContinuousClock.Instant
    private let detect: @Sendable () -> MidiSystem?
    private let inbox = Mutex<[TimedMidiMessage]>([])
    private let outbox = Mutex<[MidiMessage]>([])
    private let notices = Mutex<[(String, NoticeLevel)]>([])
    private let portList = Mutex<(inputs: [String], outputs: [String])>(([], []))
    private let statusLine = Mutex<String>("MIDI off")
    private let connections = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let firstAttempt = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let receivedCount = Atomic<Int>(0)
    private let sentCount = Atomic<Int>(0)

    /// Starts the thread; returns after its first attempt to open MIDI (so
    /// the status and the first notice are known). `origin`: the frame
    /// clock's zero, so message times are frame-clock seconds. `detect`:
    /// which system is there now (`MidiSystem.available`).
    init(origin: ContinuousClock.Instant, detect: @escaping @Sendable () -> MidiSystem? = { MidiSystem.available() }) {
        self.origin = origin
        self.detect = detect
        let t = Thread { [self] in run() }
        t.name = "physarum.midi"
        t.start()
        _ = firstAttempt.wait(timeout: .now() + 10)
    }

    /// Messages that arrived since the last call, in order.
    func drain() -> [TimedMidiMessage] { inbox.withLock { q in defer { q.removeAll(keepingCapacity: true) }; return q } }
    /// Queues messages for every output.
    func send(_ messages: [MidiMessage]) { if !messages.isEmpty { outbox.withLock { $0 += messages } } }
    /// What happened since the last call (connections made or lost, the server gone or back).
    func takeNotices() -> [(String, NoticeLevel)] { notices.withLock { q in defer { q.removeAll() }; return q } }
    /// Controller ports connected now (inputs, outputs).
    var connected: (inputs: [String], outputs: [String]) { portList.withLock { $0 } }
    /// "MIDI on JACK: …" or why MIDI is off.
    var status: String { statusLine.withLock { $0 } }
    /// Grows each time a controller (or other software) starts listening to
    /// our output, or the ports open again: every bound value is then sent.
    var connectionGeneration: Int { connections.load(ordering: .relaxed) }
    var received: Int { receivedCount.load(ordering: .relaxed) }
    var sent: Int { sentCount.load(ordering: .relaxed) }

    func stop(timeout: Double = 2) {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        _ = finished.wait(timeout: .now() + timeout)
    }

    private func say(_ text: String, _ level: NoticeLevel) { notices.withLock { $0.append((text, level)) } }
    private func setStatus(_ text: String) { statusLine.withLock { $0 = text } }

    private func run() {
        var backend = open(first: true)
        firstAttempt.signal()
        var ports = ScannedPorts()
        var lastOutputs = 0
        var buffer = [UInt8](repeating: 0, count: 1024)
        var nextScan = ContinuousClock.now, nextTry = ContinuousClock.now + .seconds(1)
        while !stopping.load(ordering: .relaxed) {
            let now = ContinuousClock.now
            if let b = backend, !b.alive {
                backend = nil
                ports = ScannedPorts()
                portList.withLock { $0 = ([], []) }
                say("MIDI: the \(b.system.rawValue) server went away; MIDI is off until it is back (looking every second)", .warning)
                setStatus("MIDI off: the \(b.system.rawValue) server went away (looking for it every second)")
                nextTry = now + .seconds(1)
            }
            if backend == nil {
                if now >= nextTry {
                    nextTry = now + .seconds(1)
                    backend = open(first: false)
                    nextScan = now
                    lastOutputs = 0
                }
                if backend == nil {
                    Thread.sleep(forTimeInterval: 0.02)  // the MIDI thread's idle pace while no server is there
                    continue
                }
            }
            guard let b = backend else { continue }
            if now >= nextScan || b.takeChanged() {
                nextScan = now + .seconds(1)
                scan(b, ports: &ports)
                let outs = b.outputConnections
                if outs > lastOutputs { connections.add(1, ordering: .relaxed) }
                lastOutputs = outs
            }
            var got: [TimedMidiMessage] = []
            b.read(into: &buffer) { bytes in
                if let m = MidiMessage(bytes: bytes) {
                    got.append(TimedMidiMessage(m, time: (ContinuousClock.now - origin) / .seconds(1)))
                }
            }
            if !got.isEmpty {
                receivedCount.add(got.count, ordering: .relaxed)
                inbox.withLock { q in
                    q += got
                    if q.count > 8192 { q.removeFirst(q.count - 8192) }
                }
            }
            let out = outbox.withLock { q in defer { q.removeAll() }; return q }
            for m in out { b.send(m.bytes) }
            if !out.isEmpty { sentCount.add(out.count, ordering: .relaxed) }
            Thread.sleep(forTimeInterval: 0.001)  // the poll interval of the MIDI queues (I/O thread, not a test)
        }
        finished.signal()
    }

    /// Opens the system there now. The first attempt always says how it went;
    /// later attempts speak only when MIDI comes (back) on.
    private func open(first: Bool) -> (any MidiBackend)? {
        guard let system = detect() else {
            if first {
                let line = "MIDI off: no ALSA sequencer (/dev/snd/seq) and no JACK server running"
                setStatus(line)
                say(line, .info)
            }
            return nil
        }
        do {
            let b = try system.open(clientName: Self.clientName)
            setStatus("MIDI on \(system.rawValue): ports \"\(Self.clientName)\"")
            if !first { say("MIDI on \(system.rawValue) again: ports \"\(Self.clientName)\"", .info) }
            connections.add(1, ordering: .relaxed)
            return b
        } catch {
            let line = "MIDI off: \(system.rawValue): \(error) (looking again every second)"
            if first { say(line, .warning) }
            setStatus(line)
            return nil
        }
    }

    /// Connects to controller ports that appeared and forgets those that went
    /// away. A port is connected when it first appears (one the user then
    /// disconnects by hand stays disconnected until it comes back). A
    /// connection refused is tried again at every scan for
    /// `ScannedPorts.retryWindow`: a JACK client's ports appear before it
    /// activates, and JACK refuses to connect an inactive client's ports, so
    /// a controller caught in between would otherwise stay deaf (or dark: no
    /// feedback) until replugged. After the window it is left alone until it
    /// goes away and comes back (on ALSA each try opens a sequencer client,
    /// which other software sees come and go). A refusal goes to the library
    /// log at once and is said to the user when it still holds
    /// `ScannedPorts.patience` later.
    private func scan(_ b: any MidiBackend, ports: inout ScannedPorts) {
        let sources = b.sources(), destinations = b.destinations()
        let now = ContinuousClock.now
        var news: [String] = []
        for name in sources where !ports.listening.contains(name) {
            if let r = ports.listenRefused[name], now - r.since > ScannedPorts.retryWindow { continue }
            do {
                try b.listen(to: name)
                ports.listening.insert(name)
                ports.listenRefused[name] = nil
                news.append("MIDI: listening to \(name)")
            } catch {
                if let r = ports.listenRefused[name] {
                    if !r.said && now - r.since >= ScannedPorts.patience {
                        ports.listenRefused[name]?.said = true
                        news.append("MIDI: cannot listen to \(name): \(error)")
                    }
                } else {
                    MidiLibraryLog.add("cannot listen to \(name) (trying again for a while): \(error)")
                    ports.listenRefused[name] = (now, false)
                }
            }
        }
        for name in ports.listening where !sources.contains(name) {
            ports.listening.remove(name)
            news.append("MIDI: \(name) went away")
            b.stopListening(to: name)
        }
        ports.listenRefused = ports.listenRefused.filter { sources.contains($0.key) }
        for name in destinations where !ports.feeding.contains(name) {
            if let since = ports.feedRefused[name], now - since > ScannedPorts.retryWindow { continue }
            do {
                try b.feed(name)
                ports.feeding.insert(name)
                ports.feedRefused[name] = nil
            } catch {
                if ports.feedRefused[name] == nil {
                    MidiLibraryLog.add("cannot send to \(name) (trying again for a while): \(error)")
                    ports.feedRefused[name] = now
                }
            }
        }
        for name in ports.feeding where !destinations.contains(name) {
            ports.feeding.remove(name)
            b.stopFeeding(name)
        }
        ports.feedRefused = ports.feedRefused.filter { destinations.contains($0.key) }
        portList.withLock { $0 = (ports.listening.sorted(), ports.feeding.sorted()) }
        for n in news { say(n, .info) }
    }
}

/// What the MIDI thread's scans found: ports listened to and fed, and since
/// when a refused port has refused (a listen refusal also whether the user
/// was told).
private struct ScannedPorts {
    /// How long a port may refuse before the user is told (a client that
    /// is slow to activate is not worth a notice).
    static let patience = Duration.seconds(3)
    /// How long a refused port is tried again at every scan.
    static let retryWindow = Duration.seconds(10)
    var listening: Set<String> = []
    var listenRefused: [String: (since: ContinuousClock.Instant, said: Bool)] = [:]
    var feeding: Set<String> = []
    var feedRefused: [String: ContinuousClock.Instant] = [:]
}
