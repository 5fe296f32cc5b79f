/// The bloom glow at three scales. Level 0 (¼ of the output on each side) is
/// filled by the composite pass with the bright-pass of the picture; `process`
/// makes levels 1 and 2 (⅛, ¹⁄₁₆) by 2×2 averaging, blurs every level with a
/// 9-tap Gaussian (row-streaming, separable, edges clamped) and sums the
/// levels back into level 0, so the glow spreads at three sizes at once.
///
/// Thread safety: used only from `Renderer.render` passes.
final class BloomPyramid {
    /// One level: three planes (R, G, B) of `width × height`, row stride `stride`.
    final class Level {
        let width: Int, height: Int, stride: Int
        let planes: [AlignedBuffer<Float>]
        let temp: [AlignedBuffer<Float>]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            let s = (width + 7) / 8 * 8 + 8
            stride = s
            planes = (0..<3).map { _ in AlignedBuffer(count: s * height) }
            temp = (0..<3).map { _ in AlignedBuffer(count: s * height) }
        }
    }

    let levels: [Level]
    /// Level 0 after `process`, each row upsampled ×4 to the output width
    /// (three planes, rows of `outStride`), so the finishing pass only
    /// interpolates between two rows.
    let expanded: [AlignedBuffer<Float>]
    let outWidth: Int
    let outStride: Int
    /// Output pixels per level-0 pixel along each axis.
    static let factor = 4
    /// Rows per chunk of the pyramid passes.
    static let rowsPerChunk = 8
    /// Normalised 9-tap Gaussian, σ = 2 level pixels.
    static let kernel: [Float] = {
        let w = (-4...4).map { k in Foundation_exp(-Double(k * k) / 8) }
        let s = w.reduce(0, +)
        return w.map { Float($0 / s) }
    }()

    init(outWidth: Int, outHeight: Int, outStride: Int) {
        var lv: [Level] = []
        var w = (outWidth + Self.factor - 1) / Self.factor, h = (outHeight + Self.factor - 1) / Self.factor
        for _ in 0..<3 {
            lv.append(Level(width: max(1, w), height: max(1, h)))
            w = (w + 1) / 2
            h = (h + 1) / 2
        }
        levels = lv
        self.outWidth = outWidth
        self.outStride = outStride
        expanded = (0..<3).map { _ in AlignedBuffer(count: outStride * lv[0].height) }
    }

    /// Level 0 as filled by the composite pass.
    var base: Level { levels[0] }

    /// Builds the coarser levels, blurs all three and sums them into level 0.
    func process(pool: WorkerPool) {
        for i in 1..<levels.count { downsample(levels[i - 1], into: levels[i], pool: pool) }
        for l in levels { blur(l, pool: pool) }
        for i in stride(from: levels.count - 1, to: 0, by: -1) { addUpsampled(levels[i], into: levels[i - 1], pool: pool) }
        expandBase(pool: pool)
    }

    /// Upsamples every level-0 row ×4 horizontally into `expanded`: output
    /// pixel x samples level position (x + 0.5)/4 − 0.5, i.e. weights
    /// ⅝/⅜, ⅞/⅛ on either side in a repeating pattern of four.
    private func expandBase(pool: WorkerPool) {
        let l = base
        let src = l.planes.map(\.base), dst = expanded.map(\.base)
        let bW = l.width, bS = l.stride, oS = outStride
        pool.run(chunks: rowChunks(l.height)) { chunk, _ in
            for y in (chunk * Self.rowsPerChunk)..<min(l.height, chunk * Self.rowsPerChunk + Self.rowsPerChunk) {
                for c in 0..<3 {
                    let a = src[c] + y * bS, o = dst[c] + y * oS
                    var left = a[0]
                    for i in 0..<bW {
                        let mid = a[i], right = a[min(i + 1, bW - 1)]
                        o[4 * i] = left * 0.375 + mid * 0.625
                        o[4 * i + 1] = left * 0.125 + mid * 0.875
                        o[4 * i + 2] = mid * 0.875 + right * 0.125
                        o[4 * i + 3] = mid * 0.625 + right * 0.375
                        left = mid
                    }
                }
            }
        }
    }

    private func rowChunks(_ h: Int) -> Int { (h + Self.rowsPerChunk - 1) / Self.rowsPerChunk }

    /// 2×2 average (edges clamped).
    private func downsample(_ src: Level, into dst: Level, pool: WorkerPool) {
        let sp = src.planes.map(\.base), dp = dst.planes.map(\.base)
        let sw = src.width, sh = src.height, ss = src.stride, dw = dst.width, ds = dst.stride
        pool.run(chunks: rowChunks(dst.height)) { chunk, _ in
            for y in (chunk * Self.rowsPerChunk)..<min(dst.height, chunk * Self.rowsPerChunk + Self.rowsPerChunk) {
                let y0 = min(2 * y, sh - 1), y1 = min(2 * y + 1, sh - 1)
                for c in 0..<3 {
                    let a = sp[c] + y0 * ss, b = sp[c] + y1 * ss, o = dp[c] + y * ds
                    for x in 0..<dw {
                        let x0 = min(2 * x, sw - 1), x1 = min(2 * x + 1, sw - 1)
                        o[x] = 0.25 * ((a[x0] + a[x1]) + (b[x0] + b[x1]))
                    }
                }
            }
        }
    }

    /// Separable 9-tap blur: horizontal into `temp`, vertical back into `planes`.
    private func blur(_ l: Level, pool: WorkerPool) {
        let k = Self.kernel
        let W = l.width, H = l.height, S = l.stride
        let p = l.planes.map(\.base), t = l.temp.map(\.base)
        let vecW = (W + 7) / 8 * 8
        pool.run(chunks: rowChunks(H)) { chunk, _ in
            // A row padded by 4 clamped values on each side (plus SIMD slack).
            let pad = UnsafeMutablePointer<Float>.allocate(capacity: vecW + 16)
            defer { pad.deallocate() }
            for y in (chunk * Self.rowsPerChunk)..<min(H, chunk * Self.rowsPerChunk + Self.rowsPerChunk) {
                for c in 0..<3 {
                    let row = p[c] + y * S
                    for i in 0..<4 { pad[i] = row[0] }
                    (pad + 4).update(from: row, count: W)
                    for i in (W + 4)..<(vecW + 16) { pad[i] = row[W - 1] }
                    let o = t[c] + y * S
                    var x = 0
                    while x < vecW {
                        var acc = V8(repeating: k[0]) * load8(pad + x)
                        for j in 1..<9 { acc += V8(repeating: k[j]) * load8(pad + x + j) }
                        store8(acc, o + x)
                        x += 8
                    }
                }
            }
        }
        pool.run(chunks: rowChunks(H)) { chunk, _ in
            for y in (chunk * Self.rowsPerChunk)..<min(H, chunk * Self.rowsPerChunk + Self.rowsPerChunk) {
                for c in 0..<3 {
                    let o = p[c] + y * S
                    var x = 0
                    while x < vecW {
                        var acc = V8.zero
                        for j in 0..<9 {
                            let yy = min(max(y + j - 4, 0), H - 1)
                            acc += V8(repeating: k[j]) * load8(t[c] + yy * S + x)
                        }
                        store8(acc, o + x)
                        x += 8
                    }
                }
            }
        }
    }

    /// dst += bilinear ×2 upsample of src (edges clamped). Destination pixel
    /// x samples source position (x + 0.5)/2 − 0.5: weights ¼ and ¾.
    private func addUpsampled(_ src: Level, into dst: Level, pool: WorkerPool) {
        let sp = src.planes.map(\.base), dp = dst.planes.map(\.base)
        let sw = src.width, sh = src.height, ss = src.stride, dw = dst.width, ds = dst.stride
        let vecW = (sw + 7) / 8 * 8
        pool.run(chunks: rowChunks(dst.height)) { chunk, _ in
            // One source row's worth, vertically interpolated, padded by one clamped value each side.
            let row = UnsafeMutablePointer<Float>.allocate(capacity: vecW + 2)
            defer { row.deallocate() }
            for y in (chunk * Self.rowsPerChunk)..<min(dst.height, chunk * Self.rowsPerChunk + Self.rowsPerChunk) {
                let j = y >> 1
                let (ra, rb, wb): (Int, Int, Float) = y & 1 == 0 ? (j - 1, j, 0.75) : (j, j + 1, 0.25)
                let r0 = min(max(ra, 0), sh - 1), r1 = min(max(rb, 0), sh - 1)
                let wa = V8(repeating: 1 - wb), wbv = V8(repeating: wb)
                for c in 0..<3 {
                    let a = sp[c] + r0 * ss, b = sp[c] + r1 * ss, o = dp[c] + y * ds
                    var x = 0
                    while x < vecW {
                        store8(load8(a + x) * wa + load8(b + x) * wbv, row + 1 + x)
                        x += 8
                    }
                    row[0] = row[1]
                    row[sw + 1] = row[sw]
                    for i in 0..<sw {
                        let left = row[i], mid = row[i + 1], right = row[i + 2]
                        let x0 = 2 * i
                        o[x0] += 0.25 * left + 0.75 * mid
                        if x0 + 1 < dw { o[x0 + 1] += 0.75 * mid + 0.25 * right }
                    }
                }
            }
        }
    }
}
