/// The agent update, eight agents at a time and branch-free: sense three
/// points of the species' sensing plane, turn toward the strongest (a
/// counter-hash coin decides when both sides beat the centre), optional rhythm
/// and chaos rotations, move with wrap-around, count a deposit.
///
/// Headings are unit vectors rotated by precomputed (cos, sin) pairs: no
/// trigonometry here. Pixel indices come from the magic-number float→int
/// trick (PERFORMANCE.md item 10): round(v − 0.5) is floor(v) except that
/// exact integers may land one pixel lower, consistently.
struct AgentKernel {
    typealias V = SIMD8<Float>
    typealias VI = SIMD8<Int32>
    typealias VU = SIMD8<UInt32>
    static let lanes = 8

    /// Pointers and constants shared by every chunk of a step.
    struct Shared: @unchecked Sendable {
        // Agent arrays; each chunk touches only its own index range.
        let x, y, hx, hy: UnsafeMutablePointer<Float>
        let phase: UnsafeMutablePointer<UInt8>
        let width, height: Int32
        let seed: UInt32
        let step: UInt32
        let chaos: Bool
    }

    let shared: Shared
    let species: SpeciesStep
    let sense: UnsafeMutablePointer<Float16>
    let counts: UnsafeMutablePointer<UInt8>
    let rhythmRot: UnsafePointer<Float>
    let chaosRot: UnsafePointer<Float>
    /// How far a sensor point or the new position can lie from the agent, plus
    /// one pixel: agents at least this far inside the field need no wrapping.
    let margin: Float

    init(shared: Shared, species: SpeciesStep, sense: UnsafeMutablePointer<Float16>, counts: UnsafeMutablePointer<UInt8>,
         rhythmRot: UnsafePointer<Float>, chaosRot: UnsafePointer<Float>) {
        self.shared = shared
        self.species = species
        self.sense = sense
        self.counts = counts
        self.rhythmRot = rhythmRot
        self.chaosRot = chaosRot
        // Computed once here: in the per-group step, the generic abs/max
        // calls were not inlined and spilled every live vector register.
        let d = species.sensorDist < 0 ? -species.sensorDist : species.sensorDist
        let v = species.speed < 0 ? -species.speed : species.speed
        margin = (d > v ? d : v) + 1
    }

    /// Updates the agents in `range`.
    mutating func run(_ range: Range<Int>) {
        var i = range.lowerBound
        let end = range.upperBound
        while i + Self.lanes <= end {
            step(at: i, valid: Self.lanes)
            i += Self.lanes
        }
        if i < end { step(at: i, valid: end - i) }
    }

    @_transparent static func load(_ p: UnsafeMutablePointer<Float>, _ i: Int, _ valid: Int) -> V {
        // Lane by lane, which LLVM fuses into one unaligned vector load; the
        // stdlib's loadUnaligned is not inlined into this large kernel and the
        // call spills every live vector register.
        if valid == lanes { let q = p + i; return V(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]) }
        var v = V(repeating: 0)
        for k in 0..<valid { v[k] = p[i + k] }
        return v
    }

    @_transparent static func store(_ v: V, _ p: UnsafeMutablePointer<Float>, _ i: Int, _ valid: Int) {
        if valid == lanes {
            let q = p + i  // one vector store after LLVM's fusion (see `load`)
            q[0] = v[0]; q[1] = v[1]; q[2] = v[2]; q[3] = v[3]; q[4] = v[4]; q[5] = v[5]; q[6] = v[6]; q[7] = v[7]
        } else {
            for k in 0..<valid { p[i + k] = v[k] }
        }
    }

    /// v wrapped into [0, size) for |v| < 2·size.
    @_transparent static func wrap(_ v: V, _ size: V) -> V {
        var r = v
        r.replace(with: r + size, where: r .< 0)
        r.replace(with: r - size, where: r .>= size)
        r.replace(with: 0, where: r .>= size)  // v = −tiny + size rounds to size
        return r
    }

    /// Row-major pixel index of (sx, sy), wrapped into the field.
    @_transparent static func cell(_ sx: V, _ sy: V, _ W: V, _ H: V, _ maxX: VI, _ maxY: VI, _ rowStride: VI) -> VI {
        pixel(wrap(sy, H), maxY) &* rowStride &+ pixel(wrap(sx, W), maxX)
    }

    /// Pixel index of v ∈ [0, size) (as `wrap` guarantees): in [0, size − 1].
    @_transparent static func pixel(_ v: V, _ maxIndex: VI) -> VI {
        let t = (v - 0.5) + V(repeating: 12_582_912)  // 1.5·2²³: rounds to an integer
        let bits = unsafeBitCast(t, to: VI.self) &- VI(repeating: 0x4B40_0000)
        return bits  // v ∈ [0, size) ⇒ bits ∈ [0, size − 1]; no clamp needed
    }

    /// The lowbias32 hash of (seed, agent index, step, salt), per lane.
    @inline(__always) func hash(_ index: Int, salt: UInt32) -> VU {
        @inline(__always) func mix(_ x: VU) -> VU {
            var h = x
            h ^= h &>> 16
            h &*= 0x7FEB_352D
            h ^= h &>> 15
            h &*= 0x846C_A68B
            h ^= h &>> 16
            return h
        }
        let idx = VU(repeating: UInt32(truncatingIfNeeded: index)) &+ VU(0, 1, 2, 3, 4, 5, 6, 7)
        var h = VU(repeating: shared.seed &* 0x9E37_79B1) ^ idx
        h = mix(h) ^ VU(repeating: (shared.step &* 0x85EB_CA77) ^ (salt &* 0xC2B2_AE3D))
        return mix(h)
    }

    @_transparent func gather(_ idx: VI) -> V {
        let F = sense
        // Eight half-precision loads, one vector conversion (vcvtph2ps with F16C).
        // Indices are non-negative: read as UInt32 they widen for free (a
        // 32-bit move zero-extends), where Int32 costs a sign extension each.
        let u = unsafeBitCast(idx, to: VU.self)
        @_transparent func at(_ k: Int) -> Float16 { F[Int(truncatingIfNeeded: u[k])] }
        let h = SIMD8<Float16>(at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7))
        return V(h)
    }

    @inline(__always) mutating func step(at i: Int, valid: Int) {
        let sh = shared
        let W = V(repeating: Float(sh.width)), H = V(repeating: Float(sh.height))
        let maxX = VI(repeating: sh.width - 1), maxY = VI(repeating: sh.height - 1)
        let rowStride = VI(repeating: sh.width)
        let ca = species.sensorCos, sa = species.sensorSin, d = species.sensorDist

        let px = Self.load(sh.x, i, valid), py = Self.load(sh.y, i, valid)
        var hx = Self.load(sh.hx, i, valid), hy = Self.load(sh.hy, i, valid)

        // Sensor directions: heading rotated by ±sensor angle.
        let lx = hx * ca - hy * sa, ly = hx * sa + hy * ca
        let rx = hx * ca + hy * sa, ry = hy * ca - hx * sa
        let c: V, l: V, r: V
        // Away from the edges (almost every group of 8) the sensor points and
        // the new position lie inside the field and wrapping them would change
        // nothing: skip it. (Headings are unit vectors, renormalised by every
        // tile sort, so a point is at most max(d, speed) from the agent.)
        let m = V(repeating: margin)
        let inner = all((px .>= m) .& (px .< W - m) .& (py .>= m) .& (py .< H - m))
        if inner {
            c = gather(Self.pixel(py + hy * d, maxY) &* rowStride &+ Self.pixel(px + hx * d, maxX))
            l = gather(Self.pixel(py + ly * d, maxY) &* rowStride &+ Self.pixel(px + lx * d, maxX))
            r = gather(Self.pixel(py + ry * d, maxY) &* rowStride &+ Self.pixel(px + rx * d, maxX))
        } else {
            c = gather(Self.cell(px + hx * d, py + hy * d, W, H, maxX, maxY, rowStride))
            l = gather(Self.cell(px + lx * d, py + ly * d, W, H, maxX, maxY, rowStride))
            r = gather(Self.cell(px + rx * d, py + ry * d, W, H, maxX, maxY, rowStride))
        }

        // +1 turns toward the left sensor, −1 toward the right, 0 keeps straight.
        var dir = V(repeating: 0)
        dir.replace(with: 1, where: l .> r)
        dir.replace(with: -1, where: r .> l)
        let both = (c .< l) .& (c .< r)
        if any(both) {
            // Coin 0/1 → ±1 without integer masks or int→float conversion
            // (both compile to per-lane loops in Swift 6.3): bits 0x4B00000c
            // are the float 2²³ + c.
            let coin = unsafeBitCast(VU(repeating: 0x4B00_0000) | (hash(i, salt: 1) & 1), to: V.self) - 8_388_608
            dir.replace(with: 1 - 2 * coin, where: both)
        }
        dir.replace(with: 0, where: (c .> l) .& (c .> r))
        let sn = dir * species.turnSin
        let cs = V(repeating: species.turnCos).replacing(with: 1, where: dir .== 0)
        var nx = hx * cs - hy * sn, ny = hx * sn + hy * cs
        hx = nx; hy = ny

        if species.rhythm {
            var rc = V(), rs = V()
            for k in 0..<Self.lanes {
                let b = Int(sh.phase[i + min(k, valid - 1)]) &* 2
                rc[k] = rhythmRot[b]; rs[k] = rhythmRot[b + 1]
            }
            nx = hx * rc - hy * rs; ny = hx * rs + hy * rc
            hx = nx; hy = ny
        }
        if sh.chaos {
            let b = hash(i, salt: 2) &>> 24
            var rc = V(), rs = V()
            for k in 0..<Self.lanes {
                let j = Int(b[k]) &* 2
                rc[k] = chaosRot[j]; rs[k] = chaosRot[j + 1]
            }
            nx = hx * rc - hy * rs; ny = hx * rs + hy * rc
            hx = nx; hy = ny
        }

        let v = species.speed
        let mx = inner ? px + hx * v : Self.wrap(px + hx * v, W)
        let my = inner ? py + hy * v : Self.wrap(py + hy * v, H)
        Self.store(mx, sh.x, i, valid); Self.store(my, sh.y, i, valid)
        Self.store(hx, sh.hx, i, valid); Self.store(hy, sh.hy, i, valid)

        let dep = Self.pixel(my, maxY) &* rowStride &+ Self.pixel(mx, maxX)
        let cnt = counts
        let du = unsafeBitCast(dep, to: VU.self)
        for k in 0..<valid {
            let j = Int(truncatingIfNeeded: du[k])
            let old = cnt[j]
            cnt[j] = old &+ (old == UInt8.max ? 0 : 1)
        }
    }
}
