extension RGBAImage {
    /// Multiplies the colour channels by `alpha` (0…1, rounded to 1/256),
    /// leaving the alpha channel: the output fade of auto-cycle and blackout.
    /// Nothing happens at 1 (or NaN). Works on whole pixels as 32-bit words, 8 at a
    /// time, scaling R and B with one multiply (no widening conversions, which
    /// Swift 6.3 does not vectorise). Pure; the caller owns the image.
    public mutating func scaleBrightness(_ alpha: Double) {
        guard alpha < 1 else { return }
        let a = UInt32(max(0, alpha) * 256)  // ≤ 255: R·a + 128 < 2¹⁶, so R and B never mix
        pixels.withUnsafeMutableBytes { raw in
            let blocks = raw.count / 32
            let va = SIMD8<UInt32>(repeating: a)
            for k in 0..<blocks {
                let p = raw.loadUnaligned(fromByteOffset: k * 32, as: SIMD8<UInt32>.self)
                let rb = (((p & 0x00FF_00FF) &* va &+ 0x0080_0080) &>> 8) & 0x00FF_00FF
                let g = (((p & 0x0000_FF00) &* va &+ 0x0000_8000) &>> 8) & 0x0000_FF00
                raw.storeBytes(of: rb | g | (p & 0xFF00_0000), toByteOffset: k * 32, as: SIMD8<UInt32>.self)
            }
            var i = blocks * 32
            while i + 3 < raw.count {
                for c in 0..<3 { raw[i + c] = UInt8((UInt32(raw[i + c]) &* a &+ 128) >> 8) }
                i += 4
            }
        }
    }
}
