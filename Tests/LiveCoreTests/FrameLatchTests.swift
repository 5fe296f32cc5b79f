import AudioReactive
import Engine
import Testing
@testable import LiveCore

/// The post chain's late latch: a hit that arrives while the simulation
/// steps still reaches the frame's picture; the simulation keeps the
/// features of the frame's start.
@Suite struct FrameLatchTests {
    static let size = (width: 64, height: 36)

    static func pipeline() -> (FramePipeline, PresetParams) {
        var base = PresetParams()
        base[.agents] = 2_000
        base[.exposure] = 1
        let p = FramePipeline(field: size, output: size, params: base, seed: 3, threads: 2)
        p.modulator.routes = [
            Route(source: .full, target: .parameter(.exposure), mode: .transient, depth: 1),
            Route(source: .full, target: .allSpecies(.moveSpeed), mode: .transient, depth: 1),
        ]
        p.warmUp(steps: 30, params: base)
        return (p, base)
    }

    static func hit(at time: Double) -> AudioFeatures {
        var f = AudioFeatures(time: time)
        f.sources[AudioSourceID.full.index].transient = 1
        f.onset = true
        return f
    }

    static func brightness(_ img: RGBAImage) -> Int { img.pixels.reduce(0) { $0 + Int($1 & 0xFF) + Int(($1 >> 8) & 0xFF) } }

    @Test func aHitAtTheLateLatchMovesThePostChainOnly() {
        let (late, base) = Self.pipeline()
        let (plain, _) = Self.pipeline()
        let quiet = FramePipeline.Input(base: base, features: AudioFeatures(time: 1))
        late.lateFeatures = { Self.hit(at: 1.005) }

        let simLate = late.simulate(quiet)
        late.render(quiet, params: simLate)
        plain.render(quiet, params: plain.simulate(quiet))

        #expect(late.effective[.exposure] > base[.exposure] + 0.1, "exposure \(late.effective[.exposure])")
        #expect(late.effective[.species(0, .moveSpeed)] == base[.species(0, .moveSpeed)], "the simulation latched at the frame start")
        #expect(Self.brightness(late.image) > Self.brightness(plain.image), "the hit brightens this frame's picture")
    }

    @Test func nothingNewAtTheLateLatchLeavesTheFrameAsItWas() {
        let (late, base) = Self.pipeline()
        let (plain, _) = Self.pipeline()
        let input = FramePipeline.Input(base: base, features: Self.hit(at: 1))
        late.lateFeatures = { nil }
        late.render(input, params: late.simulate(input))
        plain.render(input, params: plain.simulate(input))
        #expect(late.image.pixels == plain.image.pixels)
        #expect(late.effective == plain.effective)
    }

    /// The hit reaction's preview: the picture on screen would brighten by the
    /// hit's exposure, and asking changes nothing of the frames that follow.
    @Test func aReactionPreviewsTheHitAndLeavesTheFramesAsTheyWere() {
        let (asked, base) = Self.pipeline()
        let (plain, _) = Self.pipeline()
        for p in [asked, plain] {
            // A smoothed route: its state must not move when the reaction is asked.
            p.modulator.routes.append(Route(source: .full, target: .parameter(.bloom), mode: .level, depth: 0.5, smoothing: 80))
        }
        var loud = AudioFeatures(time: 1)
        loud.sources[AudioSourceID.full.index].level = 0.8
        let first = FramePipeline.Input(base: base, features: loud)
        for p in [asked, plain] { p.render(first, params: p.simulate(first)) }

        #expect(asked.reactionCurve(features: AudioFeatures(time: 1.01)) == nil, "no hit, no reaction")
        let curve = asked.reactionCurve(features: Self.hit(at: 1.01))
        #expect((curve?.gain ?? 0) > 1.5, "the hit's exposure route raises the shown picture's exposure: \(String(describing: curve))")

        let next = FramePipeline.Input(base: base, features: Self.hit(at: 1.02))
        for p in [asked, plain] { p.render(next, params: p.simulate(next)) }
        #expect(asked.effective == plain.effective)
        #expect(asked.image.pixels == plain.image.pixels)
    }

    /// Work done between the step's chunks (the hit reaction's present, other
    /// workers held) leaves the simulation exactly as it would be.
    @Test func workBetweenTheStepsChunksLeavesTheFramesAsTheyWere() {
        let (hooked, base) = Self.pipeline()
        let (plain, _) = Self.pipeline()
        var calls = 0, worked = 0
        hooked.backend.setStepHook {
            calls += 1
            guard calls % 3 == 0 else { return nil }
            return { worked += 1 }
        }
        for t in 0..<5 {
            let input = FramePipeline.Input(base: base, features: Self.hit(at: Double(t) * 0.02))
            for p in [hooked, plain] { p.render(input, params: p.simulate(input)) }
        }
        #expect(calls > 0 && worked > 0, "the hook ran between chunks (\(calls) calls, \(worked) with work)")
        #expect(hooked.image.pixels == plain.image.pixels)
    }
}
