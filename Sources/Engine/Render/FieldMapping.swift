#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only view of what the renderer draws: the three trail planes
/// (row-major, width × height) and, for head glow, the agent positions.
/// Valid only inside the call that made it.
struct FieldView {
    let width: Int
    let height: Int
    /// One plane per species.
    let trails: [UnsafePointer<Float>]
    /// Agent x and y (field pixels), grouped by species; nil = no head glow.
    let agentX: UnsafePointer<Float>?
    let agentY: UnsafePointer<Float>?
    /// Agent index range of each species.
    let ranges: [Range<Int>]
    /// Head counts already made by the simulation (see `Simulation.heads`);
    /// nil = stamp the agents.
    var heads: UnsafePointer<UInt32>? = nil
}

/// How output pixels map onto the field: **cover**. The field is scaled
/// uniformly (never distorted) until it covers the whole output, centred; the
/// part that sticks out on the longer side is cropped. A field of the output's
/// own aspect ratio is shown whole. (The field wraps around, so the
/// kaleidoscope may also reach into the cropped part or across the edge.)
public struct CoverMapping: Sendable {
    public let outWidth: Int, outHeight: Int
    public let fieldWidth: Int, fieldHeight: Int
    /// Field pixels per output pixel.
    public let scale: Double

    public init(outWidth: Int, outHeight: Int, fieldWidth: Int, fieldHeight: Int) {
        self.outWidth = outWidth
        self.outHeight = outHeight
        self.fieldWidth = fieldWidth
        self.fieldHeight = fieldHeight
        scale = min(Double(fieldWidth) / Double(outWidth), Double(fieldHeight) / Double(outHeight))
    }

    /// Output and field have the same size: pixel (x, y) is field pixel (x, y).
    public var isIdentity: Bool { outWidth == fieldWidth && outHeight == fieldHeight }

    /// Field coordinate (continuous, pixel centres at i + 0.5) of a point given
    /// relative to the output's centre, in output pixels.
    @inline(__always) func field(_ dx: Double, _ dy: Double) -> (Double, Double) {
        (Double(fieldWidth) / 2 + dx * scale, Double(fieldHeight) / 2 + dy * scale)
    }
}

/// Separable resampling taps along one axis: for each output position, `taps`
/// (field index, weight) pairs. Upscaling is bilinear; downscaling uses a
/// triangle filter as wide as the scale, so thin trails do not alias away.
/// Indices wrap around the field (it is a torus).
struct AxisTaps {
    let taps: Int
    let index: [Int32]
    let weight: [Float]

    /// Taps for `outCount` outputs whose centres map to field coordinate
    /// `centre + (i + 0.5 − outCount/2) · scale`, over a field of `fieldCount`.
    init(outCount: Int, fieldCount: Int, scale: Double) {
        let radius = max(1.0, scale)
        let t = Int((2 * radius).rounded(.up)) + 1
        var idx = [Int32](repeating: 0, count: outCount * t)
        var w = [Float](repeating: 0, count: outCount * t)
        for i in 0..<outCount {
            // Continuous field position in "index space" (pixel i's centre at i).
            let f = Double(fieldCount) / 2 + (Double(i) + 0.5 - Double(outCount) / 2) * scale - 0.5
            let first = Int((f - radius).rounded(.up))
            var sum = 0.0
            var ws = [Double](repeating: 0, count: t)
            for k in 0..<t {
                let j = first + k
                ws[k] = max(0, 1 - abs(Double(j) - f) / radius)
                sum += ws[k]
            }
            for k in 0..<t {
                var j = (first + k) % fieldCount
                if j < 0 { j += fieldCount }
                idx[i * t + k] = Int32(j)
                w[i * t + k] = Float(sum > 0 ? ws[k] / sum : (k == 0 ? 1 : 0))
            }
        }
        taps = t
        index = idx
        weight = w
    }
}

/// The kaleidoscope: a map from each output pixel to the field pixel shown
/// there (nearest), with `axes` mirror lines through the centre.
///
/// Angles are measured from "up", clockwise. The mirror axes sit at
/// m·180°/axes (m = 0…axes−1), so axis 0 is always the vertical line (1 axis
/// mirrors left and right; 2 adds the horizontal one). Each output angle is
/// folded into one wedge of 180°/axes, which is centred on the horizontal so
/// it reaches as far as possible into a landscape frame. The map depends only
/// on the folded angle and the radius, so the picture is exactly symmetric
/// about every axis up to the rounding to the nearest field pixel.
enum KaleidoscopeMap {
    /// Builds the map (field indices, row-major output) using `pool`.
    static func build(axes: Int, mapping m: CoverMapping, pool: WorkerPool) -> AlignedBuffer<Int32> {
        precondition(axes >= 1)
        let W = m.outWidth, H = m.outHeight
        let out = AlignedBuffer<Int32>(count: W * H)
        let base = out.base
        let wedge = Double.pi / Double(axes)
        let offset = Double.pi / 2 - wedge / 2
        let rows = 16
        pool.run(chunks: (H + rows - 1) / rows) { chunk, _ in
            for y in (chunk * rows)..<min(H, chunk * rows + rows) {
                let dy = Double(y) + 0.5 - Double(H) / 2
                for x in 0..<W {
                    let dx = Double(x) + 0.5 - Double(W) / 2
                    let r = (dx * dx + dy * dy).squareRoot()
                    var phi = atan2(dx, -dy)  // 0 = up, +π/2 = right
                    phi = phi.truncatingRemainder(dividingBy: 2 * wedge)
                    if phi < 0 { phi += 2 * wedge }
                    if phi > wedge { phi = 2 * wedge - phi }
                    let a = phi + offset
                    let (fx, fy) = m.field(r * sin(a), -r * cos(a))
                    var ix = Int(fx.rounded(.down)) % m.fieldWidth
                    var iy = Int(fy.rounded(.down)) % m.fieldHeight
                    if ix < 0 { ix += m.fieldWidth }
                    if iy < 0 { iy += m.fieldHeight }
                    base[y * W + x] = Int32(iy * m.fieldWidth + ix)
                }
            }
        }
        return out
    }
}
