import Foundation

/// What a band's gate is doing.
public enum GateState: UInt8, Sendable, CaseIterable {
    /// Below the threshold: the band's outputs fade to 0.
    case closed
    /// Above the threshold: the band passes.
    case open
    /// Fell below `gateLow` and is waiting out `hold` before closing.
    case hold
}

/// Gate thresholds for one hop, in the units the gate works in.
public struct GateTuning: Sendable {
    /// Close below floor + `low` dB.
    public var low: Float
    /// Open above floor + `high` dB.
    public var high: Float
    /// Hold time in seconds.
    public var hold: Float

    /// Thresholds from settings (dB, dB, ms).
    public init(low: Double, high: Double, holdMilliseconds: Double) {
        self.low = Float(low)
        self.high = Float(high)
        hold = Float(holdMilliseconds / 1000)
    }
}

/// A noise gate with hysteresis over a tracked noise floor, applied as a
/// smoothed gain so it never snaps. Pure state machine, one step per hop.
///
/// - Detector: the band's dBFS, rising instantly and falling at
///   `detectorFall` dB/s (a peak hold that fills the gaps of noise).
/// - Noise floor: what the band does when only noise is there. Every
///   quarter second is judged: if the detector stayed within 6 dB and at
///   least half of the hops were marked `noiseLike` by the caller (the
///   analyzer: a flat spectrum, and no onset in the band or in `full` for
///   the last second, i.e. no music playing), its minimum is a floor
///   candidate; the floor is the lowest candidate of the last 6 s (minimum
///   statistics over noise only). So music, steady or not, never raises it,
///   and quiet music after a loud passage is not taken for noise; a band
///   with no candidate uses `absoluteFloor`. The floor never counts above
///   `floorCeiling` nor below `absoluteFloor`. At first it is only learnt
///   and −60 dBFS (level 0) is used: for a second, and longer until a
///   candidate is found or music is heard. (Limits: a steady tonal
///   hum is not gated; long onset-free passages of dense steady sound, such
///   as a pad alone, count as noise after a few seconds unless louder than
///   −26 dBFS.)
/// - Opens above floor + high (up to 3 dB more where the noise was seen to
///   swing that far while closed); closes after `hold` below floor + low, or
///   when the band has not been above floor + high for 2 s (noise hovering
///   between the thresholds cannot hold it open).
public struct Gate: Sendable {
    /// Current state.
    public private(set) var state: GateState = .closed
    /// Smoothed gain actually applied (0 … 1).
    public private(set) var gain: Float = 0
    /// The detector (dBFS).
    public private(set) var detectorDb: Float = -200
    /// The tracked noise floor (dBFS, before the limits; +∞ = no noise seen).
    public private(set) var floorDb: Float = .infinity
    /// The reference the thresholds are measured from (dBFS).
    public var referenceDb: Float {
        guard isEstablished else { return Self.learningReference }
        return floorDb.isFinite ? min(Self.floorCeiling, max(Self.absoluteFloor, floorDb)) : Self.absoluteFloor
    }
    /// True once the floor has been learnt for `learningSeconds` and either a
    /// floor candidate was found or music is playing.
    public private(set) var isEstablished = false

    /// Below this a band counts as silence: it must exceed it by `high` to
    /// open the gate (15 dB under the level's 0 point at −60 dBFS, so quiet
    /// material that gain can bring into view still opens it).
    public static let absoluteFloor: Float = -75
    /// The reference while the floor is learnt: where a level reads 0.
    public static let learningReference: Float = -60
    /// How long the floor is learnt before it is trusted (s).
    public static let learningSeconds: Float = 1
    /// The floor never counts above this.
    public static let floorCeiling: Float = -35
    /// Detector fall rate, dB per second.
    public static let detectorFall: Float = 40
    /// Gain smoothing time constants (s): opening, closing.
    public static let openTime: Double = 0.003, closeTime: Double = 0.06
    /// The largest swing of the detector above the reference seen while
    /// closed is remembered with this half-life (s); opening needs that swing
    /// plus `swingMargin` dB when more than `high` (at most `high` + 3 dB).
    static let swingHalfLife: Float = 20
    static let swingMargin: Float = 3
    /// An open gate must see the band above floor + high at least this often
    /// (s); noise hovering between `low` and `high` cannot hold it open.
    static let rearmSeconds: Float = 2
    /// Floor candidates: blocks of this length whose detector stayed within
    /// `steadySpread` dB with at least half of the hops noise-like.
    static let floorBlockSeconds: Float = 0.25
    static let floorBlocks = 24
    static let steadySpread: Float = 6

    private var blocks: InlineArray<24, Float> = InlineArray(repeating: .infinity)
    private var blockIndex = 0
    private var blockMin: Float = .infinity
    private var blockMax: Float = -.infinity
    private var blockHops = 0
    private var blockNoiseHops = 0
    private var blockElapsed: Float = 0
    private var holdLeft: Float = 0
    private var trackedSeconds: Float = 0
    private var noiseSwing: Float = 0
    private var sinceAboveHigh: Float = 0

    /// A closed gate with no floor yet.
    public init() {}

    /// How far above the reference the detector must rise to open: `high`,
    /// or up to `swingMargin` dB more where the noise itself was seen to swing
    /// that far (narrow low bands: noise in a few FFT bins swings ±5 dB).
    public func openingMargin(_ t: GateTuning) -> Float {
        max(t.high, min(noiseSwing, t.high) + Self.swingMargin)
    }

    /// One hop. `db`: the band's dBFS (manual gain included); `noiseLike`:
    /// this hop may be noise (see `Analyzer`); `musicPlaying`: clear onsets
    /// were heard lately; `trackFloor` false skips floor learning (while the
    /// window still holds start-up silence). Returns the smoothed gain.
    public mutating func process(db rawDb: Float, dt: Float, tuning t: GateTuning, noiseLike: Bool = true,
                                 musicPlaying: Bool = false, trackFloor: Bool = true,
                                 openCoefficient: Float, closeCoefficient: Float) -> Float {
        let db = max(rawDb, -200)
        detectorDb = max(db, detectorDb - Self.detectorFall * dt)
        let wasEstablished = isEstablished
        if trackFloor { trackFloorStep(dt, noiseLike: noiseLike, musicPlaying: musicPlaying) }
        let ref = referenceDb
        if isEstablished && !wasEstablished && detectorDb <= ref + openingMargin(t) {
            state = .closed // the floor is known now: judge again from it
        }
        noiseSwing *= exp2(-dt / Self.swingHalfLife)
        if state != .closed {
            sinceAboveHigh = detectorDb > ref + t.high ? 0 : sinceAboveHigh + dt
            if sinceAboveHigh > Self.rearmSeconds { state = .closed }
        }
        switch state {
        case .closed:
            if detectorDb > ref + openingMargin(t) {
                state = .open
                sinceAboveHigh = 0
            } else if isEstablished { // how far the noise swings while nothing passes
                noiseSwing = max(noiseSwing, detectorDb - ref)
            }
        case .open:
            if detectorDb < ref + t.low {
                if t.hold > 0 { state = .hold; holdLeft = t.hold } else { state = .closed }
            }
        case .hold:
            if detectorDb >= ref + t.low {
                state = .open
            } else {
                holdLeft -= dt
                if holdLeft <= 0 { state = .closed }
            }
        }
        let target: Float = state == .closed ? 0 : 1
        gain += (target - gain) * (target > gain ? openCoefficient : closeCoefficient)
        if target == 0 && gain < 1e-4 { gain = 0 }
        if target == 1 && gain > 1 - 1e-6 { gain = 1 }
        return gain
    }

    private mutating func trackFloorStep(_ dt: Float, noiseLike: Bool, musicPlaying: Bool) {
        trackedSeconds = min(trackedSeconds + dt, Self.learningSeconds)
        if !isEstablished && trackedSeconds >= Self.learningSeconds && (floorDb.isFinite || musicPlaying) {
            isEstablished = true
        }
        blockMin = min(blockMin, detectorDb)
        blockMax = max(blockMax, detectorDb)
        blockHops += 1
        if noiseLike { blockNoiseHops += 1 }
        blockElapsed += dt
        guard blockElapsed >= Self.floorBlockSeconds else { return }
        blockElapsed -= Self.floorBlockSeconds
        let steady = blockMax - blockMin <= Self.steadySpread && 2 * blockNoiseHops >= blockHops
        blocks[blockIndex] = steady ? blockMin : .infinity
        blockIndex = (blockIndex + 1) % Self.floorBlocks
        blockMin = .infinity
        blockMax = -.infinity
        blockHops = 0
        blockNoiseHops = 0
        var m: Float = .infinity
        for i in 0..<Self.floorBlocks { m = min(m, blocks[i]) }
        floorDb = m
    }
}
