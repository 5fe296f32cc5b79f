import Foundation

/// How onsets heard in single bands, and rises of the summed upper level,
/// reach the broadband (`full`) onset. Pure state machine, one step per
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
    /// Weight of band and level triggers in `full` (a hat is not a downbeat).
    static let triggerWeight: Float = 0.5

    private var floors: [SortedWindow]
    private var lastOnsetHop: [Int64]
    private var pendingWeight: [Float]
    private var pendingHop: [Int64]
    private var upperDb: [Float]
    private var upperFloor: SortedWindow
    private var floorFlatness: Float = 0
    private var roomFloors: [Float]
    private var bandRoomFloors: [[Float]]
    private var roomIndex = 0
    /// The lowest of `roomFloors` and of each band's `bandRoomFloors` (+∞ while empty).
    private var roomFloorDb: Float = .infinity
    private var bandRoomFloorDb: [Float]
    /// The hop from which the 2-second floors hold 2 s (before it they still
    /// hold the stream's silent start, which must not become the room floor).
    private let floorFilledHop: Int64
    private var level: OnsetDetector
    private var hop: Int64 = -1
    private var trigger: Float?
    /// Within the analyzer's forward masking of the last `full` onset: only clear band onsets count.
    private var masked = false

    /// A fusion for hops of `hopSeconds`; `thresholdHops` is the onset detectors' look-back.
    init(hopSeconds: Double, thresholdHops: Int) {
        let n = AudioSourceID.count
        let floorLength = Int((Self.floorSeconds / (Double(Self.floorEvery) * hopSeconds)).rounded())
        floors = (0..<n).map { _ in SortedWindow(emptyWithCapacity: max(8, floorLength)) }
        lastOnsetHop = Array(repeating: Int64.min / 2, count: n)
        pendingWeight = Array(repeating: 0, count: n)
        pendingHop = Array(repeating: -1, count: n)
        upperDb = Array(repeating: -200, count: Self.levelLag.upperBound + 1)
        upperFloor = SortedWindow(emptyWithCapacity: max(8, floorLength))
        floorFilledHop = Int64(max(8, floorLength) * Self.floorEvery)
        roomFloors = Array(repeating: .infinity, count: Self.roomFloorCount)
        bandRoomFloors = Array(repeating: Array(repeating: .infinity, count: Self.roomFloorCount), count: n)
        bandRoomFloorDb = Array(repeating: .infinity, count: n)
        level = OnsetDetector(windowHops: thresholdHops)
    }

    /// Starts a hop: `bandDb` per source (dBFS, before gain); `upperPower`
    /// the summed power of `lowMid` … `brilliance`.
    mutating func beginHop(bandDb: [Float], upperPower: Float, upperFlatness: Float, masked: Bool) {
        hop += 1
        trigger = nil
        self.masked = masked
        if hop % Int64(Self.floorEvery) == 0 {
            for s in 0..<AudioSourceID.full.index { floors[s].add(bandDb[s]) }
        }
        // The level path hears the music above the room: the upper level less the
        // room's floor where that floor is noise (see `roomFlatness`).
        let raw = 10 * log10(upperPower + 1e-20)
        if hop % Int64(Self.floorEvery) == 0 { upperFloor.add(raw) }
        let recentFloor = upperFloor.count > 0 ? upperFloor.quantile(Self.floorQuantile) : -200
        if hop % Int64(Self.roomFloorEvery) == 0 && hop >= floorFilledHop {
            // The ring changes here only: its lowest values are kept, not searched per hop.
            roomFloors[roomIndex] = recentFloor
            roomFloorDb = roomFloors.min() ?? .infinity
            for b in 0..<AudioSourceID.full.index {
                bandRoomFloors[b][roomIndex] = floors[b].count > 0 ? floors[b].quantile(Self.floorQuantile) : -200
                bandRoomFloorDb[b] = bandRoomFloors[b].min() ?? .infinity
            }
            roomIndex = (roomIndex + 1) % roomFloors.count
        }
        let floorDb = min(recentFloor, roomFloorDb)
        let floorPower = Float(pow(10, Double(floorDb) / 10))
        if raw - floorDb < Self.nearFloor && raw > -150 {  // not digital silence
            floorFlatness += Self.floorFlatnessRate * (upperFlatness - floorFlatness)
        }
        let noiseShare = max(0, min(1, (floorFlatness - Self.roomFlatness.lowerBound)
                                       / (Self.roomFlatness.upperBound - Self.roomFlatness.lowerBound)))
        let music = max(upperPower - noiseShare * floorPower, Self.levelFloorShare * noiseShare * floorPower)
        upperDb[Int(hop % Int64(upperDb.count))] = 10 * log10(music + 1e-20)
    }

    /// An onset fired in band `s` (not `full`) with its own `strength` and
    /// transient. Mid … brilliance onsets that count go to `full` at once or
    /// wait for evidence (see the type's comment).
    mutating func bandOnset(_ s: Int, strength: Float, transient: Float, db: Float) {
        lastOnsetHop[s] = hop
        guard s >= AudioSourceID.mid.index && s < AudioSourceID.full.index else { return }
        let weight = transient * Self.triggerWeight
        let recent = floors[s].count > 0 ? floors[s].quantile(Self.floorQuantile) : -200
        let floor = min(recent, bandRoomFloorDb[s])
        if strength >= Self.clearStrength || db - floor < Self.noisyMargin {
            trigger = max(trigger ?? 0, weight)
        } else if !masked {
            pendingWeight[s] = weight
            pendingHop[s] = hop
        }
    }

    /// Blocks the level path for `seconds` (after a gap in the input, whose
    /// discontinuity would look like a rise).
    mutating func suppress(seconds: Float) {
        level.suppress(seconds: seconds)
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
        let n = Int64(upperDb.count)
        var reference: Float = -.infinity
        for lag in Self.levelLag where hop >= Int64(lag) {
            reference = max(reference, upperDb[Int((hop - Int64(lag) + n) % n)])
        }
        let rise = reference > -.infinity ? max(0, upperDb[Int(hop % n)] - reference) : 0
        var t = tuning
        t.delta += Self.levelExtraDelta
        if level.process(flux: rise, allowed: gateOpen, dt: dt, tuning: t) {
            trigger = max(trigger ?? 0, level.transient * Self.triggerWeight)
        }
        return trigger
    }
}
