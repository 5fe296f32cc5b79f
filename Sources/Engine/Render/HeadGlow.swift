/// Head glow counts: how many agents of each species sit on each field pixel
/// right now. Stamped in parallel into one byte plane per worker and species
/// (saturating at 255), then merged as min(Σ workers, 255) — which equals
/// min(true count, 255) whatever the split between workers, so the picture
/// does not depend on the thread count — and packed one pixel per UInt32
/// (species 0, 1, 2 in bytes 0, 1, 2), so a lookup touches one cache line.
///
/// Thread safety: used only from `Renderer.render` passes.
final class HeadGlowPlanes {
    let width: Int
    let height: Int
    /// `planes[worker][species]`, width × height bytes each; all zero between frames.
    let planes: [[AlignedBuffer<UInt8>]]
    /// The merged counts of the last `stamp`, packed per pixel.
    let packed: AlignedBuffer<UInt32>

    /// Agents per scatter chunk (fixed, independent of the thread count).
    static let agentsPerChunk = 32_768

    init(width: Int, height: Int, workers: Int, species: Int) {
        self.width = width
        self.height = height
        precondition(species == 3, "head glow packs three species")
        planes = (0..<workers).map { _ in (0..<species).map { _ in AlignedBuffer(count: width * height) } }
        packed = AlignedBuffer(count: width * height)
    }

    /// Stamps each agent of `field` into its worker's plane of its species,
    /// then merges and packs the counts into `packed` (clearing the planes).
    func stamp(_ field: FieldView, pool: WorkerPool) {
        guard let X = field.agentX, let Y = field.agentY else {
            packed.zero()
            return
        }
        let species = planes[0].count

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
        let maxX = Float(W) - 0.5, maxY = Float(H) - 0.5
        pool.run(chunks: chunks.count) { c, worker in
            let (s, range) = chunks[c]
            let p = bases[worker][s]
            // Eight agents at a time: pixel indices in SIMD (exact floor via the
            // magic-number trick), then the saturating increments one by one.
            var idx = SIMD8<Int32>()
            var i = range.lowerBound
            while i + 8 <= range.upperBound {
                let fx = floorClamped(load8(X + i), maxX), fy = floorClamped(load8(Y + i), maxY)
                idx = fy &* Int32(W) &+ fx
                for l in 0..<8 {
                    let k = Int(idx[l])
                    let v = p[k]
                    p[k] = v &+ (v == 255 ? 0 : 1)
                }
                i += 8
            }
            while i < range.upperBound {
                let ix = min(max(Int(X[i]), 0), W - 1), iy = min(max(Int(Y[i]), 0), H - 1)
                let k = iy * W + ix
                let v = p[k]
                p[k] = v &+ (v == 255 ? 0 : 1)
                i += 1
            }
        }
        mergeAndPack(pool: pool)
    }

    /// packed[i] = min(Σ workers, 255) per species byte; the worker planes are
    /// cleared on the way, ready for the next frame. Parallel over fixed row
    /// chunks, 16 pixels at a time.
    func mergeAndPack(pool: WorkerPool) {
        let W = width, rows = 32
        let bases = planes.map { $0.map(\.base) }
        let out = packed.base
        let workers = bases.count
        pool.run(chunks: (height + rows - 1) / rows) { chunk, _ in
            let start = chunk * rows * W, end = min(height, (chunk + 1) * rows) * W
            @inline(__always) func sum(_ s: Int, _ i: Int) -> SIMD16<UInt8> {
                var acc = SIMD16<UInt8>()
                for w in 0..<workers {
                    let p = UnsafeMutableRawPointer(bases[w][s] + i)
                    let b = p.loadUnaligned(as: SIMD16<UInt8>.self)
                    let total = acc &+ b
                    // A wrapped sum is smaller than what was added: saturate.
                    acc = total.replacing(with: 255, where: total .< b)
                    p.storeBytes(of: SIMD16<UInt8>(), as: SIMD16<UInt8>.self)
                }
                return acc
            }
            var i = start
            while i + 16 <= end {
                let a = SIMD16<UInt32>(truncatingIfNeeded: sum(0, i))
                let b = SIMD16<UInt32>(truncatingIfNeeded: sum(1, i))
                let c = SIMD16<UInt32>(truncatingIfNeeded: sum(2, i))
                UnsafeMutableRawPointer(out + i).storeBytes(of: a | (b &<< 8) | (c &<< 16), as: SIMD16<UInt32>.self)
                i += 16
            }
            while i < end {
                var v: UInt32 = 0
                for s in 0..<3 {
                    var n = 0
                    for w in 0..<workers { n += Int(bases[w][s][i]); bases[w][s][i] = 0 }
                    v |= UInt32(min(n, 255)) << (8 * UInt32(s))
                }
                out[i] = v
                i += 1
            }
        }
    }
}

/// ⌊v⌋ of lanes clamped to 0…maxValue (< 2²²; NaN counts as 0), as
/// integers: round to the nearest integer with the magic number, step down
/// where that rounded up.
@inline(__always) func floorClamped(_ v: V8, _ maxValue: Float) -> SIMD8<Int32> {
    let top = V8(repeating: maxValue)
    let pos = V8.zero.replacing(with: v, where: v .> .zero)
    let c = pos.replacing(with: top, where: pos .> top)
    var r = (c + V8(repeating: magicRound)) - V8(repeating: magicRound)
    r = r.replacing(with: r - V8(repeating: 1), where: r .> c)
    return unsafeBitCast(unsafeBitCast(r + V8(repeating: magicRound), to: U8x8.self) & U8x8(repeating: 0x3F_FFFF), to: SIMD8<Int32>.self)
}
