import Foundation
import Testing
@testable import Engine

/// Each effect does what its help text promises, on hand-made fields.
@Suite struct RenderEffectTests {
    static let w = 160, h = 96

    /// Renders `f` at the suite's size.
    static func draw(_ f: SyntheticField, _ p: PresetParams) -> RGBAImage {
        f.render(Renderer(width: w, height: h, threads: 2), p)
    }

    /// Discs of species `a` and `b` at `value`, overlapping in the middle (centres x 50 and 80, radius 20).
    static func overlappingDiscs(_ a: Int, _ b: Int, value: Float) -> SyntheticField {
        var f = SyntheticField(width: w, height: h)
        f.disc(species: a, cx: 50, cy: 48, r: 20, value: value)
        f.disc(species: b, cx: 80, cy: 48, r: 20, value: value)
        return f
    }

    @Test func saturationZeroMakesEveryPixelGrey() {
        let f = SyntheticField.pattern(width: Self.w, height: Self.h)
        var p = allEffectsParams()
        p[.saturation] = 0
        let img = Self.draw(f, p)
        var coloured = 0
        for y in 0..<img.height {
            for x in 0..<img.width {
                let c = img.pixel(x: x, y: y)
                if c.r != c.g || c.g != c.b { coloured += 1 }
            }
        }
        #expect(coloured == 0, "\(coloured) pixels are not grey")
        // The same picture at saturation 1 is colourful (the test can fail),
        // and more vivid still at 2.
        func chroma(_ img: RGBAImage) -> Double {
            var sum = 0.0
            for y in 0..<img.height {
                for x in 0..<img.width {
                    let c = img.pixel(x: x, y: y)
                    sum += Double(max(c.r, c.g, c.b) - min(c.r, c.g, c.b))
                }
            }
            return sum / Double(img.width * img.height)
        }
        var q = neutralParams()
        let neutral = Self.draw(f, q)
        q[.saturation] = 2
        let vivid = Self.draw(f, q)
        #expect(chroma(neutral) > 10)
        #expect(chroma(vivid) > chroma(neutral) * 1.2, "saturation 2: \(chroma(vivid)) vs 1: \(chroma(neutral))")
    }

    @Test(arguments: [BlendMode.additive, .paint])
    func neutralEffectsGiveThePlainComposite(mode: BlendMode) {
        var f = SyntheticField.pattern(width: Self.w, height: Self.h)
        f.agents[0] = [(10.5, 10.5), (50.2, 40.7)]
        var base = PresetParams()
        base.blendMode = mode
        base.background = mode == .paint ? RGBColor(r: 0xf2, g: 0xec, b: 0xe0) : RGBColor(r: 0x08, g: 0x06, b: 0x10)
        // A renderer that has already shown a different frame with feedback on.
        let r = Renderer(width: Self.w, height: Self.h, threads: 2)
        var other = base
        other[.feedback] = 0.9
        _ = SyntheticField.pattern(width: Self.w, height: Self.h).render(r, allEffectsParams(other))
        let neutral = f.render(r, neutralParams(base))
        let plain = f.render(Renderer(width: Self.w, height: Self.h, threads: 1), allEffectsParams(base), stages: .compositeOnly)
        #expect(neutral == plain)

        // And the plain composite is the documented maths, pixel by pixel (±1 for rounding).
        let s = RenderSettings(neutralParams(base))
        var worst = 0
        for y in 0..<Self.h {
            for x in 0..<Self.w {
                let i = y * Self.w + x
                let e = (0..<3).map { f.planes[$0][i] * s.trailGain }
                var out = SIMD3<Float>()
                if mode == .additive {
                    for c in 0..<3 {
                        let light = filmic(s.colors[0][c] * e[0] + s.colors[1][c] * e[1] + s.colors[2][c] * e[2])
                        out[c] = s.background[c] + light - s.background[c] * light
                    }
                } else {
                    let a = e.map { filmic($0) }
                    let t = (1 - a[0]) * (1 - a[1]) * (1 - a[2])
                    for c in 0..<3 {
                        var ink: Float = 1
                        for k in 0..<3 { ink *= 1 - a[k] * (1 - s.colors[k][c]) }
                        out[c] = s.background[c] * t + ink - t
                    }
                }
                let px = plain.pixel(x: x, y: y)
                let got = [px.r, px.g, px.b]
                for c in 0..<3 {
                    let want = Int((min(max(out[c], 0), 1) * 255).rounded())
                    worst = max(worst, abs(want - Int(got[c])))
                }
            }
        }
        #expect(worst <= 1, "composite differs from the reference by \(worst)")
    }

    /// Mean absolute channel difference between each pixel and its mirror
    /// image about the axis at `angle` (radians from up, clockwise).
    static func asymmetry(_ img: RGBAImage, axisAngle angle: Double) -> Double {
        let ax = sin(angle), ay = -cos(angle)
        var sum = 0.0, n = 0
        for y in 0..<img.height {
            for x in 0..<img.width {
                let dx = Double(x) + 0.5 - Double(img.width) / 2, dy = Double(y) + 0.5 - Double(img.height) / 2
                let dot = dx * ax + dy * ay
                let mx = 2 * dot * ax - dx, my = 2 * dot * ay - dy
                let qx = Int((mx + Double(img.width) / 2 - 0.5).rounded()), qy = Int((my + Double(img.height) / 2 - 0.5).rounded())
                guard qx >= 0, qy >= 0, qx < img.width, qy < img.height else { continue }
                let a = img.pixel(x: x, y: y), b = img.pixel(x: qx, y: qy)
                let dr = abs(Int(a.r) - Int(b.r)), dg = abs(Int(a.g) - Int(b.g)), db = abs(Int(a.b) - Int(b.b))
                sum += Double(dr + dg + db) / 3
                n += 1
            }
        }
        return sum / Double(max(n, 1))
    }

    @Test(arguments: 1...6)
    func kaleidoscopeIsMirrorSymmetricAboutItsAxes(axes: Int) {
        let f = SyntheticField.pattern(width: Self.w, height: Self.h)
        var p = neutralParams()
        let plain = Self.draw(f, p)
        p[.kaleidoscope] = Double(axes)
        let img = Self.draw(f, p)
        for m in 0..<axes {
            let angle = Double(m) * .pi / Double(axes)
            let mirrored = Self.asymmetry(img, axisAngle: angle)
            let original = Self.asymmetry(plain, axisAngle: angle)
            // Within rounding: neighbouring field pixels of this smooth pattern
            // differ by a few levels; the unmirrored picture is far from symmetric.
            #expect(mirrored < 3, "axes \(axes), axis \(m): mean asymmetry \(mirrored)")
            #expect(original > 4 * max(mirrored, 1), "axes \(axes), axis \(m): plain picture \(original) vs \(mirrored)")
        }
    }

    @Test func vignetteDarkensCornersNotCentre() {
        var f = SyntheticField(width: Self.w, height: Self.h)
        f.fill(species: 0) { _, _ in 10 }
        f.fill(species: 1) { _, _ in 10 }
        var p = neutralParams()
        let off = Self.draw(f, p)
        p[.vignette] = 1
        let on = Self.draw(f, p)
        let centreOff = off.meanLuma(x0: 70, y0: 40, x1: 90, y1: 56), centreOn = on.meanLuma(x0: 70, y0: 40, x1: 90, y1: 56)
        let cornersOn = [on.meanLuma(x0: 0, y0: 0, x1: 3, y1: 3), on.meanLuma(x0: Self.w - 3, y0: 0, x1: Self.w, y1: 3),
                         on.meanLuma(x0: 0, y0: Self.h - 3, x1: 3, y1: Self.h), on.meanLuma(x0: Self.w - 3, y0: Self.h - 3, x1: Self.w, y1: Self.h)]
        #expect(centreOff > 0.3)
        #expect(abs(centreOn - centreOff) < 0.01, "the centre keeps its brightness")
        for c in cornersOn { #expect(c < 0.15 * centreOn, "corner \(c) vs centre \(centreOn)") }
        #expect(abs(off.meanLuma(x0: 0, y0: 0, x1: 3, y1: 3) - centreOff) < 0.01, "vignette 0 leaves corners alone")
    }

    @Test func bloomBrightensAroundBrightPixelsAndLeavesDarkFramesDark() {
        var f = SyntheticField(width: Self.w, height: Self.h)
        f.disc(species: 0, cx: 80, cy: 48, r: 5, value: 400)
        f.disc(species: 2, cx: 80, cy: 48, r: 5, value: 400)
        var p = neutralParams()
        let off = Self.draw(f, p)
        p[.bloom] = 1
        p[.bloomThreshold] = 0.3
        let on = Self.draw(f, p)
        // A ring 8–14 px from the spot: dark without bloom, lit with it.
        var ringOff = 0.0, ringOn = 0.0, n = 0.0
        for y in 0..<Self.h {
            for x in 0..<Self.w {
                let ddx = Double(x) + 0.5 - 80, ddy = Double(y) + 0.5 - 48
                let d = (ddx * ddx + ddy * ddy).squareRoot()
                if d >= 8 && d <= 14 { ringOff += off.lumaAt(x, y); ringOn += on.lumaAt(x, y); n += 1 }
            }
        }
        #expect(ringOn / n > ringOff / n + 0.02, "ring luma \(ringOn / n) with bloom vs \(ringOff / n) without")
        #expect(on.meanLuma(x0: 0, y0: 0, x1: 20, y1: 20) == off.meanLuma(x0: 0, y0: 0, x1: 20, y1: 20), "far away stays as it was")
        // Nothing is brighter than threshold 1: no glow at all.
        p[.bloomThreshold] = 1
        #expect(Self.draw(f, p) == off)

        // An all-dark frame stays exactly the background, even at full bloom and threshold 0.
        let dark = SyntheticField(width: Self.w, height: Self.h)
        var q = neutralParams()
        q.background = RGBColor(r: 0x10, g: 0x08, b: 0x18)
        q[.bloom] = 2
        q[.bloomThreshold] = 0
        let img = Self.draw(dark, q)
        var bgOnly = RGBAImage(width: Self.w, height: Self.h)
        bgOnly.fill(q.background)
        #expect(img == bgOnly)
    }

    @Test func feedbackZeroIgnoresThePreviousFrame() {
        let a = SyntheticField.pattern(width: Self.w, height: Self.h)
        var b = SyntheticField(width: Self.w, height: Self.h)
        b.disc(species: 1, cx: 40, cy: 40, r: 12, value: 30)
        var p = neutralParams()
        p[.bloom] = 0.5
        let fresh = Self.draw(b, p)
        let r = Renderer(width: Self.w, height: Self.h, threads: 2)
        _ = a.render(r, p)
        #expect(b.render(r, p) == fresh, "feedback 0: the previous frame leaves no trace")

        // With feedback the previous frame shows through (the test can fail).
        p[.feedback] = 0.8
        let r2 = Renderer(width: Self.w, height: Self.h, threads: 2)
        _ = a.render(r2, p)
        let ghost = b.render(r2, p)
        #expect(ghost.meanLuma(x0: 100, y0: 50, x1: 160, y1: 96) > fresh.meanLuma(x0: 100, y0: 50, x1: 160, y1: 96) + 0.05)
    }

    @Test func additiveEmitsLightAndSaturatesOnBrightBackgrounds() {
        let f = Self.overlappingDiscs(0, 1, value: 15)
        var p = neutralParams()
        p.blendMode = .additive
        let img = Self.draw(f, p)
        let cyan = img.pixel(x: 40, y: 48), magenta = img.pixel(x: 92, y: 48)
        #expect(cyan.g > 150 && cyan.b > 150 && cyan.r < cyan.g, "species 0 glows in its colour: \(cyan)")
        #expect(magenta.r > 150 && magenta.r > magenta.g, "species 1 glows in its colour: \(magenta)")
        #expect(img.lumaAt(65, 48) > max(img.lumaAt(40, 48), img.lumaAt(92, 48)), "overlapping light adds up")
        #expect(img.lumaAt(150, 5) == 0, "the black background stays black")
        // On a white background additive light has nowhere to go.
        p.background = RGBColor(r: 255, g: 255, b: 255)
        let white = Self.draw(f, p)
        #expect(white.luma().allSatisfy { $0 >= 0.99 })
    }

    @Test func paintIsInkOnPaperOnAnyBackground() {
        let f = Self.overlappingDiscs(0, 2, value: 400)
        var p = neutralParams()
        p.blendMode = .paint
        p.background = RGBColor(r: 0xf4, g: 0xef, b: 0xe6)
        let img = Self.draw(f, p)
        let paper = img.pixel(x: 150, y: 5), cyanInk = img.pixel(x: 38, y: 48), amberInk = img.pixel(x: 92, y: 48)
        #expect(paper.r == 0xf4 && paper.g == 0xef && paper.b == 0xe6 && paper.a == 255, "untouched paper keeps its colour")
        let cyan = p.color(species: 0), amber = p.color(species: 2)
        #expect(abs(Int(cyanInk.r) - Int(cyan.r)) <= 12 && abs(Int(cyanInk.g) - Int(cyan.g)) <= 12, "dense ink shows its colour: \(cyanInk)")
        #expect(abs(Int(amberInk.r) - Int(amber.r)) <= 12 && abs(Int(amberInk.b) - Int(amber.b)) <= 12, "dense ink shows its colour: \(amberInk)")
        let mixed = img.pixel(x: 65, y: 48)
        #expect(img.lumaAt(65, 48) < min(img.lumaAt(38, 48), img.lumaAt(92, 48)), "overlapping inks darken")
        #expect(mixed.g > mixed.r && mixed.g > mixed.b, "cyan over amber mixes toward green like pigment: \(mixed)")
        // Paint needs no pale paper: on black the ink still shows.
        p.background = RGBColor(r: 0, g: 0, b: 0)
        let onBlack = Self.draw(f, p)
        #expect(onBlack.lumaAt(38, 48) > 0.3)
        #expect(onBlack.lumaAt(150, 5) == 0)
    }

    @Test func headGlowStampsAgentsOnlyWhenOn() {
        var f = SyntheticField(width: Self.w, height: Self.h)
        f.agents[0] = [(20.5, 30.5), (20.5, 30.5), (20.5, 30.5)]
        f.agents[1] = [(120.2, 60.9)]
        var p = neutralParams()
        let off = Self.draw(f, p)
        #expect(off.luma().allSatisfy { $0 == 0 }, "head glow 0: trails only (none here)")
        p[.headGlow] = 2
        let on = Self.draw(f, p)
        #expect(on.lumaAt(20, 30) > 0.3 && on.lumaAt(120, 60) > 0.1)
        #expect(on.lumaAt(20, 30) > on.lumaAt(120, 60), "three agents glow brighter than one")
        #expect(on.lumaAt(80, 10) == 0, "no agent, no glow")
    }

    @Test func contrastAndExposureDoWhatTheySay() {
        let f = SyntheticField.pattern(width: Self.w, height: Self.h)
        var p = neutralParams()
        p[.contrast] = 0
        let flat = Self.draw(f, p)
        #expect(Set(flat.luma()).count == 1, "contrast 0 is one flat grey")
        func spread(_ img: RGBAImage) -> Double {
            let l = img.luma().map(Double.init)
            let m = l.reduce(0, +) / Double(l.count)
            return (l.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(l.count)).squareRoot()
        }
        p[.contrast] = 1
        let normal = Self.draw(f, p)
        p[.contrast] = 2
        let punchy = Self.draw(f, p)
        #expect(spread(punchy) > spread(normal) * 1.3)
        p[.contrast] = 1
        p[.exposure] = 3
        let bright = Self.draw(f, p)
        #expect(bright.meanLuma > normal.meanLuma + 0.05)
    }
}
