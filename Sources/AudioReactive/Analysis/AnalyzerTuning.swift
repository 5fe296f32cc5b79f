import Foundation

/// The analyzer's per-hop constants, derived from `AudioTuning` (and the
/// `full` detector's candidate sensitivity, see `Analyzer.init`).
struct AnalyzerTuning {
    var attack: Float, release: Float, gate: GateTuning, open: Float, close: Float
    var onset: OnsetTuning, gain: Float, autoGain: Bool, adaptation: Float
    /// The `full` detector's: at the candidate sensitivity where one is set (see `candidates`).
    var fullOnset: OnsetTuning
    init(_ s: AudioTuning, _ hop: Double, candidates: Double?) {
        attack = Envelope.coefficient(timeConstant: s.attack / 1000, step: hop)
        release = Envelope.coefficient(timeConstant: s.release / 1000, step: hop)
        gate = GateTuning(low: s.gateLow, high: s.gateHigh, holdMilliseconds: s.hold)
        open = Envelope.coefficient(timeConstant: Gate.openTime, step: hop)
        close = Envelope.coefficient(timeConstant: Gate.closeTime, step: hop)
        onset = OnsetTuning(settings: s, hopSeconds: hop)
        var c = s
        if let candidates { c.onsetSensitivity = candidates }
        fullOnset = OnsetTuning(settings: c, hopSeconds: hop)
        gain = Float(s.gain)
        autoGain = s.autoGain
        adaptation = Float(s.autoGainAdaptation)
    }
}
