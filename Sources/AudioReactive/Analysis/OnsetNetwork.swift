import Foundation

/// The learned onset detector at run time: a small causal network over the
/// short window's spectrum, one step per hop, plain Swift on arrays.
///
/// Input per hop: the short (1024-point) power spectrum summed in
/// `weights.bands` bands about a sixth of an octave wide (30 Hz – 16 kHz),
/// each band's dB / 20, and its height over a floor that follows a fall at
/// once and a rise at `floorRise` dB/s, / 20 (so the network knows how far
/// a band stands above the room). Then causal dilated convolutions over the
/// hops (ReLU) and a linear output whose sigmoid is the probability that an
/// onset has just arrived. It fires on the hop where the probability
/// reaches the threshold, and re-arms once it falls under half of it.
///
/// Trained by `scripts/onset-train` on generated audio from the tuning
/// sources only; the Python reference (`scripts/onset_network.py`) computes
/// the same numbers. Deterministic: the output depends only on the spectra
/// (same operations in the same order on every run, offline or live).
/// Pure state machine; allocates only in `init`. Single-threaded.
struct OnsetNetwork {
    let weights: OnsetNetworkWeights
    /// Bins `lo..<hi` of the short spectrum per band.
    private let bins: [(lo: Int, hi: Int)]
    private let rise: Float
    private var floor: [Float]
    private var started = false
    /// Per layer: its input history, a ring of `span` vectors of `inputs` floats.
    private var rings: [[Float]]
    private var spans: [Int]
    private var position = 0
    private var scratch: [Float]
    private var armed = true
    private var quietHops = 0
    /// The probability on the last hop (0…1).
    private(set) var probability: Float = 0

    /// A network for the short window of `layout`.
    init(weights: OnsetNetworkWeights, layout: AnalysisLayout) {
        self.weights = weights
        bins = Self.bandBins(weights: weights, sampleRate: layout.sampleRate, window: layout.windows[0])
        rise = weights.floorRise * Float(layout.hopSeconds)
        floor = Array(repeating: 0, count: weights.bands)
        rings = weights.layers.map { Array(repeating: 0, count: (($0.kernel - 1) * $0.dilation + 1) * $0.inputs) }
        spans = weights.layers.map { ($0.kernel - 1) * $0.dilation + 1 }
        scratch = Array(repeating: 0, count: weights.layers.map(\.outputs).max() ?? 0)
    }

    /// The bands' bins: sixth-octave groups on the 48 kHz, 1024-point grid
    /// (`scripts/onset_network.py`'s `band_bins`), mapped to this layout's bins
    /// by frequency, so every rate gives the same number of bands.
    static func bandBins(weights w: OnsetNetworkWeights, sampleRate: Double, window n: Int) -> [(lo: Int, hi: Int)] {
        let refWidth = 48000.0 / 1024
        var k = max(1, Int((w.lowHz / refWidth).rounded(.up)))
        let kmax = min(513, Int((w.highHz / refWidth).rounded(.up)))
        let step = pow(2, 1 / w.perOctave) - 1
        var out: [(lo: Int, hi: Int)] = []
        let width = sampleRate / Double(n)
        while k < kmax {
            let hi = min(kmax, k + max(1, Int((Double(k) * step + 0.5).rounded(.down))))
            let lo2 = max(1, min(n / 2, Int((Double(k) * refWidth / width).rounded())))
            let hi2 = max(lo2 + 1, min(n / 2 + 1, Int((Double(hi) * refWidth / width).rounded())))
            out.append((lo2, hi2))
            k = hi
        }
        // A weights file for another band count cannot be fed: pad or cut to its count.
        while out.count < w.bands { out.append(out.last ?? (1, 2)) }
        return Array(out.prefix(w.bands))
    }

    /// One hop on the short window's power spectrum (`scale` makes it dBFS).
    /// Returns whether the network fires at `threshold` (a probability).
    mutating func step(power: UnsafePointer<Float>, scale: Float, threshold: Float) -> Bool {
        let b = weights.bands
        let first = weights.layers[0]
        let span0 = spans[0]
        rings[0].withUnsafeMutableBufferPointer { ring in
            let x = ring.baseAddress! + (position % span0) * first.inputs
            for i in 0..<b {
                var sum: Float = 0
                for k in bins[i].lo..<bins[i].hi { sum += power[k] }
                let db = 10 * log10(sum * scale + 1e-9)
                floor[i] = started ? min(db, floor[i] + rise) : db
                x[i] = db / 20
                x[b + i] = (db - floor[i]) / 20
            }
        }
        started = true
        var hidden = 0
        for l in 0..<weights.layers.count {
            let layer = weights.layers[l]
            let span = spans[l]
            let now = position % span
            rings[l].withUnsafeBufferPointer { ring in
                layer.weights.withUnsafeBufferPointer { w in
                    scratch.withUnsafeMutableBufferPointer { y in
                        for o in 0..<layer.outputs {
                            var acc = layer.bias[o]
                            for j in 0..<layer.kernel {
                                let back = (layer.kernel - 1 - j) * layer.dilation
                                let row = (now - back + span) % span
                                acc += Self.dot(w.baseAddress! + (o * layer.kernel + j) * layer.inputs,
                                                ring.baseAddress! + row * layer.inputs, layer.inputs)
                            }
                            y[o] = max(0, acc)
                        }
                    }
                }
            }
            hidden = layer.outputs
            if l + 1 < weights.layers.count {
                let nextSpan = spans[l + 1]
                let at = (position % nextSpan) * hidden
                for o in 0..<hidden { rings[l + 1][at + o] = scratch[o] }
            }
        }
        var z = weights.outputBias
        scratch.withUnsafeBufferPointer { y in
            weights.outputWeights.withUnsafeBufferPointer { w in z += Self.dot(w.baseAddress!, y.baseAddress!, hidden) }
        }
        position += 1
        probability = 1 / (1 + exp(-z))
        if quietHops > 0 { quietHops -= 1; armed = false }
        if armed && probability >= threshold {
            armed = false
            return true
        }
        if probability < 0.5 * threshold && quietHops == 0 { armed = true }
        return false
    }

    /// Fires nothing for `hops` hops (after a gap in the input).
    mutating func suppress(hops: Int) {
        quietHops = max(quietHops, hops)
        armed = false
    }

    /// Σ a[i]·b[i] over n floats: eight lanes, then the rest (a fixed order: deterministic).
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
        var acc = SIMD8<Float>(repeating: 0)
        var i = 0
        while i + 8 <= n {
            let va = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self)
            let vb = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self)
            acc += va * vb
            i += 8
        }
        var s = acc.sum()
        while i < n { s += a[i] * b[i]; i += 1 }
        return s
    }

    /// The threshold at a sensitivity (0…1): the trained one at 0.5, moved by
    /// ±2 in logit (about ×e² in odds) at the ends.
    static func threshold(trained: Float, sensitivity: Double) -> Float {
        let t = max(1e-4, min(1 - 1e-4, trained))
        let logit = log(t / (1 - t)) - 4 * (Float(max(0, min(1, sensitivity))) - 0.5)
        return 1 / (1 + exp(-logit))
    }
}
