/// The live-tunable analysis settings: a plain value. The audio-config JSON
/// (`gain`, `autoGain`, `tuning.*`, optional `bands`) maps onto exactly these
/// fields; `LiveAnalysis.settings` applies a new value at the next hop.
public struct AnalysisSettings: Sendable, Equatable, Codable {
    /// Envelope attack time constant in ms: 63.2 % of a rising step after this time.
    public var attack: Double = 8
    /// Envelope release time constant in ms: 63.2 % of a falling step after this time.
    public var release: Double = 250
    /// The gate closes (after `hold`) when a band falls below noise floor + `gateLow` dB.
    public var gateLow: Double = 4
    /// The gate opens when a band rises above noise floor + `gateHigh` dB.
    public var gateHigh: Double = 9
    /// Gate hold in ms: how long a band may stay below `gateLow` before the gate closes.
    public var hold: Double = 150
    /// Auto-gain adaptation time constant in seconds (the memory of its loudness reference).
    public var autoGainAdaptation: Double = 2
    /// Onset sensitivity 0…1: higher fires on weaker onsets (0.5 = balanced).
    public var onsetSensitivity: Double = 0.5
    /// Minimum time between two onsets of one source, ms.
    public var refractory: Double = 50
    /// Transient decay time constant in ms (63.2 % of the way back to 0).
    public var transientDecay: Double = 120
    /// Manual input gain in dB, applied before auto-gain (shifts every band's dBFS).
    public var gain: Double = 0
    /// Auto-gain on: a slowly adapting loudness reference per band; off = raw levels.
    public var autoGain: Bool = true
    /// Band edges in Hz: 8 increasing values bounding `sub` … `brilliance`
    /// (`full` spans the first to the last edge).
    public var bandEdges: [Double] = AnalysisSettings.defaultBandEdges

    /// 20, 60, 250, 500, 2k, 4k, 6k, 16k Hz.
    public static let defaultBandEdges: [Double] = [20, 60, 250, 500, 2000, 4000, 6000, 16000]

    /// The defaults.
    public init() {}

    /// The allowed range of every numeric field (for validation and UI sliders).
    public static let limits: [(field: String, range: ClosedRange<Double>, unit: String)] = [
        ("attack", 0...2000, "ms"), ("release", 0...10000, "ms"),
        ("gateLow", 0...40, "dB"), ("gateHigh", 0...40, "dB"), ("hold", 0...5000, "ms"),
        ("autoGainAdaptation", 0.2...60, "s"), ("onsetSensitivity", 0...1, ""),
        ("refractory", 10...1000, "ms"), ("transientDecay", 5...10000, "ms"),
        ("gain", -40...40, "dB"),
    ]

    /// The value of a numeric field by its name in `limits`.
    public func value(of field: String) -> Double? {
        switch field {
        case "attack": attack
        case "release": release
        case "gateLow": gateLow
        case "gateHigh": gateHigh
        case "hold": hold
        case "autoGainAdaptation": autoGainAdaptation
        case "onsetSensitivity": onsetSensitivity
        case "refractory": refractory
        case "transientDecay": transientDecay
        case "gain": gain
        default: nil
        }
    }

    /// Every problem with these settings as `field: reason` lines (empty = valid).
    public func problems() -> [String] {
        var out: [String] = []
        for (field, range, unit) in Self.limits {
            guard let v = value(of: field) else { continue }
            if !v.isFinite || !range.contains(v) {
                out.append("\(field): \(v) is outside \(range.lowerBound)…\(range.upperBound) \(unit)")
            }
        }
        if gateLow > gateHigh { out.append("gateLow: \(gateLow) dB is above gateHigh \(gateHigh) dB") }
        if bandEdges.count != 8 {
            out.append("bands: need 8 edges (sub…brilliance), got \(bandEdges.count)")
        } else {
            for (i, e) in bandEdges.enumerated() where !e.isFinite || e < 10 || e > 24000 {
                out.append("bands[\(i)]: \(e) Hz is outside 10…24000 Hz")
            }
            for i in 1..<bandEdges.count where !(bandEdges[i] > bandEdges[i - 1]) {
                out.append("bands[\(i)]: edges must increase (\(bandEdges[i - 1]) then \(bandEdges[i]))")
            }
        }
        return out
    }
}
