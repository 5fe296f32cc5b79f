/// MIDI clock in (24 pulses per quarter note, start/stop/continue) as a
/// tempo source. Pure state machine: `handle` takes each clock or transport
/// message with its arrival time on the frame clock; `position(at:)` gives
/// the beat position at a frame's time.
///
/// - Start: the song position returns to 0 and the next pulse is beat 0 (a
///   downbeat). Continue resumes from where Stop left it. Pulses while
///   stopped are counted for the tempo but do not move the position.
/// - Tempo: the mean pulse interval over the last 96 pulses (four beats),
///   so jitter in delivery averages out (±2 ms of jitter moves 128 BPM by
///   about 0.3 BPM).
/// - Between pulses the position runs on at the current tempo, but never
///   more than one pulse ahead of the last one received.
/// - Locked: running, a tempo known (≥ 2 pulses) and a pulse within the last
///   half second (a stalled clock stops driving synced changes).
public struct MidiClockFollower: Equatable, Sendable {
    public static let pulsesPerBeat = 24
    public private(set) var running = false
    /// Pulses since Start (the song position), while running.
    public private(set) var pulses = 0
    private var lastPulse: Double?
    private var intervals: [Double] = []
    private var startPending = false

    public init() {}

    /// Seconds per pulse (mean of the recent intervals), nil until two pulses came.
    public var pulseInterval: Double? {
        intervals.isEmpty ? nil : intervals.reduce(0, +) / Double(intervals.count)
    }

    /// Tempo in BPM, 0 until known.
    public var bpm: Double { pulseInterval.map { 60 / ($0 * Double(Self.pulsesPerBeat)) } ?? 0 }

    public mutating func handle(_ m: MidiMessage, at time: Double) {
        switch m {
        case .start:
            running = true
            startPending = true
            pulses = 0
        case .continue:
            running = true
        case .stop:
            running = false
        case .clock:
            if let last = lastPulse {
                let dt = time - last
                // A gap of more than a second is a pause, not a tempo.
                if dt > 0 && dt < 1 {
                    intervals.append(dt)
                    if intervals.count > 4 * Self.pulsesPerBeat { intervals.removeFirst(intervals.count - 4 * Self.pulsesPerBeat) }
                } else if dt >= 1 {
                    intervals.removeAll()
                }
            }
            lastPulse = time
            guard running else { return }
            if startPending { startPending = false } else { pulses += 1 }
        default:
            break
        }
    }

    /// True when the clock drives synced changes at `time`.
    public func isLocked(at time: Double) -> Bool {
        guard running, !startPending, pulseInterval != nil, let last = lastPulse else { return false }
        return time - last <= 0.5
    }

    /// Beats since Start at `time` (downbeats at multiples of 4), nil when not locked.
    public func position(at time: Double) -> Double? {
        guard isLocked(at: time), let last = lastPulse, let dt = pulseInterval else { return nil }
        let ahead = min(max((time - last) / dt, 0), 1)
        return (Double(pulses) + ahead) / Double(Self.pulsesPerBeat)
    }
}
