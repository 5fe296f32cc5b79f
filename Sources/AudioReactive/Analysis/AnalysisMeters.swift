import Foundation

/// What one source's analysis is doing, for meters in the UI.
public struct BandMeter: Sendable, Equatable {
    /// Band energy in dBFS (sine-referenced: a full-scale sine reads 0), before any gain.
    public var dbfs: Float = -200
    /// The gate's reference: tracked noise floor limited to −75…−35 dBFS.
    public var noiseFloorDb: Float = -60
    /// Auto-gain currently applied, dB (0 when auto-gain is off).
    public var autoGainDb: Float = 0
    /// Gate state.
    public var gate: GateState = .closed
    /// Output level (0…1), as in `AudioFeatures`.
    public var level: Float = 0
    /// Output transient (0…1).
    public var transient: Float = 0
    /// True on the hop at which this source's onset fired.
    public var onset = false
    /// Spectral flux (dB) and the onset threshold it is compared with.
    public var flux: Float = 0
    /// The onset threshold on the last hop.
    public var onsetThreshold: Float = 0

    /// A silent meter.
    public init() {}
}

/// A log-frequency magnitude spectrum for display: `count` points from 20 Hz
/// to 20 kHz, each the dBFS of the band around it (sine-referenced).
public struct SpectrumSnapshot: Sendable {
    /// Number of points.
    public static let count = 96
    /// dBFS per point (−200 = nothing), lowest frequency first.
    public var dbfs: InlineArray<96, Float> = InlineArray(repeating: -200)

    /// Silence.
    public init() {}

    /// Centre frequency of point `i` in Hz (20 Hz … 20 kHz, log-spaced).
    public static func frequency(_ i: Int) -> Double {
        20 * pow(1000, Double(i) / Double(count - 1))
    }
}

/// Everything the UI shows about the analysis at one moment. Fixed size (no
/// heap), copied out under a lock by `LiveAnalysis.meters`.
public struct AnalysisMeters: Sendable {
    /// Sample-clock seconds of the hop these values belong to.
    public var time: Double = 0
    /// Per source, in `AudioSourceID.allCases` order.
    public var bands: InlineArray<8, BandMeter> = InlineArray(repeating: BandMeter())
    /// The spectrum at that hop.
    public var spectrum = SpectrumSnapshot()
    /// The beat tracker at the last hop (tempo, confidence, the beat pulse for a light).
    public var beat = BeatFeatures()
    /// Whether the tempo is held (the tracker's lock).
    public var tempoLocked = false

    /// Empty meters.
    public init() {}

    /// The meter of one source.
    public subscript(_ id: AudioSourceID) -> BandMeter {
        get { bands[id.index] }
        set { bands[id.index] = newValue }
    }
}
