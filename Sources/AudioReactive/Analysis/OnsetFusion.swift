import Foundation

/// How onsets heard in single bands, and rises of the summed upper and
/// broadband levels, reach the broadband (`full`) onset. Pure state machine, one step per
/// hop; allocates only in `init`. (`lowMid` onsets backed by a neighbour are
/// handled by the analyzer; `sub` and `bass` alone never fire `full`.)
///
/// - **Clear band onsets.** An onset in `mid` … `brilliance` whose own
///   strength is at least `clearStrength` fires `full` at once (a hat, a
///   ghost note: a hit confined to a few bands barely moves the broadband
///   mean).
/// - **Weak band onsets** (a band barely over its threshold) are what the
///   ring of an earlier hit also gives: a snare's buzz 270 ms on, a hat's
///   second transient 55 ms on, a piano hammer, a crash re-sounding. They
///   fire `full` only with evidence, within `evidenceHops` hops: the
///   broadband flux reaches `broadbandSupport` of its own threshold's rise,
///   or another band has an onset too; or at once when the band is **filled
///   with noise** — its level within `noisyMargin` dB of its room floor:
///   the lowest over the last 8 s of its 10th percentile over `floorSeconds`
///   (a floor that follows the room noise, learnt during the music too,
///   while a drum's ring or a pause in a sparse piece stays above it). In noise, a hit's log flux is
///   compressed (10·log10((S+N)/N)), so a weak crossing is all a real soft hit
///   can give, while in a clean band a real hit crosses clearly.
/// - **The level path.** The level of `lowMid` … `brilliance` (power summed,
///   250 Hz – 16 kHz by default) less the room's noise floor where there is
///   room noise (`roomFlatness`), its rise over its loudest value in the hops
///   `levelLag` back (8–43 ms), half-wave rectified, goes through its own
///   `OnsetDetector` whose threshold is `levelExtraDelta` dB above the
///   flux's. Many bins summed make a steady level, so music only a few dB
///   over room noise — where every sixth-octave group's rise is lost under
///   the noise's own swings — still shows its hits; taking the noise away
///   gives back the rise the noise compressed (a stab doubling the music
///   6 dB over the noise rises 2.2 dB, 3 dB without the noise). `sub` and
///   `bass` are left out: their few wide bins beat. The 43 ms look-back keeps
///   a pad's beating and slow swells from counting.
/// - **The broadband level path**, the same over `bass` … `brilliance` (60 Hz
///   – 16 kHz by default; `bass` from the short window, in time with the
///   rest), fires only where the room's floor is noise and the upper level
///   rises a little too (`broadShare`): through a laptop microphone a bass
///   note or a low piano chord is heard mostly at 150–250 Hz, under the
///   upper path's range. In clean sound, where a bass's beating would fire
///   it, it is kept out (guitar and cajon: 3 false onsets with it).
/// - Weak band onsets within the analyzer's forward masking of the last
///   `full` onset (`Analyzer.forwardMasking`) are dropped.
struct OnsetFusion {
    /// Own strength from which a band onset fires `full` alone.
    static let clearStrength: Float = 0.1
    /// Hops a weak band onset waits for evidence (after its own hop).
    static let evidenceHops = 2
    /// Broadband support (`OnsetDetector.support`) that backs a weak band onset.
    static let broadbandSupport: Float = 0.3
    /// A band within this many dB of its room floor (the lowest of its recent
    /// floors, see `roomFloorCount`) counts as filled with noise.
    static let noisyMargin: Float = 12
    /// The band floor: the `floorQuantile` of the band's level, sampled every
    /// `floorEvery` hops over the last `floorSeconds`.
    static let floorSeconds = 2.0
    static let floorEvery = 4
    static let floorQuantile: Float = 0.1
    /// The level path's reference: the loudest of the hops `levelLag` back.
    static let levelLag = 3...16
    /// The level path's threshold lies this many dB above the flux's `delta`.
    static let levelExtraDelta: Float = 2
    /// The room floor is the lowest of the last `roomFloorCount` upper-level
    /// floors (the `floorQuantile` over `floorSeconds`), one taken every
    /// `roomFloorEvery` hops (16 × 0.5 s at 48 kHz): minimum statistics, so
    /// quiet music, a cymbal's tail or a pause lie above it.
    static let roomFloorCount = 16
    static let roomFloorEvery = 188
    /// Whether that floor is room noise: the spectral flatness of `lowMid` …
    /// `presence` on hops whose upper level lies within `nearFloor` dB of the
    /// floor, averaged at `floorFlatnessRate` per such hop. Noise gives about
    /// 0.56 (e^−γ), a quiet string or piano tail 0.3–0.45; from the lower to
    /// the upper bound of `roomFlatness` the floor is taken away in full.
    static let nearFloor: Float = 1.5
    static let floorFlatnessRate: Float = 0.02
    static let roomFlatness: ClosedRange<Float> = 0.45...0.55
    /// The level path's music estimate (upper level less the room floor)
    /// never falls below this share of the floor, so that the noise's own
    /// swings around its mean (about a dB over the 10th percentile) stay flat.
    static let levelFloorShare: Float = 0.5
    /// The broadband level path fires `full` only where the room's floor is
    /// noise to at least this share (see `roomFlatness`), and only while the
    /// upper level rises by `broadUpperShare` of its own threshold too (full-range
    /// pink room noise swings in the few bass bins alone: 12 false onsets in
    /// 47 s of a drum track as loud as the noise, none with this).
    static let broadShare: Float = 0.5
    static let broadUpperShare: Float = 0.25
    /// Weight of band and level triggers in `full` (a hat is not a downbeat).
    static let triggerWeight: Float = 0.5

    /// Each band's floor (`full` unused).
    private var floors: [RoomFloor]
    private var lastOnsetHop: [Int64]
    private var pendingWeight: [Float]
    private var pendingHop: [Int64]
    /// The level paths: `lowMid` … `brilliance`, and the whole analysed range (see `broadShare`).
    private var upper: LevelPath
    private var broad: LevelPath
    private var floorFlatness: Float = 0
    private var noiseShare: Float = 0
    /// The hop from which the 2-second floors hold 2 s (before it they still
    /// hold the stream's silent start, which must not become the room floor).
    private let floorFilledHop: Int64
    private var hop: Int64 = -1
    private var trigger: Float?
    /// Within the analyzer's forward masking of the last `full` onset: only clear band onsets count.
    private var masked = false

    /// A fusion for hops of `hopSeconds`; `thresholdHops` is the onset detectors' look-back.
    init(hopSeconds: Double, thresholdHops: Int) {
        let n = AudioSourceID.count
        let floorLength = Int((Self.floorSeconds / (Double(Self.floorEvery) * hopSeconds)).rounded())
        floors = Array(repeating: RoomFloor(capacity: max(8, floorLength)), count: n)
        lastOnsetHop = Array(repeating: Int64.min / 2, count: n)
        pendingWeight = Array(repeating: 0, count: n)
        pendingHop = Array(repeating: -1, count: n)
        upper = LevelPath(floorLength: max(8, floorLength), thresholdHops: thresholdHops)
        broad = LevelPath(floorLength: max(8, floorLength), thresholdHops: thresholdHops)
        floorFilledHop = Int64(max(8, floorLength) * Self.floorEvery)
    }

    /// Starts a hop: `bandDb` per source (dBFS, before gain); `upperPower`
    /// the summed power of `lowMid` … `brilliance`, `broadPower` of the whole
    /// analysed range (the `full` band).
    mutating func beginHop(bandDb: [Float], upperPower: Float, broadPower: Float, upperFlatness: Float, masked: Bool) {
        hop += 1
        trigger = nil
        self.masked = masked
        // Floors take a value every `floorEvery` hops; a room low every
        // `roomFloorEvery` (once the 2-second floors hold 2 s).
        let take = hop % Int64(Self.floorEvery) == 0
        let keep = hop % Int64(Self.roomFloorEvery) == 0 && hop >= floorFilledHop
        let raw = 10 * log10(upperPower + 1e-20)
        if take {
            for s in 0..<AudioSourceID.full.index { floors[s].add(bandDb[s], keepRecent: keep) }
            upper.floor.add(raw, keepRecent: keep)
            broad.floor.add(10 * log10(broadPower + 1e-20), keepRecent: keep)
        }
        // The level paths hear the music above the room: their level less the
        // room's floor where that floor is noise (see `roomFlatness`).
        if raw - upper.floor.db < Self.nearFloor && raw > -150 {  // not digital silence
            floorFlatness += Self.floorFlatnessRate * (upperFlatness - floorFlatness)
        }
        noiseShare = max(0, min(1, (floorFlatness - Self.roomFlatness.lowerBound)
                                   / (Self.roomFlatness.upperBound - Self.roomFlatness.lowerBound)))
        upper.setLevel(power: upperPower, noiseShare: noiseShare, hop: hop)
        broad.setLevel(power: broadPower, noiseShare: noiseShare, hop: hop)
    }

    /// An onset fired in band `s` (not `full`) with its own `strength` and
    /// transient. Mid … brilliance onsets that count go to `full` at once or
    /// wait for evidence (see the type's comment).
    mutating func bandOnset(_ s: Int, strength: Float, transient: Float, db: Float) {
        lastOnsetHop[s] = hop
        guard s >= AudioSourceID.mid.index && s < AudioSourceID.full.index else { return }
        let weight = transient * Self.triggerWeight
        if strength >= Self.clearStrength || db - floors[s].db < Self.noisyMargin {
            trigger = max(trigger ?? 0, weight)
        } else if !masked {
            pendingWeight[s] = weight
            pendingHop[s] = hop
        }
    }

    /// Blocks the level path for `seconds` (after a gap in the input, whose
    /// discontinuity would look like a rise).
    mutating func suppress(seconds: Float) {
        upper.detector.suppress(seconds: seconds)
        broad.detector.suppress(seconds: seconds)
    }

    /// The level paths' rises on the last hop over their detectors' thresholds,
    /// and how much of the room's floor counts as noise (the onset network's input).
    var levelEvidence: (upper: Float, broad: Float, noiseShare: Float) {
        (upper.lastRise / max(1e-3, upper.detector.threshold), broad.lastRise / max(1e-3, broad.detector.threshold), noiseShare)
    }

    /// What `full` is triggered by on this hop (nil: nothing): clear band
    /// onsets, weak ones whose evidence arrived, and the level path.
    /// `support`: `full`'s broadband support on this hop; `gateOpen`: its gate.
    mutating func fullTrigger(support: Float, gateOpen: Bool, dt: Float, tuning: OnsetTuning) -> Float? {
        for s in AudioSourceID.mid.index..<AudioSourceID.full.index where pendingHop[s] >= 0 {
            let since = max(hop - Int64(Self.evidenceHops) - 1, pendingHop[s] - Int64(Self.evidenceHops))
            var backed = support >= Self.broadbandSupport
            for o in 0..<AudioSourceID.full.index where o != s && lastOnsetHop[o] >= since { backed = true }
            if backed {
                trigger = max(trigger ?? 0, pendingWeight[s])
                pendingHop[s] = -1
            } else if hop - pendingHop[s] >= Int64(Self.evidenceHops) {
                pendingHop[s] = -1
            }
        }
        var t = tuning
        t.delta += Self.levelExtraDelta
        if upper.fires(hop: hop, gateOpen: gateOpen, dt: dt, tuning: t) {
            trigger = max(trigger ?? 0, upper.detector.transient * Self.triggerWeight)
        }
        if broad.fires(hop: hop, gateOpen: gateOpen, dt: dt, tuning: t) && noiseShare >= Self.broadShare
            && upper.lastRise >= Self.broadUpperShare * upper.detector.threshold {
            trigger = max(trigger ?? 0, broad.detector.transient * Self.triggerWeight)
        }
        return trigger
    }
}

/// One level path of `OnsetFusion`: a summed level less the room's noise
/// floor, its rise over the loudest of the hops `OnsetFusion.levelLag` back,
/// through its own `OnsetDetector`. Allocates only in `init`.
struct LevelPath {
    /// The floor under the raw level (see `RoomFloor`).
    var floor: RoomFloor
    /// The music estimate (dB) of the last hops, a ring indexed by hop.
    private var levels: [Float]
    var detector: OnsetDetector
    /// The rise on the last hop (dB).
    private(set) var lastRise: Float = 0

    init(floorLength: Int, thresholdHops: Int) {
        floor = RoomFloor(capacity: floorLength)
        levels = Array(repeating: -200, count: OnsetFusion.levelLag.upperBound + 1)
        detector = OnsetDetector(windowHops: thresholdHops)
    }

    /// Stores this hop's music estimate: `power` less `noiseShare` of the floor's power.
    mutating func setLevel(power: Float, noiseShare: Float, hop: Int64) {
        let floorPower = floor.power
        let music = max(power - noiseShare * floorPower, OnsetFusion.levelFloorShare * noiseShare * floorPower)
        levels[Int(hop % Int64(levels.count))] = 10 * log10(music + 1e-20)
    }

    /// Whether the rise of this hop's level over its reference fires the detector.
    mutating func fires(hop: Int64, gateOpen: Bool, dt: Float, tuning: OnsetTuning) -> Bool {
        let n = Int64(levels.count)
        var reference: Float = -.infinity
        for lag in OnsetFusion.levelLag where hop >= Int64(lag) {
            reference = max(reference, levels[Int((hop - Int64(lag) + n) % n)])
        }
        let rise = reference > -.infinity ? max(0, levels[Int(hop % n)] - reference) : 0
        lastRise = rise
        return detector.process(flux: rise, allowed: gateOpen, dt: dt, tuning: tuning)
    }
}
