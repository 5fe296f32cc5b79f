import Foundation

/// One MIDI system as the MIDI thread (`MidiIO`) uses it: the app's own
/// ports, the controller ports it can reach, connections, messages in and
/// out. Used by the MIDI thread only.
protocol MidiBackend: AnyObject {
    var system: MidiSystem { get }
    /// False once the MIDI server went away (JACK); the thread then looks for it again.
    var alive: Bool { get }
    /// True when ports may have appeared or gone since the last call (scan now).
    func takeChanged() -> Bool
    /// Ports that send to us when connected (controllers' outputs).
    func sources() -> [String]
    /// Ports we can send to (controllers' inputs, for feedback).
    func destinations() -> [String]
    func listen(to source: String) throws(MidiError)
    func stopListening(to source: String)
    func feed(_ destination: String) throws(MidiError)
    func stopFeeding(_ destination: String)
    /// Every message waiting, in arrival order per source.
    func read(into buffer: inout [UInt8], _ each: (ArraySlice<UInt8>) -> Void)
    /// Sends to every destination fed (and whoever connected to our output).
    func send(_ bytes: [UInt8])
    /// Connections our output has now (a rise means a new listener wants every value).
    var outputConnections: Int { get }
}

/// JACK: one client "Physarum Live" with one input and one output port;
/// every controller's output is connected to our input and our output to
/// every controller's input (JACK joins them; the shim's client never opens
/// a second one).
final class JackMidiBackend: MidiBackend {
    let system = MidiSystem.jack
    let client: JackMidiClient

    init(clientName: String) throws(MidiError) { client = try JackMidiClient(name: clientName) }

    var alive: Bool { client.alive }
    func takeChanged() -> Bool { client.takeChanged() }
    func sources() -> [String] { client.ports(sources: true) }
    func destinations() -> [String] { client.ports(sources: false) }
    func listen(to source: String) throws(MidiError) { try client.connect(source, fromPort: true) }
    func stopListening(to source: String) {}  // JACK drops a connection when its port goes
    func feed(_ destination: String) throws(MidiError) { try client.connect(destination, fromPort: false) }
    func stopFeeding(_ destination: String) {}
    func read(into buffer: inout [UInt8], _ each: (ArraySlice<UInt8>) -> Void) {
        while let n = client.next(into: &buffer) { each(buffer[0..<n]) }
    }
    func send(_ bytes: [UInt8]) { client.send(bytes) }
    var outputConnections: Int { client.outputConnections }
}

/// The ALSA sequencer through RtMidi: a virtual input and output named
/// "Physarum Live" that other software can connect to, and one RtMidi
/// device per controller port (RtMidi cannot connect ports it does not own).
final class RtMidiBackend: MidiBackend {
    let system: MidiSystem
    private let clientName: String
    private let virtualIn: RtMidiDevice
    private let virtualOut: RtMidiDevice
    private var inputs: [String: RtMidiDevice] = [:]
    private var outputs: [String: RtMidiDevice] = [:]

    init(_ system: MidiSystem, clientName: String) throws(MidiError) {
        self.system = system
        self.clientName = clientName
        virtualIn = try RtMidiDevice(system, output: false, client: clientName, connectTo: nil, ownPort: "in")
        virtualOut = try RtMidiDevice(system, output: true, client: clientName, connectTo: nil, ownPort: "out")
    }

    let alive = true
    func takeChanged() -> Bool { false }
    private func isOurs(_ name: String) -> Bool { name.isEmpty || name.contains(clientName) }
    func sources() -> [String] { virtualIn.portNames.filter { !isOurs($0) } }
    func destinations() -> [String] { virtualOut.portNames.filter { !isOurs($0) } }
    func listen(to source: String) throws(MidiError) {
        inputs[source] = try RtMidiDevice(system, output: false, client: clientName, connectTo: source, ownPort: "in")
    }
    func stopListening(to source: String) { inputs[source] = nil }
    func feed(_ destination: String) throws(MidiError) {
        outputs[destination] = try RtMidiDevice(system, output: true, client: clientName, connectTo: destination, ownPort: "out")
    }
    func stopFeeding(_ destination: String) { outputs[destination] = nil }
    func read(into buffer: inout [UInt8], _ each: (ArraySlice<UInt8>) -> Void) {
        for port in [virtualIn] + inputs.values {
            while let n = port.next(into: &buffer) { each(buffer[0..<n]) }
        }
    }
    func send(_ bytes: [UInt8]) {
        virtualOut.send(bytes)
        for o in outputs.values { o.send(bytes) }
    }
    var outputConnections: Int { outputs.count }
}

extension MidiSystem {
    /// Opens this system's backend for the app's client.
    func open(clientName: String) throws(MidiError) -> any MidiBackend {
        switch self {
        case .jack: try JackMidiBackend(clientName: clientName)
        case .alsa: try RtMidiBackend(.alsa, clientName: clientName)
        }
    }
}
