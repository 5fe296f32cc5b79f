/// How the picture on screen changes when only its exposure changes, as a
/// curve per colour channel on display values: the live window's hit
/// reaction (a drum hit shown on the last picture while the next one is
/// still being simulated) applies it to the picture already presented.
///
/// Exposure scales the light before the filmic tone map, so for one pixel
/// the new display value is `filmic(g · filmic⁻¹(L))` with `g` the exposure
/// ratio and `L` the pixel's tone-mapped light: additive presets screen the
/// light over the background (L = (y − bg) / (1 − bg)); paint presets lay it
/// down as ink (taken as dark ink: L = 1 − y / bg). Exact for an additive
/// preset without feedback, bloom, head glow or grading; otherwise a good
/// part of the way (the next full frame replaces it a frame later). Applied
/// through a 256-entry table per channel (`table`, `apply(table:…)`): a
/// software GL runs a shader of the same formula at twice the cost of the
/// whole present. A pure value.
public struct ReactionCurve: Sendable, Equatable {
    /// Exposure ratio (new / shown), above 1.
    public let gain: Float
    /// Background, display values.
    public let background: SIMD3<Float>
    /// Output brightness the picture was shown at (0…1].
    public let brightness: Float
    /// Additive light (true) or paint.
    public let additive: Bool

    /// A curve from its parts (`gain` > 0, `brightness` in (0, 1]).
    public init(gain: Float, background: SIMD3<Float>, brightness: Float, additive: Bool) {
        self.gain = gain
        self.background = background
        self.brightness = brightness
        self.additive = additive
    }

    /// The change from the picture made with `p` at output `brightness` to
    /// the same picture with `q`'s exposure; nil unless the exposure rises
    /// by 2 % or more (a hit), or when the output is dark.
    public init?(from p: PresetParams, to q: PresetParams, brightness: Double) {
        let e0 = p[.exposure], e1 = q[.exposure]
        guard e0 > 0, e1 / e0 >= 1.02, brightness > 0.01 else { return nil }
        self.init(gain: Float(e1 / e0), background: ColorSpace.display(p.background), brightness: Float(min(1, brightness)),
                  additive: p.blendMode == .additive)
    }

    /// The new display value (0…1) of a pixel whose channel `c` shows `v`.
    public func apply(_ v: Float, channel c: Int) -> Float {
        let y = min(1, v / brightness), b = background[c]
        var y1 = y
        if additive, b < 0.999 {
            let light = min(1, max(0, (y - b) / (1 - b)))
            y1 = b + filmic(gain * Self.inverseFilmic(light)) * (1 - b)
        } else if !additive, b > 0.001 {
            let ink = min(1, max(0, 1 - y / b))
            y1 = b * (1 - filmic(gain * Self.inverseFilmic(ink)))
        }
        return min(1, max(0, y1 * brightness))
    }

    /// `apply` as bytes: entry `c · 256 + v` is the new value of channel `c` showing `v`.
    public var table: [UInt8] {
        var t = [UInt8](repeating: 0, count: 3 * 256)
        for c in 0..<3 {
            for v in 0..<256 { t[c * 256 + v] = UInt8((apply(Float(v) / 255, channel: c) * 255).rounded()) }
        }
        return t
    }

    /// Pixels `range` of RGBA `source` through `table` into `target` (alpha 255).
    public static func apply(table: UnsafePointer<UInt8>, source: UnsafePointer<UInt8>, target: UnsafeMutablePointer<UInt8>,
                             pixels range: Range<Int>) {
        for i in range {
            let o = i * 4
            target[o] = table[Int(source[o])]
            target[o + 1] = table[256 + Int(source[o + 1])]
            target[o + 2] = table[512 + Int(source[o + 2])]
            target[o + 3] = 255
        }
    }

    /// `apply` on every pixel of `image`: what the window shows.
    public func apply(to image: inout RGBAImage) {
        let t = table, count = image.width * image.height
        t.withUnsafeBufferPointer { tp in
            image.pixels.withUnsafeMutableBufferPointer { px in
                Self.apply(table: tp.baseAddress!, source: px.baseAddress!, target: px.baseAddress!, pixels: 0..<count)
            }
        }
    }

    /// The light `x ≥ 0` whose tone-mapped value is `y` (`filmic(x) = y`);
    /// values at or above the curve's ceiling map to a large light.
    static func inverseFilmic(_ y: Float) -> Float {
        guard y > 0 else { return 0 }
        guard y < 0.999 else { return 1000 }
        // filmic(x) = x(6.2x + 0.5) / (x(6.2x + 1.7) + 0.06), x shifted by 0.004:
        // 6.2(1 − y)x² + (0.5 − 1.7y)x − 0.06y = 0, the positive root.
        let a = 6.2 * (1 - y), b = 0.5 - 1.7 * y, c = -0.06 * y
        return (-b + (b * b - 4 * a * c).squareRoot()) / (2 * a) + 0.004
    }
}
