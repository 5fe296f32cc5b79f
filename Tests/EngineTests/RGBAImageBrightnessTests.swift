import Engine
import Testing

/// The output fade: colour scaled with rounding, alpha kept, for whole SIMD
/// blocks and the pixels after them.
@Suite struct RGBAImageBrightnessTests {
    @Test(arguments: [0.0, 0.25, 0.5, 0.999])
    func scalesColourKeepsAlphaWithRounding(alpha: Double) {
        var img = RGBAImage(width: 1001, height: 1)  // 125 blocks of 8 pixels + 1 pixel
        for i in 0..<img.pixels.count { img.pixels[i] = UInt8(truncatingIfNeeded: i * 37 + 11) }
        let before = img
        img.scaleBrightness(alpha)
        let a = Int(alpha * 256)
        var wrong = 0
        for i in 0..<img.pixels.count {
            let want = i % 4 == 3 ? Int(before.pixels[i]) : (Int(before.pixels[i]) * a + 128) >> 8
            if Int(img.pixels[i]) != want { wrong += 1 }
        }
        #expect(wrong == 0)
        if alpha == 0 { #expect(img.pixel(x: 1000, y: 0).r == 0 && img.pixel(x: 3, y: 0).g == 0) }
    }

    @Test func fullBrightnessLeavesTheFrameAlone() {
        var img = RGBAImage(width: 3, height: 2)
        img.fill(RGBColor(r: 9, g: 99, b: 199))
        let before = img
        img.scaleBrightness(1)
        #expect(img == before)
        img.scaleBrightness(.nan)
        #expect(img == before)
        img.scaleBrightness(-3)
        #expect(img.pixel(x: 0, y: 0) == (0, 0, 0, 255))
    }
}
