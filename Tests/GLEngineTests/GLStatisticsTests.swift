import Engine
import Foundation
import GLEngine
import Testing

/// Many steps on: the system is chaotic, so the GPU backend and the CPU
/// reference part ways agent by agent, yet every factory preset must look
/// the same — the same amount of trail per species with the same spread,
/// the same share of lit pixels and the same distribution of brightness.
/// (In GLParityTests' serialized suite: SDL and EGL set-up is not thread-safe.)
extension GLParityTests {
    static let statsSize = 192
    static let statsAgents = 16_384
    static let steps = 100

    /// What a viewer compares: per-species trail mean and variance, the share
    /// of lit pixels and the luma histogram (16 bins) of the rendered frame.
    struct Look {
        var mean: [Double] = []
        var variance: [Double] = []
        var lit = 0.0
        var histogram = [Double](repeating: 0, count: 16)

        init(trails: [[Float]], image: RGBAImage, background: RGBColor) {
            for t in trails {
                let m = t.reduce(0.0) { $0 + Double($1) } / Double(t.count)
                mean.append(m)
                variance.append(t.reduce(0.0) { $0 + (Double($1) - m) * (Double($1) - m) } / Double(t.count))
            }
            let n = image.width * image.height
            var litCount = 0
            for i in 0..<n {
                let r = Double(image.pixels[4 * i]), g = Double(image.pixels[4 * i + 1]), b = Double(image.pixels[4 * i + 2])
                let far = abs(r - Double(background.r)) + abs(g - Double(background.g)) + abs(b - Double(background.b))
                if far > 24 { litCount += 1 }
                let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
                histogram[min(15, Int(luma / 16))] += 1 / Double(n)
            }
            lit = Double(litCount) / Double(n)
        }
    }

    /// Relative difference, with a floor so near-empty species compare absolutely.
    static func rel(_ a: Double, _ b: Double, floor: Double) -> Double { abs(a - b) / max(abs(a), abs(b), floor) }

    static let presets = PresetCatalog.factory().presets

    /// The stated bounds (docs/gpu-backend.md): relative mean and variance
    /// per species, absolute lit share, L1 distance of the luma histograms.
    static let bounds = (mean: 0.05, variance: 0.35, lit: 0.05, histogram: 0.35)

    static let presetIDs: [String] = presets.map { $0.id }

    @Test(arguments: presetIDs)
    func presetLooksTheSameOnTheGPU(_ id: String) throws {
        let ctx = try GLTestContext()
        _ = ctx
        var p = try #require(Self.presets.first { $0.id == id }).params
        p[.agents] = Double(Self.statsAgents)
        let n = Self.statsSize
        let cpu = CPUBackend(field: (n, n), output: (n, n), params: p, seed: 3, threads: 2)
        let gpu = try GLBackend(field: (n, n), output: (n, n), params: p, seed: 3)
        cpu.step(p, count: Self.steps)
        gpu.step(p, count: Self.steps)
        var a = RGBAImage(width: n, height: n), b = RGBAImage(width: n, height: n)
        _ = cpu.render(params: p, brightness: 1, into: &a)
        _ = gpu.render(params: p, brightness: 1, into: &b)
        gpu.readPicture(into: &b)
        let x = Look(trails: (0..<3).map { cpu.simulation.trail(species: $0) }, image: a, background: p.background)
        let y = Look(trails: (0..<3).map { gpu.trail(species: $0) }, image: b, background: p.background)
        let floor = 0.02 * Double(p[.trailCap])
        let meanDiff = (0..<3).map { Self.rel(x.mean[$0], y.mean[$0], floor: floor) }.max()!
        let varDiff = (0..<3).map { Self.rel(x.variance[$0], y.variance[$0], floor: floor * floor) }.max()!
        let histDiff = zip(x.histogram, y.histogram).map { abs($0 - $1) }.reduce(0, +)
        let litDiff = abs(x.lit - y.lit)
        print("parity \(id): mean \(meanDiff) variance \(varDiff) lit \(x.lit) vs \(y.lit) histogramL1 \(histDiff)")
        #expect(x.mean.reduce(0, +) > 0, "the CPU reference lays trails")
        #expect(meanDiff <= Self.bounds.mean, "\(id): a species' mean trail differs by \(meanDiff) (relative)")
        #expect(varDiff <= Self.bounds.variance, "\(id): a species' trail variance differs by \(varDiff) (relative)")
        #expect(litDiff <= Self.bounds.lit, "\(id): lit share \(x.lit) on the CPU, \(y.lit) on the GPU")
        #expect(histDiff <= Self.bounds.histogram, "\(id): brightness histograms differ by \(histDiff) (L1)")
    }
}
