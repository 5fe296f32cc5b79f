/// MIDI messages → actions through the model's bindings, and the feedback
/// that bound controls get back (LED rings, motor faders, pad lights).
/// Pure state machine, owned by the frame thread: the MIDI thread only
/// queues messages, the frame applies `handle`'s actions through the
/// dispatcher, and `feedback` reads the model after the frame.
///
/// - Learn: with a target armed (`ControlState.learning`), the next CC,
///   note-on or pitch bend becomes a binding (`.control(.bind)`).
/// - 14-bit pairs: a CC `n + 32` (n < 32) on the channel of a 7-bit binding
///   of CC `n` turns it into a 14-bit binding; the value is MSB·128 + LSB
///   over 16383, applied on each MSB (with the last LSB) and each LSB.
/// - Soft takeover (absolute CCs): after the target changed elsewhere (or
///   before the control was first used), the control acts only once its
///   value comes within half a step of the target's value or passes it.
/// - Relative encoders move the value by `delta / 127` of the range.
/// - Buttons fire on the press edge (a CC repeating 127 fires once).
public struct MidiMapper: Sendable {
    /// Per control: picked up (soft takeover), the last position seen and
    /// the value last set, the last LSB/MSB of a 14-bit pair, held buttons,
    /// and the last raw value sent or received (no echo).
    private var pickedUp: [MidiControl: Bool] = [:]
    private var lastPosition: [MidiControl: Double] = [:]
    private var lastSet: [MidiControl: Double] = [:]
    private var msb: [MidiControl: Int] = [:]
    private var lsb: [MidiControl: Int] = [:]
    private var held: Set<MidiControl> = []
    private var lastRaw: [MidiControl: Int] = [:]

    public init() {}

    /// The actions for one incoming message (clock messages give none).
    public mutating func handle(_ message: MidiMessage, model: AppModel) -> [AppAction] {
        if let target = model.control.learning, let control = Self.learnable(message, model: model) {
            return [.control(.bind(MidiBinding(control: control, target: target)))]
        }
        let all = model.control.active  // the user's bindings, then the templates'
        var out: [AppAction] = []
        switch message {
        case .controlChange(let ch, let cc, let v):
            if let b = all.first(where: { $0.control == MidiControl(.cc, channel: ch, number: cc) }) {
                if b.mode == .absolute { msb[b.control] = v }
                out += input(b, raw7: v, model: model)
            } else if let b = all.first(where: { $0.control == MidiControl(.cc14, channel: ch, number: cc) }) {
                msb[b.control] = v
                out += absolute(b, raw: v << 7 | (lsb[b.control] ?? 0), max: 16383, model: model, takeover: true)
            } else if cc >= 32 && cc < 64 {
                let pair = MidiControl(.cc14, channel: ch, number: cc - 32)
                let seven = MidiControl(.cc, channel: ch, number: cc - 32)
                if let i = model.control.bindings.firstIndex(where: { $0.control == seven && $0.mode == .absolute }) {
                    var b = model.control.bindings[i]
                    b.control = pair
                    msb[pair] = msb[seven] ?? 0
                    pickedUp[pair] = pickedUp[seven]
                    lastPosition[pair] = lastPosition[seven]
                    lastSet[pair] = lastSet[seven]
                    out.append(.control(.updateBinding(i, b)))
                    lsb[pair] = v
                    out += absolute(b, raw: (msb[pair] ?? 0) << 7 | v, max: 16383, model: model, takeover: true)
                } else if let b = all.first(where: { $0.control == pair }) {
                    lsb[pair] = v
                    out += absolute(b, raw: (msb[pair] ?? 0) << 7 | v, max: 16383, model: model, takeover: true)
                }
            }
        case .noteOn(let ch, let n, _), .noteOff(let ch, let n):
            let c = MidiControl(.note, channel: ch, number: n)
            guard let b = all.first(where: { $0.control == c }) else { break }
            let down: Bool = if case .noteOn = message { true } else { false }
            out += press(b, down: down, model: model)
        case .pitchBend(let ch, let v):
            let c = MidiControl(.pitchBend, channel: ch)
            guard let b = all.first(where: { $0.control == c }) else { break }
            out += absolute(b, raw: v, max: 16383, model: model, takeover: false)
        case .clock, .start, .continue, .stop:
            break
        }
        return out
    }

    /// The control a message would bind in learn (not note-offs, clock or a
    /// 14-bit pair's LSB of a bound control).
    static func learnable(_ m: MidiMessage, model: AppModel) -> MidiControl? {
        switch m {
        case .controlChange(let ch, let cc, _):
            if cc >= 32 && cc < 64, model.control.bindings.contains(where: { $0.control == MidiControl(.cc, channel: ch, number: cc - 32) }) {
                return nil
            }
            return MidiControl(.cc, channel: ch, number: cc)
        case .noteOn(let ch, let n, _): return MidiControl(.note, channel: ch, number: n)
        case .pitchBend(let ch, _): return MidiControl(.pitchBend, channel: ch)
        default: return nil
        }
    }

    private mutating func input(_ b: MidiBinding, raw7 v: Int, model: AppModel) -> [AppAction] {
        switch b.mode {
        case .absolute:
            return absolute(b, raw: v, max: 127, model: model, takeover: true)
        case .relative, .offset:
            let delta = b.mode == .relative ? (v < 64 ? v : v - 128) : v - 64
            guard delta != 0, b.target.isContinuous, let current = b.target.value01(in: model) else { return [] }
            let lo = min(b.low, b.high), hi = max(b.low, b.high)
            let step = (b.high - b.low) / MidiBinding.relativeSteps
            let u = min(max(current + Double(delta) * step, lo), hi)
            lastSet[b.control] = b.target.resolved(u)
            lastRaw[b.control] = Self.raw(b, u, max: 127)
            return b.target.set(u, in: model)
        case .button, .toggle:
            return press(b, down: v >= 64, model: model)
        }
    }

    private mutating func absolute(_ b: MidiBinding, raw: Int, max top: Int, model: AppModel, takeover: Bool) -> [AppAction] {
        let k = Double(min(max(raw, 0), top)) / Double(top)
        let u = b.low + k * (b.high - b.low)
        lastRaw[b.control] = raw
        guard b.target.isContinuous else { return press(b, down: k >= 0.5, model: model) }
        guard let current = b.target.value01(in: model) else {
            return b.target.set(u, in: model)  // morph: no value to take over
        }
        if takeover {
            let moved = lastSet[b.control].map { abs($0 - current) > 1e-9 } ?? true
            if moved { pickedUp[b.control] = false }
            let tolerance = abs(b.high - b.low) / Double(top) / 2 + 1e-9
            let previous = lastPosition[b.control]
            lastPosition[b.control] = u
            if pickedUp[b.control] != true {
                let crossed = previous.map { ($0 - current) * (u - current) <= 0 } ?? false
                guard abs(u - current) <= tolerance || crossed else { return [] }
                pickedUp[b.control] = true
            }
        }
        lastSet[b.control] = b.target.resolved(u)
        return b.target.set(u, in: model)
    }

    private mutating func press(_ b: MidiBinding, down: Bool, model: AppModel) -> [AppAction] {
        let wasDown = held.contains(b.control)
        if down { held.insert(b.control) } else { held.remove(b.control) }
        let edge = down && !wasDown
        switch b.mode {
        case .toggle:
            guard edge else { return [] }
            if b.target.isContinuous || b.target.isSwitch, let current = b.target.value01(in: model) {
                let mid = (b.low + b.high) / 2
                let goHigh = (b.high >= b.low) ? current < mid : current > mid
                let u = goHigh ? b.high : b.low
                lastSet[b.control] = b.target.resolved(u)
                return b.target.set(u, in: model)
            }
            return b.target.fire(in: model)
        default:
            if b.target.isContinuous || b.target.isSwitch {
                guard down != wasDown else { return [] }
                let u = down ? b.high : b.low
                lastSet[b.control] = b.target.resolved(u)
                return b.target.set(u, in: model)
            }
            return edge ? b.target.fire(in: model) : []
        }
    }

    /// Forgets the values sent and received, so the next `feedback` sends
    /// every bound control's value (a controller that just connected has
    /// stale LEDs until then).
    public mutating func forgetSent() { lastRaw.removeAll() }

    /// Messages that bring bound controls up to date with the model: for
    /// each binding whose target has a value, the value in the control's
    /// resolution, sent only when it differs from the last one sent or
    /// received (so a moved knob is not echoed).
    public mutating func feedback(model: AppModel) -> [MidiMessage] {
        var out: [MidiMessage] = []
        for b in model.control.active {
            guard let u = b.target.value01(in: model) else { continue }
            let c = b.control
            let lit = u >= (b.low + b.high) / 2
            switch c.kind {
            case .cc, .cc14, .pitchBend:
                let top = c.kind == .cc ? 127 : 16383
                let switched = b.mode == .button || b.mode == .toggle
                let raw = switched ? (c.kind == .cc ? (lit ? b.onValue : b.offValue) : (lit ? top : 0)) : Self.raw(b, u, max: top)
                guard lastRaw[c] != raw else { continue }
                lastRaw[c] = raw
                switch c.kind {
                case .cc: out.append(.controlChange(channel: c.channel, controller: c.number, value: raw))
                case .cc14:
                    out.append(.controlChange(channel: c.channel, controller: c.number, value: raw >> 7))
                    out.append(.controlChange(channel: c.channel, controller: c.number + 32, value: raw & 0x7F))
                default: out.append(.pitchBend(channel: c.channel, value: raw))
                }
            case .note:
                let on = lit ? b.onValue : b.offValue
                guard lastRaw[c] != on else { continue }
                lastRaw[c] = on
                out.append(.noteOn(channel: c.channel, note: c.number, velocity: on))
            }
        }
        return out
    }

    /// A target value 0…1 as the control's raw value in the binding's range.
    static func raw(_ b: MidiBinding, _ u: Double, max top: Int) -> Int {
        let span = b.high - b.low
        let k = span == 0 ? 0 : min(max((u - b.low) / span, 0), 1)
        return Int((k * Double(top)).rounded())
    }
}

extension ControlTarget {
    /// The 0…1 value the target takes when set to `u` (after the parameter's
    /// clamping and rounding), to recognise it later as our own.
    func resolved(_ u: Double) -> Double {
        let u = u.isFinite ? min(max(u, 0), 1) : 0
        switch self {
        case .param(let k): return k.spec.to01(k.spec.clamp(k.spec.from01(u)))
        case .trigger: return u >= 0.5 ? 1 : 0
        default: return u
        }
    }
}
