/// Sim speed (steps per frame, fractions allowed) → whole simulation steps
/// for each frame, the fraction carried to the next frame. The live loop and
/// offline renders step through this one type, so a render at the display's
/// frame rate runs the simulation at the live tempo. A value; one owner.
public struct StepCredit: Sendable {
    /// The fraction of a step carried over (0 ≤ credit < 1 after each frame).
    public private(set) var credit = 0.0

    public init() {}

    /// Steps to take this frame at `speed` steps per frame.
    public mutating func steps(speed: Double) -> Int {
        credit += speed.isFinite ? max(0, speed) : 0
        let n = Int(credit)
        credit -= Double(n)
        return n
    }
}
