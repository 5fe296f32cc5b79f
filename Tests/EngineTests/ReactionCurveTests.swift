import Foundation
import Testing
@testable import Engine

/// The hit reaction's curve shows, on the picture already on screen, what
/// the renderer shows with the hit's exposure.
@Suite struct ReactionCurveTests {
    static let w = 160, h = 96

    /// Mean absolute difference per channel, in 0…255 levels.
    static func meanDifference(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        var sum = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            for c in 0..<3 { sum += abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c])) }
        }
        return Double(sum) / Double(a.width * a.height * 3)
    }

    /// Renders the pattern with `p`, then with `p` at `gain` × its exposure;
    /// returns (shown, rendered with the hit, shown through the curve).
    static func pictures(_ p: PresetParams, gain: Double, brightness: Double = 1) -> (RGBAImage, RGBAImage, RGBAImage) {
        let f = SyntheticField.pattern(width: w, height: h)
        var q = p
        q[.exposure] = p[.exposure] * gain
        var shown = f.render(Renderer(width: w, height: h, threads: 2), p)
        var hit = f.render(Renderer(width: w, height: h, threads: 2), q)
        shown.scaleBrightness(brightness)
        hit.scaleBrightness(brightness)
        var reacted = shown
        ReactionCurve(from: p, to: q, brightness: brightness)!.apply(to: &reacted)
        return (shown, hit, reacted)
    }

    @Test(arguments: [1.3, 2.0, 3.5])
    func additiveWithoutEffectsMatchesTheRenderedHit(gain: Double) {
        var p = neutralParams()
        p[.exposure] = 0.7
        p.background = RGBColor(r: 20, g: 10, b: 40)
        let (shown, hit, reacted) = Self.pictures(p, gain: gain)
        let before = Self.meanDifference(shown, hit), after = Self.meanDifference(reacted, hit)
        #expect(before > 8, "the hit changes the picture visibly (\(before) levels)")
        #expect(after < 1.0, "through the curve the shown picture is the rendered hit within a level (\(after) against \(before))")
    }

    @Test func dimmedOutputAndEveryEffectStayClose() {
        // Fades (brightness), bloom, vignette, grading: the curve is no longer
        // exact, but it takes the picture a good part of the way to the rendered hit.
        var p = allEffectsParams()
        p[.kaleidoscope] = 0
        p[.feedback] = 0
        let (shown, hit, reacted) = Self.pictures(p, gain: 2, brightness: 0.6)
        let before = Self.meanDifference(shown, hit), after = Self.meanDifference(reacted, hit)
        #expect(after < before * 0.6, "\(after) against \(before) levels")
    }

    @Test func paintPresetsDarkenTowardTheRenderedHit() {
        var p = neutralParams()
        p.blendMode = .paint
        p.background = RGBColor(r: 240, g: 232, b: 220)
        p[.exposure] = 0.5
        let (shown, hit, reacted) = Self.pictures(p, gain: 2)
        #expect(hit.meanLuma < shown.meanLuma, "more exposure lays down more ink")
        let before = Self.meanDifference(shown, hit), after = Self.meanDifference(reacted, hit)
        #expect(after < before * 0.6, "\(after) against \(before) levels")
    }

    @Test func onlyARiseOfTwoPercentOrMoreReacts() {
        let p = neutralParams()
        var q = p
        q[.exposure] = p[.exposure] * 1.01
        #expect(ReactionCurve(from: p, to: q, brightness: 1) == nil)
        q[.exposure] = p[.exposure] * 0.7
        #expect(ReactionCurve(from: p, to: q, brightness: 1) == nil, "a falling exposure is not a hit")
        q[.exposure] = p[.exposure] * 1.5
        #expect(ReactionCurve(from: p, to: q, brightness: 0) == nil, "a blacked-out output shows nothing")
        #expect(ReactionCurve(from: p, to: q, brightness: 1)?.gain == 1.5)
    }

    @Test func inverseFilmicUndoesTheToneMap() {
        for x in stride(from: Float(0.01), through: 20, by: 0.37) {
            let y = filmic(x)
            guard y < 0.999 else { continue }
            #expect(abs(filmic(ReactionCurve.inverseFilmic(y)) - y) < 1e-4, "x \(x)")
        }
    }
}
