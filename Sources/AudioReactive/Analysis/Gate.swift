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
/// - Noise floor: the minimum of the detector over the last
///   `floorBlocks × floorBlockSeconds` (≈ 6 s; minimum statistics), falling
///   at once; never above `floorCeiling` (so steady sound louder than
///   −26 dBFS is never mistaken for noise) and never below
///   `absoluteFloor` (−75 dBFS). For its first second it is only learnt,
///   and −60 dBFS (level 0) is the reference.
/// - Opens above floor + high; closes after `hold` below floor + low.
public struct Gate: Sendable {
    /// Current state.
    public private(set) var state: GateState = .closed
    /// Smoothed gain actually applied (0 … 1).
    public private(set) var gain: Float = 0
    /// The detector (dBFS).
    public private(set) var detectorDb: Float = -200
    /// The tracked noise floor (dBFS, before the absolute limits).
    public var floorDb: Float { min(blockMinimum, currentBlockMin) }
    /// The reference the thresholds are measured from (dBFS): the level-0
    /// point (−60 dBFS) while the floor is still being learnt, then the
    /// tracked floor limited to `absoluteFloor` … `floorCeiling`.
    public var referenceDb: Float {
        guard isEstablished else { return Self.learningReference }
        return min(Self.floorCeiling, max(Self.absoluteFloor, floorDb))
    }
    /// True once the floor has been tracked for `learningSeconds`.
    public var isEstablished: Bool { trackedSeconds >= Self.learningSeconds }

    /// Below this a band counts as silence: it must exceed it by `high` to
    /// open the gate (15 dB under the level's 0 point at −60 dBFS, so quiet
    /// material that gain can bring into view still opens it).
    public static let absoluteFloor: Float = -75
    /// The reference while the floor is learnt: where a level reads 0.
    public static let learningReference: Float = -60
    /// How long the floor is learnt before it is trusted (s). A stream may
    /// start in the middle of a decaying hit, whose tail is not the noise.
    public static let learningSeconds: Float = 1
    /// The floor never rises above this.
    public static let floorCeiling: Float = -35
    /// Detector fall rate, dB per second.
    public static let detectorFall: Float = 40
    /// Gain smoothing time constants (s): opening, closing.
    public static let openTime: Double = 0.003, closeTime: Double = 0.06
    static let floorBlockSeconds: Float = 0.25
    static let floorBlocks = 24

    private var blocks: InlineArray<24, Float> = InlineArray(repeating: .infinity)
    private var blockIndex = 0
    private var blockMinimum: Float = .infinity
    private var currentBlockMin: Float = .infinity
    private var blockElapsed: Float = 0
    private var holdLeft: Float = 0
    private var trackedSeconds: Float = 0

    /// A closed gate with no floor yet (the first value fed sets it).
    public init() {}

    /// True when a band at `db` would open the gate right now (lets a hit's
    /// transient through on the hop it arrives, before the gain has moved).
    public func wouldOpen(_ db: Float, _ t: GateTuning) -> Bool {
        db > referenceDb + t.high
    }

    /// One hop: `db` is the band's dBFS (manual gain included); `trackFloor`
    /// false skips floor tracking (while the window still holds start-up
    /// silence). Returns the smoothed gain.
    public mutating func process(db rawDb: Float, dt: Float, tuning t: GateTuning, trackFloor: Bool = true,
                                 openCoefficient: Float, closeCoefficient: Float) -> Float {
        let db = max(rawDb, -200)
        detectorDb = max(db, detectorDb - Self.detectorFall * dt)
        if trackFloor { trackFloorStep(dt) }
        let ref = referenceDb
        switch state {
        case .closed:
            if detectorDb > ref + t.high { state = .open }
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

    private mutating func trackFloorStep(_ dt: Float) {
        trackedSeconds = min(trackedSeconds + dt, Self.learningSeconds)
        currentBlockMin = min(currentBlockMin, detectorDb)
        blockElapsed += dt
        guard blockElapsed >= Self.floorBlockSeconds else { return }
        blockElapsed -= Self.floorBlockSeconds
        blocks[blockIndex] = currentBlockMin
        blockIndex = (blockIndex + 1) % Self.floorBlocks
        currentBlockMin = .infinity
        var m: Float = .infinity
        for i in 0..<Self.floorBlocks { m = min(m, blocks[i]) }
        blockMinimum = m
    }
}
