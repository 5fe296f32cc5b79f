import Testing
@testable import AudioReactive

/// The frame rule at the frame's start and at the post chain's late latch:
/// each latch takes every hop exactly once.
@Suite struct FrameLatchTests {
    static func hop(_ time: Double, transient: Float = 0) -> AudioFeatures {
        var f = AudioFeatures(time: time)
        f.sources[AudioSourceID.full.index].transient = transient
        f.onset = transient > 0
        return f
    }

    @Test func aHitDuringTheSimulationReachesThePictureNowAndTheTempoNextFrame() throws {
        var latch = FrameLatch()
        latch.add(Self.hop(0.010))
        let start1 = latch.takeStart(lateLatch: true)
        #expect(!start1.onset)
        latch.add(Self.hop(0.013, transient: 0.9))  // heard while the simulation steps
        let taken1 = latch.takeLate()
        let late1 = try #require(taken1)
        #expect(late1.onset && late1[.full].transient == 0.9 && late1.time == 0.013, "this frame's picture shows the hit")

        latch.add(Self.hop(0.016))
        let start2 = latch.takeStart(lateLatch: true)
        #expect(start2.onset && start2[.full].transient == 0.9, "the next frame's start (simulation, tempo, OSC) has it too")
        let taken2 = latch.takeLate()
        let late2 = try #require(taken2)
        #expect(!late2.onset && late2[.full].transient == 0, "the next picture does not show it again")
        #expect(late2.time == 0.016)
    }

    @Test func withoutALateLatchThePictureClosesAtTheStart() {
        var latch = FrameLatch()
        latch.add(Self.hop(0.010, transient: 0.8))
        #expect(latch.takeStart(lateLatch: false).onset)
        let none = latch.takeLate()
        #expect(none == nil, "a frame with a visual offset has no late latch")
        latch.add(Self.hop(0.013))
        _ = latch.takeStart(lateLatch: true)
        #expect(latch.pictureHops == 1)
        let late = latch.takeLate()
        #expect(late?.onset == false, "the hit was the earlier frame's")
        let again = latch.takeLate()
        #expect(again == nil, "one late latch per frame")
    }
}
