/// Counter-based randomness: a pure function of (seed, a, b, salt), so any
/// thread can draw the random numbers of any agent at any step and the result
/// does not depend on scheduling.
enum CounterHash {
    /// A well-mixed 32-bit hash of the inputs.
    @inline(__always)
    static func hash(_ seed: UInt32, _ a: UInt32, _ b: UInt32, _ salt: UInt32 = 0) -> UInt32 {
        var h = seed &* 0x9E37_79B1 ^ a
        h = mix(h) ^ (b &* 0x85EB_CA77) ^ (salt &* 0xC2B2_AE3D)
        return mix(h)
    }

    /// The "lowbias32" finaliser (good avalanche, two multiplies).
    @inline(__always)
    static func mix(_ x: UInt32) -> UInt32 {
        var h = x
        h ^= h >> 16
        h &*= 0x7FEB_352D
        h ^= h >> 15
        h &*= 0x846C_A68B
        h ^= h >> 16
        return h
    }

    /// A float in [0, 1) from a hash.
    @inline(__always)
    static func unit(_ h: UInt32) -> Float { Float(h >> 8) * (1.0 / 16_777_216.0) }

    /// A double in [0, 1) from two draws.
    @inline(__always)
    static func unitDouble(_ seed: UInt32, _ a: UInt32, _ b: UInt32, _ salt: UInt32) -> Double {
        let hi = UInt64(hash(seed, a, b, salt)), lo = UInt64(hash(seed, a, b, salt &+ 0x5bd1e995))
        return Double((hi << 21) ^ (lo >> 11) & ((1 << 53) - 1)) * (1.0 / 9_007_199_254_740_992.0)
    }
}
