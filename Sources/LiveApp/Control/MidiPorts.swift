import CRtMidi
import Foundation
import Glibc

/// Which MIDI system the app talks to through rtmidi.
enum MidiSystem: String, Sendable {
    case alsa = "ALSA sequencer"
    case jack = "JACK"

    fileprivate var api: RtMidiApi { self == .alsa ? RTMIDI_API_LINUX_ALSA : RTMIDI_API_UNIX_JACK }

    /// The ALSA sequencer where /dev/snd/seq exists, else JACK when a JACK
    /// server runs (its socket `jack_<server>_<uid>_0` in /dev/shm, server
    /// from $JACK_DEFAULT_SERVER, else "default"), else nil. Checked before
    /// asking rtmidi, so a machine with neither gets no library chatter.
    static func available(environment env: [String: String] = ProcessInfo.processInfo.environment) -> MidiSystem? {
        if access("/dev/snd/seq", R_OK | W_OK) == 0 { return .alsa }
        let server = env["JACK_DEFAULT_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let socketPath = "/dev/shm/jack_\(server)_\(getuid())_0"
        var st = stat()
        if stat(socketPath, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK { return .jack }
        return nil
    }
}

/// An rtmidi failure with rtmidi's own message.
struct MidiError: Error, CustomStringConvertible {
    let description: String
}

/// One rtmidi input (rtmidi_in_create): a virtual port others connect to,
/// or connected to one source port. Clock and transport are not filtered
/// (rtmidi_in_ignore_types: sysex and active sensing are). Owned by the MIDI
/// thread (`@unchecked Sendable` only to hand it over at creation).
final class MidiInPort: @unchecked Sendable {
    private let ptr: RtMidiInPtr
    let name: String

    /// `portName` nil: a virtual port named `virtualName`; else the source with that name.
    init(_ system: MidiSystem, client: String, connectTo portName: String?, virtualName: String = "in") throws(MidiError) {
        guard let p = rtmidi_in_create(system.api, client, 1024) else { throw MidiError(description: "rtmidi_in_create failed") }
        ptr = p
        name = portName ?? "\(client):\(virtualName)"
        if p.pointee.ok { rtmidi_in_ignore_types(p, true, false, true) }
        try MidiPortOpening.open(p, portName: portName, virtualName: virtualName, what: "MIDI input", ownName: "in")
    }

    deinit {
        rtmidi_close_port(ptr)
        rtmidi_in_free(ptr)
    }

    /// Names of the ports this system offers as inputs to us (sources).
    var sourceNames: [String] { Self.portNames(ptr) }

    /// The next queued message (rtmidi_in_get_message), or nil.
    func next(into buffer: inout [UInt8]) -> Int? {
        var size = buffer.count
        _ = buffer.withUnsafeMutableBufferPointer { rtmidi_in_get_message(ptr, $0.baseAddress, &size) }
        return ptr.pointee.ok && size > 0 ? size : nil
    }

    fileprivate static func portNames(_ p: RtMidiPtr) -> [String] {
        let n = rtmidi_get_port_count(p)
        return (0..<n).map { i in
            var len: Int32 = 0
            _ = rtmidi_get_port_name(p, i, nil, &len)
            guard len > 0 else { return "" }
            var buf = [CChar](repeating: 0, count: Int(len) + 1)
            _ = rtmidi_get_port_name(p, i, &buf, &len)
            return String(cString: buf)
        }
    }
}

/// Opening an rtmidi device's port (shared by inputs and outputs).
private enum MidiPortOpening {
    /// Opens the port named `portName` (rtmidi_open_port) or a virtual port (rtmidi_open_virtual_port).
    static func open(_ p: RtMidiPtr, portName: String?, virtualName: String, what: String, ownName: String) throws(MidiError) {
        guard p.pointee.ok else { throw error(p, what) }
        if let portName {
            guard let i = MidiInPort.portNames(p).firstIndex(of: portName) else { throw MidiError(description: "MIDI port '\(portName)' is gone") }
            rtmidi_open_port(p, UInt32(i), ownName)
        } else {
            rtmidi_open_virtual_port(p, virtualName)
        }
        guard p.pointee.ok else { throw error(p, "\(what) \(portName ?? virtualName)") }
    }

    static func error(_ p: RtMidiPtr, _ what: String) -> MidiError {
        MidiError(description: "\(what): \(p.pointee.msg.map { String(cString: $0) } ?? "rtmidi error")")
    }
}

/// One rtmidi output (rtmidi_out_create): a virtual port, or connected to
/// one destination port. Owned by the MIDI thread.
final class MidiOutPort: @unchecked Sendable {
    private let ptr: RtMidiOutPtr
    let name: String

    init(_ system: MidiSystem, client: String, connectTo portName: String?, virtualName: String = "out") throws(MidiError) {
        guard let p = rtmidi_out_create(system.api, client) else { throw MidiError(description: "rtmidi_out_create failed") }
        ptr = p
        name = portName ?? "\(client):\(virtualName)"
        try MidiPortOpening.open(p, portName: portName, virtualName: virtualName, what: "MIDI output", ownName: "out")
    }

    deinit {
        rtmidi_close_port(ptr)
        rtmidi_out_free(ptr)
    }

    /// Names of the ports this system offers as outputs from us (destinations).
    var destinationNames: [String] { MidiInPort.portNames(ptr) }

    /// Sends one message (rtmidi_out_send_message); false on failure.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { rtmidi_out_send_message(ptr, $0.baseAddress, Int32($0.count)) } == 0
    }
}
