/// The app's one seeded random generator (SplitMix64): the same seed gives
/// the same sequence on every machine (looks, synthetic test signals, test
/// data). Not for cryptography; the simulation's per-agent randomness is
/// `CounterHash` instead.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator seeded with `seed`.
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    /// A generator whose internal state starts at `state`: the reference
    /// SplitMix64 sequence (its first output is mix(state + γ)).
    public init(state: UInt64) { self.state = state }

    /// A generator for one item of a random-access stream: `seed` mixed with `keys`.
    public init(seed: UInt64, _ keys: UInt64...) {
        var s = seed
        for k in keys { s = Self.mix(s ^ Self.mix(k &+ 0x632B_E59B_D9B4_E019)) }
        self.init(seed: s)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// Uniform in −1 … 1.
    public mutating func bipolar() -> Float {
        Float(Int64(bitPattern: next()) >> 11) * (1.0 / 4_503_599_627_370_496.0)
    }

    /// Uniform in 0 … 1.
    public mutating func unit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
