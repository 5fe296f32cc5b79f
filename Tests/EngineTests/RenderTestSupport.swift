import Foundation
@testable import Engine

/// A hand-made trail field (three planes) and optional agent positions, for
/// render tests that need a known picture.
struct SyntheticField {
    let width: Int
    let height: Int
    var planes: [[Float]]
    /// Agent positions per species (field pixels).
    var agents: [[(x: Float, y: Float)]] = [[], [], []]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        planes = Array(repeating: [Float](repeating: 0, count: width * height), count: 3)
    }

    /// Sets species `s` to `value` inside the disc at (cx, cy) of radius r.
    mutating func disc(species s: Int, cx: Double, cy: Double, r: Double, value: Float) {
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                if dx * dx + dy * dy <= r * r { planes[s][y * width + x] = value }
            }
        }
    }

    /// Fills species `s` with `f(x, y)`.
    mutating func fill(species s: Int, _ f: (Int, Int) -> Float) {
        for y in 0..<height { for x in 0..<width { planes[s][y * width + x] = f(x, y) } }
    }

    /// A smooth, colourful, asymmetric pattern in all three species.
    static func pattern(width: Int, height: Int) -> SyntheticField {
        var f = SyntheticField(width: width, height: height)
        for s in 0..<3 {
            let fs = Double(s + 1)
            f.fill(species: s) { x, y in
                let u = Double(x) / Double(width), v = Double(y) / Double(height)
                let a = sin(2 * .pi * (u * (1.3 + fs * 0.7) + v * 0.4 * fs) + fs)
                let b = cos(2 * .pi * (v * (0.9 + fs * 0.5) - u * 0.3) + 2 * fs)
                return Float(max(0, 20 * (a * b + 0.3 * u)))
            }
        }
        return f
    }

    /// Renders with `renderer` (its size is the output size).
    func render(_ renderer: Renderer, _ params: PresetParams, stages: RenderStages = .all) -> RGBAImage {
        var image = RGBAImage(width: renderer.width, height: renderer.height)
        let xs = agents.flatMap { $0.map(\.x) }, ys = agents.flatMap { $0.map(\.y) }
        var ranges: [Range<Int>] = []
        var start = 0
        for a in agents {
            ranges.append(start..<(start + a.count))
            start += a.count
        }
        planes[0].withUnsafeBufferPointer { p0 in
            planes[1].withUnsafeBufferPointer { p1 in
                planes[2].withUnsafeBufferPointer { p2 in
                    xs.withUnsafeBufferPointer { xp in
                        ys.withUnsafeBufferPointer { yp in
                            let view = FieldView(width: width, height: height,
                                                 trails: [p0.baseAddress!, p1.baseAddress!, p2.baseAddress!],
                                                 agentX: xs.isEmpty ? nil : xp.baseAddress,
                                                 agentY: ys.isEmpty ? nil : yp.baseAddress,
                                                 ranges: ranges)
                            renderer.render(field: view, params: params, stages: stages, into: &image)
                        }
                    }
                }
            }
        }
        return image
    }
}

extension PresetParams {
    /// These parameters with `changes` applied.
    func setting(_ changes: KeyValuePairs<ParamKey, Double>) -> PresetParams {
        var p = self
        for (key, value) in changes { p[key] = value }
        return p
    }
}

/// Parameters with every effect at its neutral value.
func neutralParams(_ base: PresetParams = PresetParams()) -> PresetParams {
    base.setting([.headGlow: 0, .kaleidoscope: 0, .feedback: 0, .bloom: 0, .vignette: 0, .saturation: 1, .contrast: 1])
}

/// Parameters with every effect switched on.
func allEffectsParams(_ base: PresetParams = PresetParams()) -> PresetParams {
    base.setting([.headGlow: 1, .kaleidoscope: 3, .feedback: 0.5, .bloomThreshold: 0.3, .bloom: 1,
                  .vignette: 0.6, .saturation: 1.4, .contrast: 1.3])
}

extension RGBAImage {
    /// Mean of the display luma, 0…1.
    var meanLuma: Double {
        let l = luma()
        return l.reduce(0.0) { $0 + Double($1) } / Double(l.count)
    }

    /// Luma of pixel (x, y), 0…1.
    func lumaAt(_ x: Int, _ y: Int) -> Double {
        let p = pixel(x: x, y: y)
        return (0.2126 * Double(p.r) + 0.7152 * Double(p.g) + 0.0722 * Double(p.b)) / 255
    }

    /// Mean luma of the rectangle [x0, x1) × [y0, y1).
    func meanLuma(x0: Int, y0: Int, x1: Int, y1: Int) -> Double {
        var sum = 0.0
        for y in y0..<y1 { for x in x0..<x1 { sum += lumaAt(x, y) } }
        return sum / Double((x1 - x0) * (y1 - y0))
    }

    /// Largest per-channel difference to another image of the same size.
    func maxDifference(_ other: RGBAImage) -> Int {
        var m = 0
        for i in 0..<pixels.count { m = Swift.max(m, abs(Int(pixels[i]) - Int(other.pixels[i]))) }
        return m
    }
}
