/// Three row pointers, one per species or channel.
typealias Rows3 = (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)

/// The composite pass: for each output row, sample the field (in place, via
/// the kaleidoscope's colour field, or resampled), add head glow, colour the species by
/// the blend mode, tone map, mix in the previous frame (feedback), store the
/// result as the new history, and gather the bloom bright-pass at ¼
/// resolution — one read of the field, one write of the picture.
extension Renderer {
    func composite(field: FieldView, sampler: Sampler, glow: UnsafeMutablePointer<UInt32>?, settings s: RenderSettings) {
        let W = width, H = height, S = stride
        let rows = Self.rowsPerChunk
        let hist: Rows3 = (history[0].base, history[1].base, history[2].base)
        let scratchBases = scratch.map(\.base)
        let FW = field.width, FH = field.height
        let fwPad = max((FW + 7) / 8 * 8, S)
        let T = (UnsafeMutablePointer(mutating: field.trails[0]), UnsafeMutablePointer(mutating: field.trails[1]),
                 UnsafeMutablePointer(mutating: field.trails[2]))
        let bloomOn = s.bloomOn
        let lvl = bloom.base
        let bl: Rows3 = (lvl.planes[0].base, lvl.planes[1].base, lvl.planes[2].base)
        let bS = lvl.stride, bW = lvl.width
        let G = glow
        let trailGain = s.trailGain, glowGain = s.glowGain
        let kernel = CompositeKernel(s)
        // The kaleidoscope colours the field pixels it shows first (see KaleidoscopeSampling).
        var colourField: UnsafeMutablePointer<Float>?
        var pad: (Float, Float, Float) = (0, 0, 0)
        if case .map(let k) = sampler {
            if kaleidoscopeColour.count < k.colourCount { kaleidoscopeColour = AlignedBuffer(count: k.colourCount) }
            k.colourField(T, G, trailGain: trailGain, glowGain: glowGain, kernel: kernel, into: kaleidoscopeColour.base, pool: pool)
            colourField = kaleidoscopeColour.base
            let (r, g, b) = kernel.colour(.zero, .zero, .zero)
            pad = (r[0], g[0], b[0])
        }

        pool.run(chunks: (H + rows - 1) / rows) { chunk, worker in
            let y0 = chunk * rows, y1 = min(H, y0 + rows)
            let scr = scratchBases[worker]
            let e: Rows3 = (scr, scr + S, scr + 2 * S)
            let acc: Rows3 = (scr + 3 * S, scr + 4 * S, scr + 5 * S)
            let v: Rows3 = (scr + 7 * S, scr + 7 * S + fwPad, scr + 7 * S + 2 * fwPad)
            for y in y0..<y1 {
                var src: Rows3
                var gain: Float = 1
                var coloured = false
                switch sampler {
                case .identity:
                    if let G {
                        Self.identityWithGlow(T, G, row: y, width: W, trailGain: trailGain, glowGain: glowGain, into: e)
                        src = e
                    } else {
                        src = (T.0 + y * W, T.1 + y * W, T.2 + y * W)
                        gain = trailGain
                    }
                case .map(let k):
                    k.gather(row: y, width: W, stride: S, colour: colourField!, pad: pad, into: e)
                    src = e
                    coloured = true
                case .resample(let tx, let ty):
                    Self.resampled(T, G, tx: tx, ty: ty, row: y, fieldWidth: FW, fieldHeight: FH, width: W,
                                   trailGain: trailGain, glowGain: glowGain, vertical: v, into: e)
                    src = e
                }
                if bloomOn && y & 3 == 0 {
                    acc.0.update(repeating: 0, count: S)
                    acc.1.update(repeating: 0, count: S)
                    acc.2.update(repeating: 0, count: S)
                }
                let off = y * S
                let h: Rows3 = (hist.0 + off, hist.1 + off, hist.2 + off)
                if coloured {
                    kernel.runColoured(src, count: S, history: h, bloom: bloomOn ? acc : nil)
                } else {
                    kernel.run(src, gain: gain, count: S, history: h, bloom: bloomOn ? acc : nil)
                }
                if bloomOn && (y & 3 == 3 || y == y1 - 1) {
                    let o = (y >> 2) * bS
                    Self.reduceQuads(acc.0, into: bl.0 + o, count: bW)
                    Self.reduceQuads(acc.1, into: bl.1 + o, count: bW)
                    Self.reduceQuads(acc.2, into: bl.2 + o, count: bW)
                }
            }
        }
    }

    /// out[j] = (a[4j] + a[4j+1] + a[4j+2] + a[4j+3]) / 16: four accumulated
    /// rows × four columns into one bloom pixel.
    @inline(__always)
    static func reduceQuads(_ a: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>, count: Int) {
        for j in 0..<count {
            out[j] = ((a[4 * j] + a[4 * j + 1]) + (a[4 * j + 2] + a[4 * j + 3])) * (1.0 / 16)
        }
    }

    /// Identity sampling with head glow: E = trailGain·T + glowGain·heads.
    static func identityWithGlow(_ T: Rows3, _ G: UnsafeMutablePointer<UInt32>,
                                 row y: Int, width W: Int, trailGain: Float, glowGain: Float, into e: Rows3) {
        let off = y * W
        let tg = V8(repeating: trailGain), gg = V8(repeating: glowGain)
        var x = 0
        while x < W {
            let heads = UnsafeRawPointer(G + off + x).loadUnaligned(as: U8x8.self)
            store8(tg * load8(T.0 + off + x) + gg * byteLane(heads, 0), e.0 + x)
            store8(tg * load8(T.1 + off + x) + gg * byteLane(heads, 8), e.1 + x)
            store8(tg * load8(T.2 + off + x) + gg * byteLane(heads, 16), e.2 + x)
            x += 8
        }
    }

    /// Byte `shift/8` of each lane as a float (exact, by the magic-number trick).
    @inline(__always) static func byteLane(_ v: U8x8, _ shift: UInt32) -> V8 {
        let b = (v &>> U8x8(repeating: shift)) & U8x8(repeating: 0xFF)
        return unsafeBitCast(b | U8x8(repeating: 0x4B00_0000), to: V8.self) - V8(repeating: 8_388_608)
    }

    /// Cover-scaled sampling: vertical taps into `vertical` (field width), then
    /// horizontal taps into `e`.
    static func resampled(_ T: Rows3, _ G: UnsafeMutablePointer<UInt32>?,
                          tx: AxisTaps, ty: AxisTaps, row y: Int, fieldWidth FW: Int, fieldHeight FH: Int, width W: Int,
                          trailGain: Float, glowGain: Float, vertical v: Rows3, into e: Rows3) {
        let planes = [(T.0, UInt32(0), v.0, e.0), (T.1, UInt32(8), v.1, e.1), (T.2, UInt32(16), v.2, e.2)]
        for (t0, shift, acc, o) in planes {
            acc.update(repeating: 0, count: FW)
            for k in 0..<ty.taps {
                let w = ty.weight[y * ty.taps + k]
                if w == 0 { continue }
                let off = Int(ty.index[y * ty.taps + k]) * FW
                let t = t0 + off
                let wt = w * trailGain
                for x in 0..<FW { acc[x] += wt * t[x] }
                if let G {
                    let g = G + off
                    let wg = w * glowGain
                    for x in 0..<FW { acc[x] += wg * Float((g[x] >> shift) & 0xFF) }
                }
            }
            tx.index.withUnsafeBufferPointer { idx in
                tx.weight.withUnsafeBufferPointer { wts in
                    let n = tx.taps
                    for x in 0..<W {
                        var sum: Float = 0
                        for k in 0..<n { sum += wts[x * n + k] * acc[Int(idx[x * n + k])] }
                        o[x] = sum
                    }
                }
            }
            for x in W..<((W + 7) / 8 * 8) { o[x] = 0 }
        }
    }
}

/// The per-pixel colour maths of the composite pass, eight pixels at a time.
struct CompositeKernel {
    let additive: Bool
    /// Background, display values.
    let bg: (V8, V8, V8)
    /// Additive: species colour in linear light, per channel.
    /// Paint: 1 − display colour (what the ink absorbs), per channel.
    let c0: (V8, V8, V8), c1: (V8, V8, V8), c2: (V8, V8, V8)
    let feedback: V8
    let feedbackOn: Bool
    let threshold: V8

    init(_ s: RenderSettings) {
        additive = s.blend == .additive
        bg = (V8(repeating: s.background.x), V8(repeating: s.background.y), V8(repeating: s.background.z))
        func col(_ c: SIMD3<Float>) -> (V8, V8, V8) {
            let k = s.blend == .additive ? c : SIMD3<Float>(repeating: 1) - c
            return (V8(repeating: k.x), V8(repeating: k.y), V8(repeating: k.z))
        }
        c0 = col(s.colors[0]); c1 = col(s.colors[1]); c2 = col(s.colors[2])
        feedback = V8(repeating: s.feedback)
        feedbackOn = s.feedback > 0
        threshold = V8(repeating: s.bloomThreshold)
    }

    /// Colours `count` pixels (a multiple of 8) of intensity rows `e`
    /// (times `gain`), mixes with and overwrites `history`, and adds the
    /// bright-pass into the `bloom` accumulator rows when given.
    @inline(__always)
    func run(_ e: Rows3, gain: Float, count: Int, history h: Rows3, bloom b: Rows3?) {
        let g = V8(repeating: gain)
        var x = 0
        while x < count {
            let (r, gr, bl) = colour(load8(e.0 + x) * g, load8(e.1 + x) * g, load8(e.2 + x) * g)
            blend(r, gr, bl, at: x, history: h, bloom: b)
            x += 8
        }
    }

    /// `run` on rows that already hold colours (from `colour`): feedback,
    /// history and the bloom bright-pass only.
    @inline(__always)
    func runColoured(_ c: Rows3, count: Int, history h: Rows3, bloom b: Rows3?) {
        var x = 0
        while x < count {
            blend(load8(c.0 + x), load8(c.1 + x), load8(c.2 + x), at: x, history: h, bloom: b)
            x += 8
        }
    }

    /// The colour of eight pixels of intensities (e0, e1, e2) by the blend
    /// mode, tone mapped, over the background (display values).
    @inline(__always)
    func colour(_ e0: V8, _ e1: V8, _ e2: V8) -> (V8, V8, V8) {
        let one = V8(repeating: 1)
        if additive {
            // Light from the trails, tone mapped, screened over the
            // background: exact over black, saturating toward white on
            // bright backgrounds.
            let lr = filmic(c0.0 * e0 + c1.0 * e1 + c2.0 * e2)
            let lg = filmic(c0.1 * e0 + c1.1 * e1 + c2.1 * e2)
            let lb = filmic(c0.2 * e0 + c1.2 * e1 + c2.2 * e2)
            return (bg.0 + lr - bg.0 * lr, bg.1 + lg - bg.1 * lg, bg.2 + lb - bg.2 * lb)
        }
        // Ink on paper: each species covers a share a of the pixel and
        // absorbs (1 − colour) of the light there; uncovered paper shows
        // the background. bg·T + Π(1 − a·k) − T with T = Π(1 − a).
        let a0 = filmic(e0), a1 = filmic(e1), a2 = filmic(e2)
        let t = (one - a0) * (one - a1) * (one - a2)
        return (bg.0 * t + (one - a0 * c0.0) * (one - a1 * c1.0) * (one - a2 * c2.0) - t,
                bg.1 * t + (one - a0 * c0.1) * (one - a1 * c1.1) * (one - a2 * c2.1) - t,
                bg.2 * t + (one - a0 * c0.2) * (one - a1 * c1.2) * (one - a2 * c2.2) - t)
    }

    /// Feedback with the history at lanes x…x+7, the new history, and the
    /// bright-pass of what is brighter than the background into `b`.
    @inline(__always)
    func blend(_ r0: V8, _ g0: V8, _ b0: V8, at x: Int, history h: Rows3, bloom b: Rows3?) {
        var r = r0, gr = g0, bl = b0
        if feedbackOn {
            r = r + (load8(h.0 + x) - r) * feedback
            gr = gr + (load8(h.1 + x) - gr) * feedback
            bl = bl + (load8(h.2 + x) - bl) * feedback
        }
        store8(r, h.0 + x)
        store8(gr, h.1 + x)
        store8(bl, h.2 + x)
        if let b {
            let dr = vmax(r - bg.0, .zero), dg = vmax(gr - bg.1, .zero), db = vmax(bl - bg.2, .zero)
            let lum = V8(repeating: Luma.r) * dr + V8(repeating: Luma.g) * dg + V8(repeating: Luma.b) * db
            let f = vmax(lum - threshold, .zero) / vmax(lum, V8(repeating: 1e-6))
            store8(load8(b.0 + x) + dr * f, b.0 + x)
            store8(load8(b.1 + x) + dg * f, b.1 + x)
            store8(load8(b.2 + x) + db * f, b.2 + x)
        }
    }
}
