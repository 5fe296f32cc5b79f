import Testing
@testable import Engine

/// Output size, aspect ratio policy (cover) and determinism of the renderer.
@Suite struct RenderGeometryTests {
    /// A field with a vertical stripe of species `s` at column `x`.
    static func stripes(width: Int, height: Int, _ marks: [(species: Int, x: Int)]) -> SyntheticField {
        var f = SyntheticField(width: width, height: height)
        for m in marks { f.fill(species: m.species) { x, _ in abs(x - m.x) <= 1 ? 40 : 0 } }
        return f
    }

    @Test func wideFieldIsCroppedToCoverASquareOutput() {
        // Field 200×100 → output 100×100: the central 100 columns, unscaled.
        let f = Self.stripes(width: 200, height: 100, [(0, 20), (1, 100), (2, 160)])
        let img = f.render(Renderer(width: 100, height: 100, threads: 2), neutralParams())
        let centre = img.pixel(x: 50, y: 50)
        #expect(centre.r > 150 && centre.r > centre.g, "species 1 (magenta) at the centre: \(centre)")
        // Species 0 (column 20) and 2 (column 160) lie outside the crop.
        var cyanOrAmber = 0
        for y in 0..<100 { for x in 0..<100 where abs(x - 50) > 3 && img.lumaAt(x, y) > 0.05 { cyanOrAmber += 1 } }
        #expect(cyanOrAmber == 0)
    }

    @Test func smallFieldIsScaledUpWithoutDistortion() {
        // Field 80×48 → output 160×96 (×2): a stripe at field column 40 lands at 80.
        let f = Self.stripes(width: 80, height: 48, [(1, 40)])
        let img = f.render(Renderer(width: 160, height: 96, threads: 2), neutralParams())
        var brightest = 0, best = -1.0
        for x in 0..<160 where img.lumaAt(x, 48) > best { best = img.lumaAt(x, 48); brightest = x }
        #expect(abs(brightest - 81) <= 2, "stripe at output column \(brightest)")
        #expect(img.lumaAt(brightest, 0) > 0.2 && img.lumaAt(brightest, 95) > 0.2, "full height shown")
    }

    @Test(arguments: [(150, 90), (101, 37), (16, 16), (333, 200)])
    func oddOutputSizesRenderEveryPixel(size: (Int, Int)) {
        let f = SyntheticField.pattern(width: 160, height: 96)
        let img = f.render(Renderer(width: size.0, height: size.1, threads: 2), allEffectsParams())
        #expect(img.width == size.0 && img.height == size.1)
        // Every pixel written (alpha 255) and the picture is not blank.
        #expect(stride(from: 3, to: img.pixels.count, by: 4).allSatisfy { img.pixels[$0] == 255 })
        #expect(img.meanLuma > 0.05)
    }

    @Test func outputIsIdenticalForAnyThreadCount() {
        var p = allEffectsParams()
        p[.agents] = 4_000
        var frames: [[RGBAImage]] = []
        for threads in [1, 2, 3] {
            let sim = Simulation(width: 160, height: 96, params: p, seed: 7, threads: threads)
            let r = Renderer(width: 200, height: 120, threads: threads)
            var out: [RGBAImage] = []
            for _ in 0..<4 {
                sim.step(p, count: 5)
                out.append(r.render(sim: sim, params: p))
            }
            frames.append(out)
        }
        #expect(frames[1] == frames[0])
        #expect(frames[2] == frames[0])
        #expect(frames[0][3] != frames[0][0], "the frames change as the simulation runs")
    }

    @Test func everyPassIsTimed() {
        var p = allEffectsParams()
        p[.agents] = 10_000
        let sim = Simulation(width: 160, height: 96, params: p, seed: 1, threads: 2)
        let r = Renderer(width: 160, height: 96, threads: 2)
        _ = r.render(sim: sim, params: p)
        let t = r.timings
        #expect(t.composite > 0 && t.bloom > 0 && t.finish > 0 && t.headGlow > 0)
        #expect(t.total >= t.composite + t.bloom + t.finish)
    }
}
