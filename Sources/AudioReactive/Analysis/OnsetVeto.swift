import Foundation

/// The onset network's part of the analysis (`Analyzer`): it makes the
/// network's input on every hop (`OnsetNetworkInput`), steps the network on
/// it, and keeps a DSP `full` onset only where the network's probability is
/// at least its threshold. Without weights it only makes the input, for
/// `Analyzer.onsetInputSink` (`physarum analyze --onset-input`, training).
///
/// The veto decides on the DSP onset's own hop (no added delay), never adds
/// an onset, and keeps every onset before the network has heard its whole
/// context (a kick on a stream's first sample is a hit, and training never
/// saw a stream's first hops). `full`'s transient follows the onsets kept.
/// Pure state machine; allocates only in `init`. Single-threaded.
struct OnsetVeto {
    private var input: OnsetNetworkInput
    private var network: OnsetNetwork?
    /// The probability under which a DSP onset is vetoed, at the current sensitivity.
    private var threshold: Float = 1
    /// `full`'s transient from the onsets kept, and hops since the last one.
    private var transient: Float = 0
    private var sinceKept = Int.max / 2

    /// A veto with `weights`; nil weights: the input alone (`isVetoing` false).
    init(weights: OnsetNetworkWeights?, layout: AnalysisLayout, sensitivity: Double) {
        if let w = weights {
            input = OnsetNetworkInput(bands: w.bands, lowHz: w.lowHz, highHz: w.highHz, perOctave: w.perOctave,
                                      floorRise: w.floorRise, layout: layout)
            network = OnsetNetwork(weights: w)
        } else {
            input = OnsetNetworkInput(layout: layout)
        }
        setSensitivity(sensitivity)
    }

    /// Whether a network decides (false: the DSP detector alone).
    var isVetoing: Bool { network != nil }

    /// The input of the last hop.
    var values: [Float] { input.values }

    /// Moves the threshold with `onsetSensitivity` (more sensitive: fewer vetoes).
    mutating func setSensitivity(_ sensitivity: Double) {
        if let n = network { threshold = OnsetNetwork.threshold(trained: n.weights.threshold, sensitivity: sensitivity) }
    }

    /// The spectral part of this hop's input (before `decide`).
    mutating func spectrum(power: UnsafePointer<Float>, scale: Float) {
        input.spectrum(power: power, scale: scale)
    }

    /// This hop's `full` onset and transient, from the DSP detector's (`dspFired`,
    /// `dspTransient`) and its state; `decay` is the transient's per-hop factor.
    /// Without a network: the DSP's, unchanged (the input is still made).
    mutating func decide(dspFired: Bool, dspTransient: Float, detector: OnsetNetworkInput.DetectorState,
                         decay: Float) -> (fired: Bool, transient: Float) {
        input.detector(detector)
        guard network != nil else { return (dspFired, dspTransient) }
        network!.step(input: input.values)
        let fired = dspFired && (network!.probability >= threshold || !network!.heardContext)
        transient *= decay
        sinceKept += 1
        if fired {
            sinceKept = 0
            transient = max(transient, dspTransient)
        } else if sinceKept <= OnsetDetector.captureLength {
            transient = max(transient, dspTransient)  // the hit's flux still rising
        }
        if transient < 1e-6 { transient = 0 }
        return (fired, transient)
    }
}
