import Foundation

/// A one-pole envelope follower with separate attack and release time
/// constants: after a step, it covers 63.2 % of the distance in one time
/// constant (exactly, sampled once per hop). Pure state machine.
public struct Envelope: Sendable {
    /// The current output.
    public private(set) var value: Float = 0

    /// An envelope starting at 0.
    public init() {}

    /// The per-step coefficient for a time constant (0 s = follow instantly).
    public static func coefficient(timeConstant seconds: Double, step: Double) -> Float {
        seconds <= 0 ? 1 : Float(1 - exp(-step / seconds))
    }

    /// Moves toward `input` by the attack coefficient when rising, release when falling.
    public mutating func process(_ input: Float, attack: Float, release: Float) -> Float {
        let c = input > value ? attack : release
        value += (input - value) * c
        return value
    }

    /// Forgets the state.
    public mutating func reset() { value = 0 }
}
