/// Which physical control a binding listens to.
public struct MidiControl: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// 7-bit control change.
        case cc
        /// 14-bit control change: `number` (0…31) carries the MSB, `number + 32` the LSB.
        case cc14
        case note
        /// The channel's pitch bend (14-bit); `number` is 0.
        case pitchBend
    }

    public var kind: Kind
    /// 0…15 (shown as 1…16).
    public var channel: Int
    /// Controller or note number 0…127 (0…31 for `cc14`, 0 for pitch bend).
    public var number: Int

    public init(_ kind: Kind, channel: Int, number: Int = 0) {
        self.kind = kind
        self.channel = channel
        self.number = number
    }

    /// "CC 21 ch 1", "CC 7/39 ch 2", "Note 36 ch 10", "Pitch bend ch 1".
    public var label: String {
        switch kind {
        case .cc: "CC \(number) ch \(channel + 1)"
        case .cc14: "CC \(number)/\(number + 32) ch \(channel + 1)"
        case .note: "Note \(number) ch \(channel + 1)"
        case .pitchBend: "Pitch bend ch \(channel + 1)"
        }
    }
}

/// How a control's messages become values.
public enum MidiMode: String, Hashable, Sendable, CaseIterable {
    /// The control's position is the value (knob, fader, pitch bend). With
    /// soft takeover: after the value changed elsewhere, the control acts
    /// only once it reaches (or passes) the current value.
    case absolute
    /// Relative encoder, two's complement: 1…63 up by that many steps, 127…65 down by 1…63.
    case relative
    /// Relative encoder, offset binary: 64 is no change, 65 is +1, 63 is −1.
    case offset
    /// Pressed (note on, CC ≥ 64) / released: fires an action, holds a switch,
    /// sets a value to the range's high end while held.
    case button
    /// Each press flips a switch or a value between the range's ends.
    case toggle

    /// Human name for the panel.
    public var label: String {
        switch self {
        case .absolute: "absolute"
        case .relative: "relative (2's compl.)"
        case .offset: "relative (offset 64)"
        case .button: "button"
        case .toggle: "toggle"
        }
    }
}

/// One MIDI binding: a control drives a target over a range of the target's
/// 0…1 scale (`low` may exceed `high` to reverse it), in a mode.
public struct MidiBinding: Hashable, Sendable {
    public var control: MidiControl
    public var target: ControlTarget
    public var mode: MidiMode
    public var low: Double
    public var high: Double
    /// What a lit / unlit switch or button is sent as (note velocity or CC
    /// value 0…127): a controller's pad colours (APC mini: 1 green, 3 red, 5 yellow).
    public var onValue: Int
    public var offValue: Int

    public init(control: MidiControl, target: ControlTarget, mode: MidiMode? = nil, low: Double = 0, high: Double = 1,
                onValue: Int = 127, offValue: Int = 0) {
        self.control = control
        self.target = target
        self.mode = mode ?? Self.defaultMode(control.kind, target)
        self.low = low
        self.high = high
        self.onValue = onValue
        self.offValue = offValue
    }

    /// What learn chooses: knobs and pitch bend absolute; a CC on an action
    /// acts as a button; a note toggles a switch and presses anything else.
    public static func defaultMode(_ kind: MidiControl.Kind, _ target: ControlTarget) -> MidiMode {
        switch kind {
        case .cc, .cc14: target.isContinuous ? .absolute : .button
        case .pitchBend: .absolute
        case .note: target.isSwitch ? .toggle : .button
        }
    }

    /// Steps of a relative encoder across the range.
    public static let relativeSteps = 127.0
}
