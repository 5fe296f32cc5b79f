/// Head glow counts: how many agents of each species sit on each field pixel
/// right now. Stamped in parallel into one byte plane per worker and species
/// (saturating at 255), then merged as min(Σ workers, 255) — which equals
/// min(true count, 255) whatever the split between workers, so the picture
/// does not depend on the thread count.
///
/// Thread safety: used only from `Renderer.render` passes.
final class HeadGlowPlanes {
    let width: Int
    let height: Int
    /// `planes[worker][species]`, width × height bytes each.
    let planes: [[AlignedBuffer<UInt8>]]

    /// Agents per scatter chunk (fixed, independent of the thread count).
    static let agentsPerChunk = 32_768

    init(width: Int, height: Int, workers: Int, species: Int) {
        self.width = width
        self.height = height
        planes = (0..<workers).map { _ in (0..<species).map { _ in AlignedBuffer(count: width * height) } }
    }

    /// Clears every plane, then stamps each agent of `field` into its worker's
    /// plane of its species.
    func stamp(_ field: FieldView, pool: WorkerPool) {
        guard let X = field.agentX, let Y = field.agentY else {
            for w in planes { for p in w { p.zero() } }
            return
        }
        let species = planes[0].count
        let all = planes.flatMap { $0 }
        pool.run(chunks: all.count) { c, _ in all[c].zero() }

        var chunks: [(Int, Range<Int>)] = []
        for (s, r) in field.ranges.enumerated() where s < species {
            var i = r.lowerBound
            while i < r.upperBound {
                let e = min(r.upperBound, i + Self.agentsPerChunk)
                chunks.append((s, i..<e))
                i = e
            }
        }
        let W = width, H = height
        let bases = planes.map { $0.map(\.base) }
        pool.run(chunks: chunks.count) { c, worker in
            let (s, range) = chunks[c]
            let p = bases[worker][s]
            for i in range {
                let ix = min(max(Int(X[i]), 0), W - 1), iy = min(max(Int(Y[i]), 0), H - 1)
                let k = iy * W + ix
                let v = p[k]
                p[k] = v &+ (v == 255 ? 0 : 1)
            }
        }
        merge(pool: pool)
    }

    /// After `stamp`: one plane per species holding min(Σ workers, 255) — the
    /// first worker's planes, into which the others are merged.
    var merged: [AlignedBuffer<UInt8>] { planes[0] }

    /// Adds every other worker's planes into the first (saturating), in
    /// parallel over fixed row chunks.
    func merge(pool: WorkerPool) {
        let workers = planes.count
        guard workers > 1 else { return }
        let W = width, rows = 32
        let bases = planes.map { $0.map(\.base) }
        let species = bases[0].count
        pool.run(chunks: (height + rows - 1) / rows) { chunk, _ in
            let start = chunk * rows * W, end = min(height, (chunk + 1) * rows) * W
            for s in 0..<species {
                let dst = bases[0][s]
                for w in 1..<workers {
                    let src = bases[w][s]
                    var i = start
                    // Saturating byte adds, 16 at a time: a wrapped sum is smaller than either input.
                    while i + 16 <= end {
                        let a = UnsafeRawPointer(dst + i).loadUnaligned(as: SIMD16<UInt8>.self)
                        let b = UnsafeRawPointer(src + i).loadUnaligned(as: SIMD16<UInt8>.self)
                        let sum = a &+ b
                        let sat = sum.replacing(with: 255, where: sum .< a)
                        UnsafeMutableRawPointer(dst + i).storeBytes(of: sat, as: SIMD16<UInt8>.self)
                        i += 16
                    }
                    while i < end {
                        dst[i] = UInt8(truncatingIfNeeded: min(UInt16(dst[i]) &+ UInt16(src[i]), 255))
                        i += 1
                    }
                }
            }
        }
    }
}
