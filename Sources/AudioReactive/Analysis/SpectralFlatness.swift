import Foundation

extension Analyzer {
    /// Spectral flatness from which a band counts as noise-like (white noise
    /// gives ≈ 0.56, a few partials far less).
    static let flatness: Float = 0.25

    /// Geometric over arithmetic mean of the bins' power `p[lo..<hi]` whose
    /// sum is `sum` (1 for bands of one bin and for silence, which count as
    /// noise-like).
    static func spectralFlatness(_ p: UnsafeMutablePointer<Float>, _ lo: Int, _ hi: Int, sum: Float) -> Float {
        let n = hi - lo
        guard n >= 2, sum > 1e-30 else { return 1 }
        let tiny = sum * 1e-12
        var logSum: Float = 0
        for k in lo..<hi { logSum += fastLog2(p[k] + tiny) }
        return exp2(logSum / Float(n)) / (sum / Float(n))
    }
}

/// log2 to about 0.0013 (exponent bits plus a cubic fitted on the mantissa
/// 1…2); for spectral flatness, where speed matters more than precision.
@inline(__always) func fastLog2(_ x: Float) -> Float {
    let bits = x.bitPattern
    let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xFF) - 127)
    let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)
    return exponent + ((0.15392465 * m - 1.02955839) * m + 3.010851) * m - 2.13388663
}
