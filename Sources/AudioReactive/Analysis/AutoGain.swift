import Foundation

/// Auto-gain for one band: a slowly adapting loudness reference (the 90th
/// percentile of the band's dBFS, from a histogram whose entries fade with
/// the adaptation time constant) is steered toward `targetDb`. The
/// reference and the gain are frozen while the gate is not open, so room
/// noise between the music never becomes the reference and is never lifted.
/// Pure state machine, one step per hop; allocates only in `init`.
public struct AutoGain: Sendable {
    /// The gain in dB currently applied.
    public private(set) var gainDb: Float = 0
    /// The loudness reference (dBFS), or nil before the gate first opened.
    public private(set) var referenceDb: Float?

    /// Where the reference is steered to: level 0.9.
    public static let targetDb: Float = -6
    /// Gain limits in dB.
    public static let minGainDb: Float = -24, maxGainDb: Float = 60
    /// Which percentile of recent loudness is the reference.
    public static let percentile: Float = 0.9
    static let binDb: Float = 0.5, lowestDb: Float = -100, binCount = 240

    private var histogram: [Float]
    private var weight: Float = 1
    private var total: Float = 0

    /// Unity gain, empty reference.
    public init() {
        histogram = [Float](repeating: 0, count: Self.binCount)
    }

    /// One hop. `db`: the band's dBFS after manual gain; `open`: the gate is
    /// open; `adaptation`: memory in seconds. Returns the gain in dB.
    public mutating func process(db: Float, open: Bool, dt: Float, adaptation: Float) -> Float {
        // Memory runs in time: what was learnt before a closed stretch weighs
        // less once the band is heard again, but nothing is learnt meanwhile.
        let tau = max(adaptation, 0.05)
        weight *= exp(dt / tau)
        if weight > 1e15 { rescale() }
        guard open, db.isFinite else { return gainDb }
        let bin = max(0, min(Self.binCount - 1, Int((db - Self.lowestDb) / Self.binDb)))
        histogram[bin] += weight
        total += weight
        // Walk down from the loudest bin to the percentile.
        let want = (1 - Self.percentile) * total
        var acc: Float = 0
        var ref = Self.lowestDb
        for b in stride(from: Self.binCount - 1, through: 0, by: -1) {
            acc += histogram[b]
            if acc >= want {
                ref = Self.lowestDb + (Float(b) + 0.5) * Self.binDb
                break
            }
        }
        referenceDb = ref
        let desired = max(Self.minGainDb, min(Self.maxGainDb, Self.targetDb - ref))
        let c = 1 - exp(-dt / (tau / 4))
        gainDb += (desired - gainDb) * c
        return gainDb
    }

    private mutating func rescale() {
        let s = 1 / weight
        for i in 0..<Self.binCount { histogram[i] *= s }
        total *= s
        weight = 1
    }
}
