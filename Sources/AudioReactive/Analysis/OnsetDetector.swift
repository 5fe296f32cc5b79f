import Foundation

/// Onset-detection constants for one hop, derived from `AudioTuning`.
public struct OnsetTuning: Sendable {
    /// Threshold = median + `delta` + `k` × spread of the recent flux.
    public var k: Float
    /// Minimum rise above the median, dB (mean over the band's flux groups).
    public var delta: Float
    /// Refractory time in seconds.
    public var refractory: Float
    /// Per-hop multiplier of the transient signal.
    public var decay: Float

    /// Maps sensitivity 0…1 to `k` and `delta` (0.5 → k 2.5, delta 1.5 dB);
    /// refractory and decay (ms) to seconds and a per-hop factor.
    public init(settings s: AudioTuning, hopSeconds: Double) {
        let sens = Float(max(0, min(1, s.onsetSensitivity)))
        k = 0.5 + 4 * (1 - sens)
        delta = 0.5 + 2 * (1 - sens)
        refractory = Float(s.refractory / 1000)
        decay = Float(exp(-hopSeconds / max(1e-3, s.transientDecay / 1000)))
    }
}

/// Online onset detection on one source's spectral flux (log-compressed,
/// half-wave rectified; computed by the analyzer). An adaptive threshold —
/// the median of the last 0.75 s of flux plus `delta` plus `k` times its
/// spread (median − 10th percentile, or 1.9 × (75th percentile − median)
/// where the flux sits at zero) — is crossed upward to fire, at most once per
/// refractory time; an outside `trigger` (for `full`: what `OnsetFusion`
/// passes on from the bands and the upper level) fires it too. The transient signal jumps to the hit strength
/// (1 − e^(−excess / 6 dB), 0…1), may rise for a few more hops
/// while the flux still grows, and decays by `decay` per hop.
/// Pure state machine, one step per hop; allocates only in `init`.
public struct OnsetDetector: Sendable {
    /// The transient signal (0…1).
    public private(set) var transient: Float = 0
    /// The threshold used on the last hop.
    public private(set) var threshold: Float = 0
    /// Strength of this source's own flux on the last hop that fired (0 when
    /// only an outside trigger fired it).
    public private(set) var ownStrength: Float = 0

    private var recent: SortedWindow
    private var wasAbove = false
    private var previousFlux: Float = 0
    private var refractoryLeft: Float = 0
    private var captureHops = 0

    /// Rise above the threshold (dB, mean over groups) that gives strength 0.63.
    static let strengthScale: Float = 6
    /// Hops after firing during which a still-rising flux may raise the strength.
    static let captureLength = 3

    /// A detector whose threshold looks back `windowHops` hops.
    public init(windowHops: Int) {
        recent = SortedWindow(capacity: max(8, windowHops))
    }

    /// One hop. `allowed`: the source's gate lets onsets through. Returns true
    /// when an onset fires on this hop.
    public mutating func process(flux: Float, allowed: Bool, dt: Float, tuning t: OnsetTuning,
                                 trigger: Float? = nil) -> Bool {
        let median = recent.quantile(0.5)
        // Lower spread (robust to onsets) unless the series sits at zero, where the
        // upper quartile tells (both ≈ 1.28 σ for Gaussian and half-normal flux).
        let spread = max(median - recent.quantile(0.1), 1.9 * (recent.quantile(0.75) - median))
        threshold = median + t.delta + t.k * spread
        let above = flux > threshold
        refractoryLeft -= dt
        transient *= t.decay
        var fired = false
        let crossed = above && !wasAbove
        if (crossed || trigger != nil) && refractoryLeft <= 0 && allowed {
            fired = true
            refractoryLeft = t.refractory
            ownStrength = crossed ? strength(flux) : 0
            transient = max(transient, ownStrength, trigger ?? 0)
            captureHops = Self.captureLength
        } else if captureHops > 0 && flux > previousFlux && allowed {
            captureHops -= 1
            transient = max(transient, strength(flux))
        } else {
            captureHops = 0
        }
        if !allowed && transient < 1e-4 { transient = 0 }
        if transient < 1e-6 { transient = 0 }
        // A crossing the gate blocked is not spent: it may fire once the gate opens.
        wasAbove = above && (allowed || wasAbove)
        previousFlux = flux
        recent.add(flux)
        return fired
    }

    /// Where `flux` sits between the recent median (0) and the threshold (1)
    /// that `process` would use now: how much broadband evidence a hop carries.
    public func support(flux: Float, tuning t: OnsetTuning) -> Float {
        let median = recent.quantile(0.5)
        let spread = max(median - recent.quantile(0.1), 1.9 * (recent.quantile(0.75) - median))
        return (flux - median) / max(1e-6, t.delta + t.k * spread)
    }

    /// Hit strength 0…1 from the flux's excess over the threshold (saturating).
    private func strength(_ flux: Float) -> Float {
        1 - exp(-max(0, flux - threshold) / Self.strengthScale)
    }

    /// Blocks onsets for `seconds` (after a gap in the input, whose
    /// discontinuity would look like a hit).
    public mutating func suppress(seconds: Float) {
        refractoryLeft = max(refractoryLeft, seconds)
        wasAbove = true
    }
}
