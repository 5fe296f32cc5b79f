import Foundation
import Testing
@testable import AudioReactive

/// `OnsetFusion` stepped directly: which band onsets and level rises reach
/// the broadband onset (what a user sees as `onset` and the `full` transient).
@Suite struct OnsetFusionTests {
    static let hop = 128.0 / 48000
    static let tuning = OnsetTuning(settings: AudioTuning(), hopSeconds: hop)
    static let highMid = AudioSourceID.highMid.index, presence = AudioSourceID.presence.index

    /// Runs `hops` hops with every band at `bandDb` and the upper level at
    /// `upperDb` (± `wobble` dB, alternating); returns the hops that triggered `full`.
    static func steady(_ f: inout OnsetFusion, hops: Int, bandDb: Float, upperDb: Float, wobble: Float = 0.2) -> [Int] {
        var fired: [Int] = []
        for i in 0..<hops {
            let w = i % 2 == 0 ? wobble : -wobble
            f.beginHop(bandDb: Array(repeating: bandDb + w, count: 8), upperPower: pow(10, (upperDb + w) / 10))
            if f.fullTrigger(support: 0, gateOpen: true, dt: Float(hop), tuning: tuning) != nil { fired.append(i) }
        }
        return fired
    }

    /// One hop with the given band onsets (band, own strength) and broadband support.
    static func hit(_ f: inout OnsetFusion, bandDb: Float, upperDb: Float, onsets: [(Int, Float)], support: Float = 0) -> Float? {
        f.beginHop(bandDb: Array(repeating: bandDb, count: 8), upperPower: pow(10, upperDb / 10))
        for (s, strength) in onsets { f.bandOnset(s, strength: strength, transient: max(strength, 0.05), db: bandDb) }
        return f.fullTrigger(support: support, gateOpen: true, dt: Float(hop), tuning: tuning)
    }

    static func fresh() -> OnsetFusion {
        OnsetFusion(hopSeconds: hop, thresholdHops: Int((0.75 / hop).rounded()))
    }

    @Test func aClearBandOnsetFiresAtOnce() {
        var f = Self.fresh()
        _ = Self.steady(&f, hops: 800, bandDb: -80, upperDb: -40)
        #expect(Self.hit(&f, bandDb: -30, upperDb: -40, onsets: [(Self.highMid, 0.3)]) != nil)
    }

    /// A clean band (far over its floor) barely crossing its threshold, with
    /// nothing else moving: the ring of an earlier hit, not a new one.
    @Test func aWeakLoneOnsetInACleanBandDoesNotFire() {
        var f = Self.fresh()
        _ = Self.steady(&f, hops: 800, bandDb: -80, upperDb: -40)
        var fired = Self.hit(&f, bandDb: -30, upperDb: -40, onsets: [(Self.highMid, 0.05)]) != nil
        for _ in 0..<3 { fired = fired || Self.hit(&f, bandDb: -30, upperDb: -40, onsets: []) != nil }
        #expect(!fired)
    }

    @Test func aWeakOnsetBackedByASecondBandOrTheBroadbandFluxFires() {
        var f = Self.fresh()
        _ = Self.steady(&f, hops: 800, bandDb: -80, upperDb: -40)
        #expect(Self.hit(&f, bandDb: -30, upperDb: -40, onsets: [(Self.highMid, 0.05)]) == nil)
        #expect(Self.hit(&f, bandDb: -30, upperDb: -40, onsets: [(Self.presence, 0.05)]) != nil, "second band one hop later")
        var g = Self.fresh()
        _ = Self.steady(&g, hops: 800, bandDb: -80, upperDb: -40)
        #expect(Self.hit(&g, bandDb: -30, upperDb: -40, onsets: [(Self.highMid, 0.05)], support: 0.5) != nil)
    }

    /// A band filled with room noise: a real soft hit only just crosses there.
    @Test func aWeakOnsetInANoiseFilledBandFires() {
        var f = Self.fresh()
        _ = Self.steady(&f, hops: 800, bandDb: -50, upperDb: -40, wobble: 1)
        #expect(Self.hit(&f, bandDb: -45, upperDb: -40, onsets: [(Self.highMid, 0.05)]) != nil)
    }

    /// The summed upper level over steady noise: a sharp 5 dB rise is a hit;
    /// the same rise as a half-second swell is not.
    @Test func theLevelPathHearsASharpRiseNotASwell() {
        var f = Self.fresh()
        _ = Self.steady(&f, hops: 800, bandDb: -60, upperDb: -40)
        #expect(!Self.steady(&f, hops: 3, bandDb: -60, upperDb: -35, wobble: 0).isEmpty)
        var g = Self.fresh()
        _ = Self.steady(&g, hops: 800, bandDb: -60, upperDb: -40)
        var swell: [Int] = []
        for i in 0..<190 {
            swell += Self.steady(&g, hops: 1, bandDb: -60, upperDb: -40 + 5 * Float(i) / 190, wobble: 0)
        }
        #expect(swell.isEmpty)
    }
}
