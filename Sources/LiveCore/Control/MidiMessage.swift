/// One MIDI message the app reads or writes (channel voice messages it can
/// bind, and the system real-time messages of MIDI clock). Channels are 0…15.
public enum MidiMessage: Hashable, Sendable {
    case controlChange(channel: Int, controller: Int, value: Int)
    /// A note-on with velocity 0 is read as a note-off (running-status habit of many controllers).
    case noteOn(channel: Int, note: Int, velocity: Int)
    case noteOff(channel: Int, note: Int)
    /// 14-bit value 0…16383 (8192 is the centre).
    case pitchBend(channel: Int, value: Int)
    /// MIDI clock: 24 per quarter note.
    case clock
    case start
    case `continue`
    case stop

    /// Parses one complete message (status byte first); nil for anything the
    /// app does not use (sysex, aftertouch, program change, active sensing…)
    /// or a message with missing or out-of-range data bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard let status = bytes.first else { return nil }
        let data = Array(bytes.dropFirst())
        guard data.allSatisfy({ $0 < 0x80 }) else { return nil }
        let ch = Int(status & 0x0F)
        switch status {
        case 0xF8: self = .clock
        case 0xFA: self = .start
        case 0xFB: self = .continue
        case 0xFC: self = .stop
        case 0x80...0x8F where data.count >= 2: self = .noteOff(channel: ch, note: Int(data[0]))
        case 0x90...0x9F where data.count >= 2:
            self = data[1] == 0 ? .noteOff(channel: ch, note: Int(data[0])) : .noteOn(channel: ch, note: Int(data[0]), velocity: Int(data[1]))
        case 0xB0...0xBF where data.count >= 2: self = .controlChange(channel: ch, controller: Int(data[0]), value: Int(data[1]))
        case 0xE0...0xEF where data.count >= 2: self = .pitchBend(channel: ch, value: Int(data[0]) | Int(data[1]) << 7)
        default: return nil
        }
    }

    /// The wire bytes (values clamped into their 7- or 14-bit ranges).
    public var bytes: [UInt8] {
        func b7(_ v: Int) -> UInt8 { UInt8(min(max(v, 0), 127)) }
        func st(_ base: UInt8, _ ch: Int) -> UInt8 { base | UInt8(min(max(ch, 0), 15)) }
        switch self {
        case .controlChange(let ch, let cc, let v): return [st(0xB0, ch), b7(cc), b7(v)]
        case .noteOn(let ch, let n, let v): return [st(0x90, ch), b7(n), b7(v)]
        case .noteOff(let ch, let n): return [st(0x80, ch), b7(n), 0]
        case .pitchBend(let ch, let v):
            let x = min(max(v, 0), 16383)
            return [st(0xE0, ch), UInt8(x & 0x7F), UInt8(x >> 7)]
        case .clock: return [0xF8]
        case .start: return [0xFA]
        case .continue: return [0xFB]
        case .stop: return [0xFC]
        }
    }

    /// True for the clock and transport messages (tempo sources, not bindable).
    public var isClock: Bool {
        switch self {
        case .clock, .start, .continue, .stop: true
        default: false
        }
    }
}

/// A MIDI message and when it arrived, in seconds on the frame clock.
public struct TimedMidiMessage: Hashable, Sendable {
    public var message: MidiMessage
    public var time: Double

    public init(_ message: MidiMessage, time: Double) {
        self.message = message
        self.time = time
    }
}
