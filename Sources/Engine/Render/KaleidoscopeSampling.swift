/// How the composite pass samples the field through a kaleidoscope.
///
/// Every output pixel shows one field pixel (`KaleidoscopeMap`), and each
/// field pixel in the wedge is shown about 2·axes times (once per mirror
/// image). The colour a pixel gets before feedback (exposure, head glow,
/// species colours, tone map, background) depends only on that field pixel,
/// so it is computed once per field pixel the map names — the colour pass,
/// eight pixels at a time over the runs of needed pixels — into a colour
/// field, and the output rows gather three floats per pixel from it instead
/// of three trail planes and the head counts (four cache lines) plus the
/// colour maths. The result is bit-identical to colouring each output pixel.
///
/// The colour field is blocked by eight pixels: block b (= row·blocksPerRow
/// + x/8) holds R of its eight pixels, then G, then B (24 floats), so the
/// pass stores whole vectors and a gather touches one or two cache lines.
///
/// Thread safety: used only from `Renderer.render` passes.
final class KaleidoscopeSampling {
    let fieldWidth: Int, fieldHeight: Int
    /// Blocks of eight pixels per field row.
    let blocksPerRow: Int
    /// Per output pixel (row-major): the float offset of its R in the colour field.
    let map: AlignedBuffer<Int32>
    /// Needed blocks as runs [start, end) of block indices within a row,
    /// per chunk of `rowsPerChunk` field rows: (row, start, end).
    let runs: [[(Int32, Int32, Int32)]]
    /// Field rows per chunk of the colour pass.
    static let rowsPerChunk = 16
    /// Floats per block.
    static let blockFloats = 24

    /// Samples for `axes` mirror axes on `mapping` (built with `pool`).
    init(axes: Int, mapping m: CoverMapping, pool: WorkerPool) {
        let fieldMap = KaleidoscopeMap.build(axes: axes, mapping: m, pool: pool)
        fieldWidth = m.fieldWidth
        fieldHeight = m.fieldHeight
        let BW = (m.fieldWidth + 7) / 8
        blocksPerRow = BW
        let n = m.outWidth * m.outHeight
        map = AlignedBuffer(count: n)
        var needed = [Bool](repeating: false, count: BW * m.fieldHeight)
        let src = fieldMap.base, dst = map.base
        for o in 0..<n {
            let i = Int(src[o])
            let iy = i / m.fieldWidth, ix = i - iy * m.fieldWidth
            let block = iy * BW + (ix >> 3)
            needed[block] = true
            dst[o] = Int32(block * Self.blockFloats + (ix & 7))
        }
        var chunks: [[(Int32, Int32, Int32)]] = []
        var y = 0
        while y < m.fieldHeight {
            var list: [(Int32, Int32, Int32)] = []
            for r in y..<min(m.fieldHeight, y + Self.rowsPerChunk) {
                var b = 0
                while b < BW {
                    guard needed[r * BW + b] else { b += 1; continue }
                    let start = b
                    while b < BW && needed[r * BW + b] { b += 1 }
                    list.append((Int32(r), Int32(start), Int32(b)))
                }
            }
            chunks.append(list)
            y += Self.rowsPerChunk
        }
        runs = chunks
    }

    /// Floats the colour field needs.
    var colourCount: Int { blocksPerRow * fieldHeight * Self.blockFloats }

    /// The colour pass: colours (before feedback) of every needed field pixel
    /// into `colour`, from trails `T` (× trailGain) and head counts `G`
    /// (× glowGain) by `kernel`.
    func colourField(_ T: Rows3, _ G: UnsafeMutablePointer<UInt32>?, trailGain: Float, glowGain: Float,
                     kernel: CompositeKernel, into colour: UnsafeMutablePointer<Float>, pool: WorkerPool) {
        let FW = fieldWidth
        let runs = self.runs
        let tg = V8(repeating: trailGain), gg = V8(repeating: glowGain)
        pool.run(chunks: runs.count) { chunk, _ in
            for (row, start, end) in runs[chunk] {
                let off = Int(row) * FW
                let blockBase = Int(row) * self.blocksPerRow
                for b in Int(start)..<Int(end) {
                    let x = b * 8
                    let valid = min(8, FW - x)
                    // The same arithmetic as the identity path's: trailGain·T (+ glowGain·heads).
                    var e0 = tg * Self.load(T.0 + off + x, valid)
                    var e1 = tg * Self.load(T.1 + off + x, valid)
                    var e2 = tg * Self.load(T.2 + off + x, valid)
                    if let G {
                        let heads = Self.loadHeads(G + off + x, valid)
                        e0 = e0 + gg * Renderer.byteLane(heads, 0)
                        e1 = e1 + gg * Renderer.byteLane(heads, 8)
                        e2 = e2 + gg * Renderer.byteLane(heads, 16)
                    }
                    let (r, g, bl) = kernel.colour(e0, e1, e2)
                    let out = colour + (blockBase + b) * Self.blockFloats
                    store8(r, out)
                    store8(g, out + 8)
                    store8(bl, out + 16)
                }
            }
        }
    }

    /// Output row `y`'s colours gathered from the colour field into `e`
    /// (lanes past the width get `pad`, the colour of an empty pixel).
    @inline(__always)
    func gather(row y: Int, width W: Int, stride S: Int, colour C: UnsafeMutablePointer<Float>,
                pad: (Float, Float, Float), into e: Rows3) {
        let m = map.base + y * W
        for x in 0..<W {
            let o = Int(m[x])
            e.0[x] = C[o]
            e.1[x] = C[o + 8]
            e.2[x] = C[o + 16]
        }
        for x in W..<S { e.0[x] = pad.0; e.1[x] = pad.1; e.2[x] = pad.2 }
    }

    @inline(__always) static func load(_ p: UnsafeMutablePointer<Float>, _ valid: Int) -> V8 {
        if valid == 8 { return load8(p) }
        var v = V8.zero
        for k in 0..<valid { v[k] = p[k] }
        return v
    }

    @inline(__always) static func loadHeads(_ p: UnsafeMutablePointer<UInt32>, _ valid: Int) -> U8x8 {
        if valid == 8 { return UnsafeRawPointer(p).loadUnaligned(as: U8x8.self) }
        var v = U8x8.zero
        for k in 0..<valid { v[k] = p[k] }
        return v
    }
}
