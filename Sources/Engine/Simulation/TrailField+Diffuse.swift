/// Per-step settings of the diffusion pass, in field units.
public struct DiffuseSettings: Sendable {
    /// Trail added per deposit count, per species.
    public var deposit: (Float, Float, Float)
    /// Fraction kept this step.
    public var decay: Float
    /// Amount subtracted per step after decay.
    public var fade: Float
    /// Highest trail value.
    public var cap: Float
    /// Blur (3×3 mean) this step.
    public var blur: Bool
    /// Interaction matrix, row-major M[s][c].
    public var matrix: [Float]
    /// Also pack the merged counts into `TrailField.heads`.
    var heads = false
    /// What the merged trail is multiplied by (the decay, and the blur's ⅑).
    public var scale: Float { blur ? decay * (1.0 / 9.0) : decay }
}

extension TrailField {
    /// Rows per chunk of the diffusion pass (fixed: results never depend on the
    /// thread count).
    static let rowsPerChunk = 16

    /// Number of chunks of the diffusion pass.
    var diffuseChunks: Int { (height + Self.rowsPerChunk - 1) / Self.rowsPerChunk }

    /// Merges the deposit counts into the trails, blurs (when `s.blur`), decays,
    /// fades, caps, writes the new trails into the scratch planes, refreshes the
    /// sensing planes and clears the counts; then swaps planes.
    func diffuse(_ s: DiffuseSettings, pool: WorkerPool, scratchRows: [AlignedBuffer<Float>]) {
        precondition(species == 3, "the diffusion pass is written for three species")
        let W = width, H = height
        let rows = Self.rowsPerChunk
        let workers = counts.count
        let dep: [Float] = [s.deposit.0, s.deposit.1, s.deposit.2]
        let scale = s.blur ? s.decay * (1.0 / 9.0) : s.decay
        let fade = s.fade, cap = s.cap
        let M = s.matrix
        let src = trails.map(\.base), dst = scratch.map(\.base), sen = sense.map(\.base)
        let cnt = counts.map { $0.map(\.base) }
        let blur = s.blur
        let recordHeads = s.heads
        let heads = recordHeads ? self.heads.base : nil

        pool.run(chunks: diffuseChunks) { chunk, worker in
            let y0 = chunk * rows, y1 = min(H, y0 + rows)
            let scr = scratchRows[worker].base
            // Layout of the worker's scratch: 9 ring rows (3 channels × 3), a
            // merged row, a count row per channel.
            let merged = scr + 9 * W
            let countRows = UnsafeMutableRawPointer(scr + 10 * W).assumingMemoryBound(to: Int32.self)

            /// Trail + deposit of channel c, row r (wrapped) into `merged`; clears counts when `clear`.
            func merge(_ c: Int, _ rIn: Int, clear: Bool) {
                let r = (rIn + H) % H
                let off = r * W
                let t = src[c] + off
                let countRow = countRows + c * W
                let c0 = cnt[0][c] + off
                let d = dep[c]
                if workers == 2 {
                    // The common case (two threads) in one pass over the row.
                    let c1 = cnt[1][c] + off
                    if recordHeads {
                        for x in 0..<W {
                            let n = min(Int32(c0[x]) &+ Int32(c1[x]), 255)
                            countRow[x] = n
                            merged[x] = t[x] + Float(n) * d
                        }
                    } else {
                        for x in 0..<W { merged[x] = t[x] + Float(min(Int32(c0[x]) &+ Int32(c1[x]), 255)) * d }
                    }
                    if clear {
                        c0.update(repeating: 0, count: W)
                        c1.update(repeating: 0, count: W)
                    }
                    return
                }
                for x in 0..<W { countRow[x] = Int32(c0[x]) }
                if clear { (c0).update(repeating: 0, count: W) }
                var w = 1
                while w < workers {
                    let cw = cnt[w][c] + off
                    for x in 0..<W { countRow[x] &+= Int32(cw[x]) }
                    if clear { cw.update(repeating: 0, count: W) }
                    w += 1
                }
                for x in 0..<W {
                    merged[x] = t[x] + Float(min(countRow[x], 255)) * d
                }
            }

            /// Packs the three channels' merged counts of row r (all merged
            /// last) into the head counts, when recording and r is this chunk's.
            func packHeads(_ r: Int) {
                guard let heads, r >= y0, r < y1 else { return }
                let h = heads + r * W
                let a = countRows, b = countRows + W, c = countRows + 2 * W
                for x in 0..<W {
                    h[x] = UInt32(min(a[x], 255)) | UInt32(min(b[x], 255)) << 8 | UInt32(min(c[x], 255)) << 16
                }
            }

            /// Horizontal 3-sum of `merged` with wrap-around into `h`.
            func hsum(_ h: UnsafeMutablePointer<Float>) {
                h[0] = (merged[W - 1] + merged[0]) + merged[1]
                for x in 1..<(W - 1) {
                    h[x] = (merged[x - 1] + merged[x]) + merged[x + 1]
                }
                h[W - 1] = (merged[W - 2] + merged[W - 1]) + merged[0]
            }

            if blur {
                // ring[c][k] holds h of row (y - 1 + k) for the current y, rotated by index.
                for c in 0..<3 {
                    let ring = scr + c * 3 * W
                    merge(c, y0 - 1, clear: false)
                    hsum(ring)
                    merge(c, y0, clear: false)
                    hsum(ring + W)
                }
                packHeads(y0)
                for y in y0..<y1 {
                    let slotPrev = (y - y0) % 3, slotCur = (y - y0 + 1) % 3, slotNext = (y - y0 + 2) % 3
                    let next = y + 1
                    let clearNext = next >= y0 + 1 && next <= y1 - 2
                    for c in 0..<3 {
                        merge(c, next, clear: clearNext)
                        hsum(scr + c * 3 * W + slotNext * W)
                    }
                    // Vertical sums, decay, fade and cap of the three channels
                    // and the sensing planes from them, in one pass over row y.
                    let off = y * W
                    let p0 = scr + slotPrev * W, c0 = scr + slotCur * W, n0 = scr + slotNext * W
                    let p1 = p0 + 3 * W, c1 = c0 + 3 * W, n1 = n0 + 3 * W
                    let p2 = p1 + 3 * W, c2 = c1 + 3 * W, n2 = n1 + 3 * W
                    let o0 = dst[0] + off, o1 = dst[1] + off, o2 = dst[2] + off
                    let f0 = sen[0] + off, f1 = sen[1] + off, f2 = sen[2] + off
                    let m00 = M[0], m01 = M[1], m02 = M[2], m10 = M[3], m11 = M[4], m12 = M[5], m20 = M[6], m21 = M[7], m22 = M[8]
                    for x in 0..<W {
                        let t0 = min(max(((p0[x] + c0[x]) + n0[x]) * scale - fade, 0), cap)
                        let t1 = min(max(((p1[x] + c1[x]) + n1[x]) * scale - fade, 0), cap)
                        let t2 = min(max(((p2[x] + c2[x]) + n2[x]) * scale - fade, 0), cap)
                        o0[x] = t0; o1[x] = t1; o2[x] = t2
                        f0[x] = Float16((m00 * t0 + m01 * t1) + m02 * t2)
                        f1[x] = Float16((m10 * t0 + m11 * t1) + m12 * t2)
                        f2[x] = Float16((m20 * t0 + m21 * t1) + m22 * t2)
                    }
                    packHeads(next)
                }
            } else {
                for y in y0..<y1 {
                    for c in 0..<3 {
                        merge(c, y, clear: true)
                        let out = dst[c] + y * W
                        for x in 0..<W {
                            let v = merged[x] * scale - fade
                            out[x] = min(max(v, 0), cap)
                        }
                    }
                    packHeads(y)
                    senseRow(y)
                }
            }

            /// F_s = Σ_c M[s,c]·T_c for row y from the freshly written trails.
            func senseRow(_ y: Int) {
                let off = y * W
                let t0 = dst[0] + off, t1 = dst[1] + off, t2 = dst[2] + off
                for sp in 0..<3 {
                    let m0 = M[sp * 3], m1 = M[sp * 3 + 1], m2 = M[sp * 3 + 2]
                    let f = sen[sp] + off
                    for x in 0..<W {
                        f[x] = Float16((m0 * t0[x] + m1 * t1[x]) + m2 * t2[x])
                    }
                }
            }
        }

        if blur {
            // Rows read by two chunks (each chunk's first and last) are cleared
            // only now that every chunk has read them.
            pool.run(chunks: diffuseChunks) { chunk, _ in
                let y0 = chunk * rows, y1 = min(H, y0 + rows)
                for r in Set([y0, y1 - 1]) {
                    for w in 0..<workers {
                        for c in 0..<3 { (cnt[w][c] + r * W).update(repeating: 0, count: W) }
                    }
                }
            }
        }
        swapPlanes()
        headsValid = recordHeads
    }
}
