import Foundation

/// Turns the simulation's trail field into the picture: species colours and
/// blend mode, exposure, filmic tone map, head glow, feedback, kaleidoscope,
/// bloom, vignette, saturation and contrast, packed to RGBA8 at the
/// renderer's output size.
///
/// The field is scaled to the output by **cover**: uniformly, centred, the
/// overhanging part of the field cropped (see `CoverMapping`); a field with
/// the output's aspect ratio is shown whole.
///
/// Deterministic: the same field, agents, parameters and previous frames give
/// the same bytes for any thread count (fixed chunks, per-pixel arithmetic,
/// integer head counts).
///
/// Thread safety: not thread-safe; one owner thread calls `render`. Work
/// inside a frame runs on the renderer's own worker threads.
public final class Renderer: @unchecked Sendable {
    /// Output width in pixels.
    public let width: Int
    /// Output height in pixels.
    public let height: Int
    /// Worker threads (the calling thread included).
    public var threads: Int { pool.threads }
    /// Time per pass of the last frame.
    public private(set) var timings = RenderTimings()

    /// Trail value → light before exposure: a trail of 1/trailScale shows at
    /// exposure 1 as a mid-bright colour.
    static let trailScale: Float = 0.05
    /// Agents on a pixel → light, per unit of head glow, before exposure.
    static let glowScale: Float = 0.35

    let pool: WorkerPool
    /// Row stride of the full-size planes (width rounded up to 8).
    let stride: Int
    /// The composite after feedback (display values, before bloom and
    /// grading), kept as the next frame's "previous frame" — so feedback never
    /// compounds the vignette or the colour grading.
    let history: [AlignedBuffer<Float>]
    var historyValid = false
    let bloom: BloomPyramid
    /// Per worker: scratch rows (3 sample rows + 3 bloom rows + 1 packed row
    /// of `stride`, then 3 resample rows of the field width).
    var scratch: [AlignedBuffer<Float>] = []
    var scratchFieldWidth = -1
    /// u²/2 per column for the vignette (u = −1…1 across the width).
    let vignetteX: AlignedBuffer<Float>
    var glow: HeadGlowPlanes?
    /// Kaleidoscope maps built so far, by [axes, field width, field height]
    /// (a map costs tens of milliseconds to build, so switching between looks
    /// must not rebuild it every time; at most 6 per field size).
    var kaleidoscopeMaps: [[Int]: KaleidoscopeSampling] = [:]
    /// The kaleidoscope's colour field (shared by the maps; grown on demand).
    var kaleidoscopeColour = AlignedBuffer<Float>(count: 0)
    var tapsCache: (key: [Int], x: AxisTaps, y: AxisTaps)?

    /// Output rows per chunk of the full-size passes (a multiple of the bloom factor).
    static let rowsPerChunk = 16

    /// Creates a renderer for `width × height` output (each side 16…8192).
    public init(width: Int, height: Int, threads: Int = Simulation.defaultThreads) {
        precondition((16...8192).contains(width) && (16...8192).contains(height), "output size out of range")
        precondition((1...64).contains(threads), "threads out of range")
        self.width = width
        self.height = height
        let s = (width + 7) / 8 * 8
        stride = s
        pool = WorkerPool(threads: threads)
        history = (0..<3).map { _ in AlignedBuffer(count: (width + 7) / 8 * 8 * height) }
        bloom = BloomPyramid(outWidth: width, outHeight: height, outStride: s)
        vignetteX = AlignedBuffer(count: (width + 7) / 8 * 8)
        for x in 0..<s {
            let u = (Float(x) + 0.5 - Float(width) / 2) / (Float(width) / 2)
            vignetteX[x] = u * u / 2
        }
    }

    /// Forgets the previous frame: the next frame's feedback starts afresh.
    public func resetHistory() { historyValid = false }

    /// Renders the simulation's current field and agents with `params` into
    /// `image` (resized to the renderer's size if it differs).
    public func render(sim: Simulation, params: PresetParams, into image: inout RGBAImage) {
        render(sim: sim, params: params, stages: .all, into: &image)
    }

    /// Renders into a new image.
    public func render(sim: Simulation, params: PresetParams) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        render(sim: sim, params: params, into: &image)
        return image
    }

    /// `render` with some effects forced off (tests, bench).
    func render(sim: Simulation, params: PresetParams, stages: RenderStages, into image: inout RGBAImage) {
        let agents = sim.agents
        // Once head glow has been on, the simulation's steps record the head
        // counts as they merge the deposits (it stays on: modulation flicks
        // the glow on and off, and the beat's frame must not pay for a
        // stamp); until a step has, the agents are stamped. The two agree
        // except for agents on an exact pixel boundary, which the deposit
        // rounding may put one pixel lower.
        let glowOn = stages.apply(RenderSettings(params)).glowOn
        if glowOn { sim.recordsHeads = true }
        sim.withTrails { planes in
            let view = FieldView(width: sim.width, height: sim.height,
                                 trails: planes.map { UnsafePointer($0.baseAddress!) },
                                 agentX: UnsafePointer(agents.x.base), agentY: UnsafePointer(agents.y.base),
                                 ranges: agents.ranges, heads: glowOn ? sim.heads : nil)
            render(field: view, params: params, stages: stages, into: &image)
        }
    }

    /// The whole chain on a field view.
    func render(field: FieldView, params: PresetParams, stages: RenderStages = .all, into image: inout RGBAImage) {
        if image.width != width || image.height != height { image = RGBAImage(width: width, height: height) }
        let clock = ContinuousClock()
        let start = clock.now
        var t = RenderTimings()
        var s = stages.apply(RenderSettings(params))
        if !historyValid { s.feedback = 0 }
        let mapping = CoverMapping(outWidth: width, outHeight: height, fieldWidth: field.width, fieldHeight: field.height)

        var mark = clock.now
        func lap() -> Double {
            let now = clock.now
            let d = now - mark
            mark = now
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }

        ensureScratch(fieldWidth: field.width)
        var glowPlanes: UnsafeMutablePointer<UInt32>?
        if s.glowOn, let heads = field.heads {
            glowPlanes = UnsafeMutablePointer(mutating: heads)
        } else if s.glowOn && field.agentX != nil {
            if glow == nil || glow!.width != field.width || glow!.height != field.height {
                glow = HeadGlowPlanes(width: field.width, height: field.height, workers: pool.threads, species: field.trails.count)
            }
            glow!.stamp(field, pool: pool)
            glowPlanes = glow!.packed.base
        } else {
            s.glowGain = 0
        }
        t.headGlow = lap()

        let sampler = makeSampler(field: field, mapping: mapping, settings: s)
        t.maps = lap()

        composite(field: field, sampler: sampler, glow: glowPlanes, settings: s)
        historyValid = true
        t.composite = lap()

        if s.bloomOn {
            bloom.process(pool: pool)
        }
        t.bloom = lap()

        image.pixels.withUnsafeMutableBytes { raw in
            finish(settings: s, into: raw.baseAddress!.assumingMemoryBound(to: UInt32.self))
        }
        t.finish = lap()
        let total = clock.now - start
        t.total = Double(total.components.seconds) + Double(total.components.attoseconds) * 1e-18
        timings = t
    }

    /// Makes sure each worker has scratch rows for a field of this width.
    func ensureScratch(fieldWidth: Int) {
        guard scratchFieldWidth != fieldWidth || scratch.count != pool.threads else { return }
        let fw = max((fieldWidth + 7) / 8 * 8, stride)
        scratch = (0..<pool.threads).map { _ in AlignedBuffer(count: 7 * stride + 3 * fw + 64) }
        scratchFieldWidth = fieldWidth
    }

    /// How the composite pass reads the field for this frame.
    enum Sampler {
        /// Output pixel (x, y) is field pixel (x, y), rows read in place.
        case identity
        /// Each output pixel shows one field pixel (kaleidoscope).
        case map(KaleidoscopeSampling)
        /// Separable resampling (cover scaling).
        case resample(AxisTaps, AxisTaps)
    }

    func makeSampler(field: FieldView, mapping: CoverMapping, settings s: RenderSettings) -> Sampler {
        if s.kaleidoscope > 0 {
            let key = [s.kaleidoscope, field.width, field.height]
            if let map = kaleidoscopeMaps[key] { return .map(map) }
            // Keep only maps for the current field size.
            kaleidoscopeMaps = kaleidoscopeMaps.filter { $0.key[1] == field.width && $0.key[2] == field.height }
            let map = KaleidoscopeSampling(axes: s.kaleidoscope, mapping: mapping, pool: pool)
            kaleidoscopeMaps[key] = map
            return .map(map)
        }
        if mapping.isIdentity && width % 8 == 0 { return .identity }
        let key = [field.width, field.height]
        if tapsCache?.key != key {
            tapsCache = (key, AxisTaps(outCount: width, fieldCount: field.width, scale: mapping.scale),
                         AxisTaps(outCount: height, fieldCount: field.height, scale: mapping.scale))
        }
        return .resample(tapsCache!.x, tapsCache!.y)
    }
}
