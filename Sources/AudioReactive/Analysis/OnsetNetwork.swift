import Foundation

/// The onset network's input for one hop, computed from the short window's
/// power spectrum and the DSP detector's state (`OnsetNetwork` steps on it;
/// `physarum analyze --onset-input FILE` writes it for `scripts/onset-train`,
/// so training sees exactly the numbers the analysis computes live).
///
/// Per band (`bands` groups about a sixth of an octave wide, 30 Hz – 16 kHz
/// on the 48 kHz, 1024-point grid, mapped by frequency to other rates):
/// - its level, dB / 20;
/// - its height over a floor that follows a fall at once and a rise at
///   `floorRise` dB/s, / 20 (how far it stands above the room);
/// - its flux: the rise of its dB over the loudest of it and its two
///   neighbours 2–5 hops back, half-wave rectified, / 20 (the DSP flux's rule
///   on these bands: vibrato, glides and beating give none).
/// Then `detectorCount` values of the DSP detector on this hop
/// (`DetectorState`): what it decided and why, so that the network learns
/// when to trust it rather than onsets from scratch.
///
/// Pure state machine; allocates only in `init`. Single-threaded.
struct OnsetNetworkInput {
    /// The DSP detector's part of the input (values already scaled).
    struct DetectorState {
        /// `full`'s broadband flux between its recent median (0) and its threshold (1), clamped −2…8, / 4.
        var support: Float = 0
        /// 1 when the DSP detector fired `full` on this hop.
        var fired: Float = 0
        /// What the fusion passed to `full` on this hop (0: nothing).
        var trigger: Float = 0
        /// Time since the DSP detector's last `full` onset before this hop, / 0.25 s, at most 1.
        var recency: Float = 1
        /// 1 while `full`'s gate lets onsets through (and not at a stream's held start).
        var allowed: Float = 0
        /// The level paths' rises over their thresholds (clamped 0…8, / 4).
        var upperRise: Float = 0
        var broadRise: Float = 0
        /// How much of the room's floor counts as noise (0…1).
        var noiseShare: Float = 0

        /// The values scaled from the detector's: `support` of `full`'s flux, whether it
        /// `fired`, the fusion's `trigger`, seconds since its last onset before this hop,
        /// whether onsets are `allowed`, and the fusion's `levelEvidence`.
        init(support s: Float, fired f: Bool, trigger t: Float?, sinceOnset: Float, allowed a: Bool,
             evidence e: (upper: Float, broad: Float, noiseShare: Float)) {
            support = max(-2, min(8, s)) / 4
            fired = f ? 1 : 0
            trigger = t ?? 0
            recency = min(sinceOnset, 0.25) / 0.25
            allowed = a ? 1 : 0
            upperRise = max(0, min(8, e.upper)) / 4
            broadRise = max(0, min(8, e.broad)) / 4
            noiseShare = e.noiseShare
        }

        func write(to x: UnsafeMutablePointer<Float>) {
            x[0] = support; x[1] = fired; x[2] = trigger; x[3] = recency
            x[4] = allowed; x[5] = upperRise; x[6] = broadRise; x[7] = noiseShare
        }
    }

    static let detectorCount = 8
    /// Values per band: level, height, flux.
    static let perBand = 3
    /// The flux's reference: the hops `fluxLag` … `fluxLag + fluxFrames − 1` back.
    static let fluxLag = 2
    static let fluxFrames = 4

    static let defaultBands = 40
    static let defaultLowHz = 30.0, defaultHighHz = 16000.0, defaultPerOctave = 6.0
    static let defaultFloorRise: Float = 10

    let bands: Int
    /// Values per hop.
    var count: Int { Self.perBand * bands + Self.detectorCount }
    private let bins: [(lo: Int, hi: Int)]
    private let rise: Float
    private var floor: [Float]
    /// The bands' dB of the last `fluxLag + fluxFrames` hops, a ring.
    private var past: [Float]
    private var hop = 0
    /// This hop's values.
    private(set) var values: [Float]

    init(bands: Int = defaultBands, lowHz: Double = defaultLowHz, highHz: Double = defaultHighHz,
         perOctave: Double = defaultPerOctave, floorRise: Float = defaultFloorRise, layout: AnalysisLayout) {
        self.bands = bands
        bins = Self.bandBins(bands: bands, lowHz: lowHz, highHz: highHz, perOctave: perOctave,
                             sampleRate: layout.sampleRate, window: layout.windows[0])
        rise = floorRise * Float(layout.hopSeconds)
        floor = Array(repeating: 0, count: bands)
        past = Array(repeating: -90, count: bands * (Self.fluxLag + Self.fluxFrames))  // 10 log10(1e-9): silence
        values = Array(repeating: 0, count: Self.perBand * bands + Self.detectorCount)
    }

    /// The bands' bins: sixth-octave groups on the 48 kHz, 1024-point grid,
    /// mapped to this layout's bins by frequency, so every rate gives the same
    /// number of bands (cut or padded to `bands`).
    static func bandBins(bands: Int, lowHz: Double, highHz: Double, perOctave: Double,
                         sampleRate: Double, window n: Int) -> [(lo: Int, hi: Int)] {
        let refWidth = 48000.0 / 1024
        var k = max(1, Int((lowHz / refWidth).rounded(.up)))
        let kmax = min(513, Int((highHz / refWidth).rounded(.up)))
        let step = pow(2, 1 / perOctave) - 1
        var out: [(lo: Int, hi: Int)] = []
        let width = sampleRate / Double(n)
        while k < kmax {
            let hi = min(kmax, k + max(1, Int((Double(k) * step + 0.5).rounded(.down))))
            let lo2 = max(1, min(n / 2, Int((Double(k) * refWidth / width).rounded())))
            let hi2 = max(lo2 + 1, min(n / 2 + 1, Int((Double(hi) * refWidth / width).rounded())))
            out.append((lo2, hi2))
            k = hi
        }
        while out.count < bands { out.append(out.last ?? (1, 2)) }
        return Array(out.prefix(bands))
    }

    /// The spectral part from the short window's power spectrum (`scale` makes it dBFS).
    mutating func spectrum(power: UnsafePointer<Float>, scale: Float) {
        let b = bands
        let frames = Self.fluxLag + Self.fluxFrames
        let cur = hop % frames
        past.withUnsafeMutableBufferPointer { ring in
            values.withUnsafeMutableBufferPointer { x in
                for i in 0..<b {
                    var sum: Float = 0
                    for k in bins[i].lo..<bins[i].hi { sum += power[k] }
                    let db = 10 * log10(sum * scale + 1e-9)
                    floor[i] = hop > 0 ? min(db, floor[i] + rise) : db
                    x[i] = db / 20
                    x[b + i] = (db - floor[i]) / 20
                    ring[cur * b + i] = db
                }
                for i in 0..<b {
                    var m: Float = -1000
                    for j in Self.fluxLag..<frames {
                        let row = ((cur - j + frames) % frames) * b
                        m = max(m, ring[row + i], ring[row + max(0, i - 1)], ring[row + min(b - 1, i + 1)])
                    }
                    x[2 * b + i] = max(0, ring[cur * b + i] - m) / 20
                }
            }
        }
        hop += 1
    }

    /// The DSP detector's part.
    mutating func detector(_ d: DetectorState) {
        values.withUnsafeMutableBufferPointer { d.write(to: $0.baseAddress! + Self.perBand * bands) }
    }
}

/// The learned onset detector at run time: a small causal network over
/// `OnsetNetworkInput` (the short window's bands and the DSP detector's
/// state), one step per hop, plain Swift on arrays: causal dilated
/// convolutions over the hops (ReLU) and a linear output whose sigmoid is the
/// probability that an onset has just arrived. With weights, the analysis
/// keeps a DSP onset of `full` only where that probability reaches the
/// weights' threshold (`Analyzer`): a learned veto of the detector's false
/// onsets (the ring of a hat, a synth bass's body).
///
/// Trained by `scripts/onset-train` on generated audio from the tuning
/// sources only, on the inputs the analysis itself writes (`physarum analyze
/// --onset-input`); `scripts/onset_network.py` computes the same layers.
/// Deterministic: the output depends only on the samples (same operations in
/// the same order on every run, offline or live). Pure state machine;
/// allocates only in `init`. Single-threaded.
struct OnsetNetwork {
    let weights: OnsetNetworkWeights
    /// Per layer: its input history, a ring of `span` vectors of `inputs` floats.
    private var rings: [[Float]]
    private var spans: [Int]
    private var position = 0
    private var scratch: [Float]
    /// The probability on the last hop (0…1).
    private(set) var probability: Float = 0
    /// Hops the output looks back over (its receptive field).
    let context: Int
    /// Whether the network has heard a whole context since the stream began.
    var heardContext: Bool { position >= context }

    /// A network with `weights` (its input comes from an `OnsetNetworkInput` made for them).
    init(weights: OnsetNetworkWeights) {
        self.weights = weights
        rings = weights.layers.map { Array(repeating: 0, count: (($0.kernel - 1) * $0.dilation + 1) * $0.inputs) }
        spans = weights.layers.map { ($0.kernel - 1) * $0.dilation + 1 }
        context = spans.reduce(1) { $0 + $1 - 1 }
        scratch = Array(repeating: 0, count: weights.layers.map(\.outputs).max() ?? 0)
    }

    /// One hop on its input (`OnsetNetworkInput.values`): sets `probability`.
    mutating func step(input: [Float]) {
        let first = weights.layers[0]
        let span0 = spans[0]
        rings[0].withUnsafeMutableBufferPointer { ring in
            input.withUnsafeBufferPointer { v in
                (ring.baseAddress! + (position % span0) * first.inputs).update(from: v.baseAddress!, count: first.inputs)
            }
        }
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
    /// ±2 in logit (about ×e² in odds) at the ends (more sensitive: fewer vetoes).
    static func threshold(trained: Float, sensitivity: Double) -> Float {
        let t = max(1e-4, min(1 - 1e-4, trained))
        let logit = log(t / (1 - t)) - 4 * (Float(max(0, min(1, sensitivity))) - 0.5)
        return 1 / (1 + exp(-logit))
    }
}
