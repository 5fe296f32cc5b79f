/// Small SIMD8<Float> building blocks for the render passes.
///
/// Swift 6.3 on x86-64 lowers some generic SIMD operations lane by lane
/// (`pointwiseMin`, `squareRoot()` — a libm call per lane —,
/// `SIMD8<Int32>(_:rounding:)`); these helpers use only operations measured to
/// compile to packed instructions (compare + blend, multiply-add, bit casts).
typealias V8 = SIMD8<Float>
typealias U8x8 = SIMD8<UInt32>

/// Magic constant 1.5·2²³: adding it to a float in [0, 2²²) leaves the value
/// rounded to the nearest integer in the low mantissa bits.
let magicRound: Float = 12_582_912

@inline(__always) func vmax(_ a: V8, _ b: V8) -> V8 { a.replacing(with: b, where: a .< b) }
/// Clamps to 0…1 (NaN becomes 0: both comparisons are false, then the blend keeps 0).
@inline(__always) func clamp01(_ a: V8) -> V8 {
    let z = V8.zero
    let m = z.replacing(with: a, where: a .> z)
    return m.replacing(with: V8(repeating: 1), where: m .> V8(repeating: 1))
}

/// Unaligned loads and stores of eight lanes.
@inline(__always) func load8(_ p: UnsafePointer<Float>) -> V8 { UnsafeRawPointer(p).loadUnaligned(as: V8.self) }
@inline(__always) func load8(_ p: UnsafeMutablePointer<Float>) -> V8 { UnsafeRawPointer(p).loadUnaligned(as: V8.self) }
@inline(__always) func store8(_ v: V8, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: V8.self)
}

/// The filmic tone curve with the display gamma built in (the published
/// Hejl–Burgess-Dawson fit): scene light in, display value out. A short toe
/// (values below 0.004 become black), a near-linear middle and a long soft
/// shoulder approaching 1 — no square root or power needed afterwards.
@inline(__always) func filmic(_ x0: V8) -> V8 {
    let x = vmax(x0 - V8(repeating: 0.004), .zero)
    let n = x * (V8(repeating: 6.2) * x + V8(repeating: 0.5))
    let d = x * (V8(repeating: 6.2) * x + V8(repeating: 1.7)) + V8(repeating: 0.06)
    return n / d
}

/// Scalar twin of `filmic`, for set-up code and reference checks.
@inline(__always) func filmic(_ x0: Float) -> Float {
    let x = max(x0 - 0.004, 0)
    return (x * (6.2 * x + 0.5)) / (x * (6.2 * x + 1.7) + 0.06)
}

/// Lanes in 0…1 to integers 0…255 (round to nearest) in the low byte of each lane.
@inline(__always) func toByte(_ v01: V8) -> U8x8 {
    unsafeBitCast(v01 * V8(repeating: 255) + V8(repeating: magicRound), to: U8x8.self) & U8x8(repeating: 0xFF)
}


/// Colour spaces. The picture is composed in display values (sRGB-encoded,
/// 0…1), so the chain never has to encode at the end; only the light the
/// trails emit is mixed in linear light before the filmic curve, which
/// returns display values.
enum ColorSpace {
    /// A colour's display values, 0…1.
    static func display(_ c: RGBColor) -> SIMD3<Float> {
        SIMD3(Float(c.r) / 255, Float(c.g) / 255, Float(c.b) / 255)
    }

    /// A colour in linear light (exact sRGB decoding).
    static func linear(_ c: RGBColor) -> SIMD3<Float> {
        func dec(_ b: UInt8) -> Float {
            let v = Double(b) / 255
            return Float(v <= 0.04045 ? v / 12.92 : Foundation_pow((v + 0.055) / 1.055, 2.4))
        }
        return SIMD3(dec(c.r), dec(c.g), dec(c.b))
    }
}

/// Rec. 709 luma weights, used for luminance in the working space.
public enum Luma {
    public static let r: Float = 0.2126, g: Float = 0.7152, b: Float = 0.0722
}
