import Foundation
import LiveCore
import Synchronization

/// MIDI in and out on its own thread ("physarum.midi"): a virtual input and
/// output named "Physarum Live" that other software can connect to, plus a
/// connection to every controller port, found again every second so that
/// controllers plugged in (or out) while the app runs are picked up without
/// a restart. Incoming messages are parsed and stamped with their arrival
/// time on the frame clock and queued for the frame (`drain`); feedback
/// from the frame (`send`) goes out to every connected controller and the
/// virtual output. Thread safety: `drain`/`send`/`takeNotices`/`stop` from any thread.
final class MidiIO: @unchecked Sendable {
    static let clientName = "Physarum Live"
    let system: MidiSystem
    private let origin: ContinuousClock.Instant
    private let inbox = Mutex<[TimedMidiMessage]>([])
    private let outbox = Mutex<[MidiMessage]>([])
    private let notices = Mutex<[String]>([])
    private let portList = Mutex<(inputs: [String], outputs: [String])>(([], []))
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let receivedCount = Atomic<Int>(0)
    private let sentCount = Atomic<Int>(0)

    /// Opens the virtual ports on `system` and starts the thread. `origin`:
    /// the frame clock's zero, so message times are frame-clock seconds.
    init(system: MidiSystem, origin: ContinuousClock.Instant) throws(MidiError) {
        self.system = system
        self.origin = origin
        let virtualIn = try MidiInPort(system, client: Self.clientName, connectTo: nil)
        let virtualOut = try MidiOutPort(system, client: Self.clientName, connectTo: nil)
        let t = Thread { [self] in run(virtualIn: virtualIn, virtualOut: virtualOut) }
        t.name = "physarum.midi"
        t.start()
    }

    /// Messages that arrived since the last call, in order.
    func drain() -> [TimedMidiMessage] { inbox.withLock { q in defer { q.removeAll(keepingCapacity: true) }; return q } }
    /// Queues messages for every output.
    func send(_ messages: [MidiMessage]) { if !messages.isEmpty { outbox.withLock { $0 += messages } } }
    /// Connections made or lost since the last call.
    func takeNotices() -> [String] { notices.withLock { q in defer { q.removeAll() }; return q } }
    /// Controller ports connected now (inputs, outputs).
    var connected: (inputs: [String], outputs: [String]) { portList.withLock { $0 } }
    var received: Int { receivedCount.load(ordering: .relaxed) }
    var sent: Int { sentCount.load(ordering: .relaxed) }

    func stop(timeout: Double = 2) {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        _ = finished.wait(timeout: .now() + timeout)
    }

    private func run(virtualIn: MidiInPort, virtualOut: MidiOutPort) {
        var inputs: [String: MidiInPort] = [:]
        var outputs: [String: MidiOutPort] = [:]
        var buffer = [UInt8](repeating: 0, count: 1024)
        var nextScan = ContinuousClock.now
        while !stopping.load(ordering: .relaxed) {
            let now = ContinuousClock.now
            if now >= nextScan {
                nextScan = now + .seconds(1)
                scan(virtualIn: virtualIn, virtualOut: virtualOut, inputs: &inputs, outputs: &outputs)
            }
            var got: [TimedMidiMessage] = []
            for port in [virtualIn] + inputs.values {
                while let n = port.next(into: &buffer) {
                    if let m = MidiMessage(bytes: buffer[0..<n]) {
                        got.append(TimedMidiMessage(m, time: (ContinuousClock.now - origin) / .seconds(1)))
                    }
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
            for m in out {
                let bytes = m.bytes
                virtualOut.send(bytes)
                for o in outputs.values { o.send(bytes) }
            }
            if !out.isEmpty { sentCount.add(out.count, ordering: .relaxed) }
            Thread.sleep(forTimeInterval: 0.001)  // the poll interval of rtmidi's queues (I/O thread, not a test)
        }
        finished.signal()
    }

    /// Connects to controller ports that appeared and drops those that went away.
    private func scan(virtualIn: MidiInPort, virtualOut: MidiOutPort, inputs: inout [String: MidiInPort], outputs: inout [String: MidiOutPort]) {
        func isOurs(_ name: String) -> Bool { name.contains(Self.clientName) }
        let sources = virtualIn.sourceNames.filter { !$0.isEmpty && !isOurs($0) }
        let destinations = virtualOut.destinationNames.filter { !$0.isEmpty && !isOurs($0) }
        var news: [String] = []
        for name in sources where inputs[name] == nil {
            do {
                inputs[name] = try MidiInPort(system, client: Self.clientName, connectTo: name)
                news.append("MIDI: listening to \(name)")
            } catch {
                news.append("MIDI: cannot listen to \(name): \(error)")
            }
        }
        for name in inputs.keys where !sources.contains(name) {
            inputs[name] = nil
            news.append("MIDI: \(name) went away")
        }
        for name in destinations where outputs[name] == nil {
            if let o = try? MidiOutPort(system, client: Self.clientName, connectTo: name) { outputs[name] = o }
        }
        for name in outputs.keys where !destinations.contains(name) { outputs[name] = nil }
        portList.withLock { $0 = (inputs.keys.sorted(), outputs.keys.sorted()) }
        if !news.isEmpty { notices.withLock { $0 += news } }
    }
}
