/// The finishing pass: add the bloom (upsampled ×4 from the pyramid), apply
/// the vignette, saturation and contrast (all on display values) and pack
/// RGBA8 — eight pixels at a time, one read of the picture, one write of the
/// frame.
extension Renderer {
    /// Bloom strength at `effects.bloom` = 1 (applied to the mean of the
    /// three pyramid levels).
    public static let bloomGain: Float = 1.5 / 3
    /// Darkening of the corners at `effects.vignette` = 1 (0.97 ⇒ 3 % remain).
    public static let vignetteDepth: Float = 0.97
    /// Squared normalised radius where the vignette starts (0 = centre, 1 = corner).
    public static let vignetteStart: Float = 0.15
    /// The bloom pyramid's normalised 9-tap Gaussian (σ = 2 level pixels).
    public static var bloomKernel: [Float] { BloomPyramid.kernel }

    func finish(settings s: RenderSettings, into out: UnsafeMutablePointer<UInt32>) {
        let W = width, H = height, S = stride
        let rows = Self.rowsPerChunk
        let hist = history.map(\.base)
        let scratchBases = scratch.map(\.base)
        let bloomOn = s.bloomOn, vignetteOn = s.vignetteOn
        let satOn = s.saturationOn, conOn = s.contrastOn
        let ex = bloom.expanded.map(\.base)
        let bH = bloom.base.height
        let bloomK = V8(repeating: s.bloom * Self.bloomGain)
        let vigK = V8(repeating: s.vignette * Self.vignetteDepth)
        let vigStart = V8(repeating: Self.vignetteStart), vigScale = V8(repeating: 1 / (1 - Self.vignetteStart))
        let vx = vignetteX.base
        let sat = V8(repeating: s.saturation), con = V8(repeating: s.contrast)
        let half = V8(repeating: 0.5), one = V8(repeating: 1)
        let lr = V8(repeating: Luma.r), lg = V8(repeating: Luma.g), lb = V8(repeating: Luma.b)
        let alpha = U8x8(repeating: 0xFF00_0000)

        pool.run(chunks: (H + rows - 1) / rows) { chunk, worker in
            let y0 = chunk * rows, y1 = min(H, y0 + rows)
            let scr = scratchBases[worker]
            let packed = UnsafeMutableRawPointer(scr + 6 * S).assumingMemoryBound(to: UInt32.self)
            for y in y0..<y1 {
                // Bloom rows above and below this output row, and the weight of the lower one.
                let (ra, rb, wb) = Self.bloomRows(y, height: bH)
                let wbv = V8(repeating: wb) * bloomK, wav = V8(repeating: 1 - wb) * bloomK
                let up = (ex[0] + ra * S, ex[1] + ra * S, ex[2] + ra * S)
                let dn = (ex[0] + rb * S, ex[1] + rb * S, ex[2] + rb * S)
                let v = (Float(y) + 0.5 - Float(H) / 2) / (Float(H) / 2)
                let vy = V8(repeating: v * v / 2)
                let off = y * S
                let h0 = hist[0] + off, h1 = hist[1] + off, h2 = hist[2] + off
                let dst = out + y * W
                var x = 0
                while x < S {
                    var r = load8(h0 + x), g = load8(h1 + x), b = load8(h2 + x)
                    if bloomOn {
                        r += load8(up.0 + x) * wav + load8(dn.0 + x) * wbv
                        g += load8(up.1 + x) * wav + load8(dn.1 + x) * wbv
                        b += load8(up.2 + x) * wav + load8(dn.2 + x) * wbv
                    }
                    if vignetteOn {
                        let t = clamp01((load8(vx + x) + vy - vigStart) * vigScale)
                        let f = one - vigK * (t * t * (V8(repeating: 3) - t - t))
                        r *= f; g *= f; b *= f
                    }
                    if satOn {
                        let l = lr * r + lg * g + lb * b
                        r = l + (r - l) * sat
                        g = l + (g - l) * sat
                        b = l + (b - l) * sat
                    }
                    if conOn {
                        r = half + (r - half) * con
                        g = half + (g - half) * con
                        b = half + (b - half) * con
                    }
                    let px = toByte(clamp01(r)) | (toByte(clamp01(g)) &<< 8) | (toByte(clamp01(b)) &<< 16) | alpha
                    if x + 8 <= W {
                        UnsafeMutableRawPointer(dst + x).storeBytes(of: px, as: U8x8.self)
                    } else {
                        UnsafeMutableRawPointer(packed).storeBytes(of: px, as: U8x8.self)
                        for i in 0..<(W - x) { dst[x + i] = packed[i] }
                    }
                    x += 8
                }
            }
        }
    }

    /// The two level-0 bloom rows around output row y and the weight of the
    /// second: the row samples level position (y + 0.5)/4 − 0.5, so by phase
    /// y mod 4 the weights are ⅝, ⅞, ⅛, ⅜ (edges clamped).
    @inline(__always)
    static func bloomRows(_ y: Int, height bH: Int) -> (Int, Int, Float) {
        let j = y >> 2
        let (ra, rb, wb): (Int, Int, Float) = switch y & 3 {
        case 0: (j - 1, j, 0.625)
        case 1: (j - 1, j, 0.875)
        case 2: (j, j + 1, 0.125)
        default: (j, j + 1, 0.375)
        }
        return (min(max(ra, 0), bH - 1), min(max(rb, 0), bH - 1), wb)
    }
}
