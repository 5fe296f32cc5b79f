import Foundation
import Testing
@testable import AudioReactive

/// `OnsetFusion` stepped directly: which band onsets and level rises reach
/// the broadband onset (what a user sees as `onset` and the `full` transient).
@Suite struct OnsetFusionTests {
    static let hop = 128.0 / 48000
    static let tuning = OnsetTuning(settings: AudioTuning(), hopSeconds: hop)
    static let highMid = AudioSourceID.highMid.index, presence = AudioSourceID.presence.index

    /// Spectral flatness of the upper bands: room noise (e^−γ) and a tonal sound.
    static let noise: Float = 0.56, tonal: Float = 0.3

    /// Runs `hops` hops with every band at `bandDb` and the upper level at
    /// `upperDb` (± `wobble` dB, alternating) of the given `flatness`; returns
    /// the hops that triggered `full`.
    /// The broadband level is the upper one unless `broadDb` is given.
    static func steady(_ f: inout OnsetFusion, hops: Int, bandDb: Float, upperDb: Float, broadDb: Float? = nil,
                       wobble: Float = 0.2, flatness: Float = tonal, masked: Bool = false) -> [Int] {
        var fired: [Int] = []
        for i in 0..<hops {
            let w = i % 2 == 0 ? wobble : -wobble
            f.beginHop(bandDb: Array(repeating: bandDb + w, count: 8), upperPower: pow(10, (upperDb + w) / 10),
                       broadPower: pow(10, ((broadDb ?? upperDb) + w) / 10), upperFlatness: flatness, masked: masked)
            if f.fullTrigger(support: 0, gateOpen: true, dt: Float(hop), tuning: tuning) != nil { fired.append(i) }
        }
        return fired
    }

    /// One hop with the given band onsets (band, own strength) and broadband support.
    static func hit(_ f: inout OnsetFusion, bandDb: Float, upperDb: Float, onsets: [(Int, Float)], support: Float = 0,
                    masked: Bool = false) -> Float? {
        f.beginHop(bandDb: Array(repeating: bandDb, count: 8), upperPower: pow(10, upperDb / 10),
                   broadPower: pow(10, upperDb / 10), upperFlatness: tonal, masked: masked)
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

    /// Just after a hit (within its forward masking) a weak band onset backed
    /// by a second band is the hit's ring; a clear one is a new hit.
    @Test func aWeakOnsetJustAfterAHitIsItsRingAClearOneIsANewHit() {
        var f = Self.fresh()
        _ = Self.steady(&f, hops: 800, bandDb: -80, upperDb: -40)
        #expect(Self.hit(&f, bandDb: -30, upperDb: -40, onsets: [(Self.highMid, 0.05)], masked: true) == nil)
        #expect(Self.hit(&f, bandDb: -30, upperDb: -40, onsets: [(Self.presence, 0.05)], masked: true) == nil,
                "the second band does not bring back the first one's onset")
        #expect(Self.hit(&f, bandDb: -30, upperDb: -40, onsets: [(Self.presence, 0.3)], masked: true) != nil)
    }

    /// Music as loud as the room noise: a stab that triples the music raises
    /// the sum by 3 dB, under the level path's threshold (3.5 dB) on its own. Over a floor that is room noise (flat) the noise is
    /// taken away and the stab is heard; over a tonal floor (quiet music, a
    /// string's tail) the same rise is not taken for a hit.
    @Test func theLevelPathTakesRoomNoiseAwayButNotQuietMusic() {
        let noisePower: Float = 1e-4  // −40 dBFS
        func run(flatness: Float) -> (quiet: [Int], stab: [Int]) {
            var f = Self.fresh()
            // Six seconds of noise (the floor is learnt), then music as loud as the noise.
            _ = Self.steady(&f, hops: 2250, bandDb: -50, upperDb: -40, wobble: 0.3, flatness: flatness)
            let music = 10 * log10(noisePower * 2)
            let quiet = Self.steady(&f, hops: 750, bandDb: -50, upperDb: music, wobble: 0.3, flatness: flatness)
            let stab = Self.steady(&f, hops: 3, bandDb: -50, upperDb: 10 * log10(noisePower * 4), wobble: 0, flatness: flatness)
            return (quiet, stab)
        }
        let noisy = run(flatness: Self.noise), tonal = run(flatness: Self.tonal)
        #expect(!noisy.stab.isEmpty, "the stab over room noise is heard")
        #expect(tonal.stab.isEmpty, "the same 3 dB rise over a tonal floor is not a hit")
        #expect(noisy.quiet.count <= 1 && tonal.quiet.count <= 1, "steady music fires at most its entrance: \(noisy.quiet) \(tonal.quiet)")
    }

    /// A bass note heard mostly under the upper range (through a laptop
    /// microphone, 150–250 Hz): the broadband level rises 6 dB, the upper one
    /// 3 dB (its harmonics), under the upper path's threshold (3.5 dB) also
    /// with the noise taken away. Over room
    /// noise that is a hit; in clean sound, where a bass's beating moves the
    /// broadband level as much, it is not; nor, in noise, is a broadband rise
    /// with the upper level still (the noise's own swings in the few bass bins).
    @Test func aBassNoteUnderTheUpperRangeIsHeardThroughRoomNoiseOnly() {
        func run(flatness: Float, upperRise: Float) -> [Int] {
            var f = Self.fresh()
            _ = Self.steady(&f, hops: 2250, bandDb: -50, upperDb: -40, broadDb: -38, wobble: 0.3, flatness: flatness)
            return Self.steady(&f, hops: 3, bandDb: -50, upperDb: -40 + upperRise, broadDb: -32, wobble: 0, flatness: flatness)
        }
        #expect(!run(flatness: Self.noise, upperRise: 3).isEmpty, "the bass note in a room is heard")
        #expect(run(flatness: Self.tonal, upperRise: 3).isEmpty, "the same rises in clean sound are not a hit")
        #expect(run(flatness: Self.noise, upperRise: 0).isEmpty, "a broadband rise alone is not a hit")
    }
}
