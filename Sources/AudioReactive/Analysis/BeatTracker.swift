import Foundation

/// What the beat tracker says at one hop.
public struct BeatFeatures: Sendable, Hashable {
    /// Tempo in BPM (0 until one is found).
    public var tempo: Float = 0
    /// Position in the current beat, 0…1 (0 on the beat).
    public var phase: Float = 0
    /// How clearly the onsets repeat at this tempo, 0…1.
    public var confidence: Float = 0
    /// True on the hop where a beat falls.
    public var beat = false
    /// True on the hop where a bar (4/4) begins.
    public var bar = false
    /// Jumps to 1 on a beat and decays (the `beat` route source).
    public var beatPulse: Float = 0
    /// Jumps to 1 on a downbeat and decays (the `bar` route source).
    public var barPulse: Float = 0
    /// Beats since the last downbeat, 0…3.
    public var beatInBar = 0
    /// The tempo is held (a lock, or a tempo set from outside).
    public var held = false

    public init() {}
}

/// A command to the beat tracker from the user (a key, the panel, an action).
public enum BeatCommand: Sendable, Hashable {
    /// One tap of tap tempo at the current moment.
    case tap
    /// Doubles or halves the tempo.
    case double, half
    /// Holds the tempo (the phase still follows the music) or frees it.
    case lock(Bool)
    /// The next beat is a downbeat.
    case resetBar
    /// Sets the tempo in BPM from outside (OSC) and holds it like a lock.
    case setTempo(Float)
}

/// A causal beat tracker on a broadband onset-detection function (one value
/// per hop; the analyzer gives the `full` spectral flux plus half the rise
/// of the broadband level). Pure state machine, one step
/// per hop; allocates only in `init`.
///
/// - The flux is summed over pairs of hops (5.3 ms frames at 48 kHz) into a
///   window of the last 1024 frames (5.5 s).
/// - Every 48 frames (0.26 s) the tempo is re-estimated: the autocorrelation
///   of the mean-removed window, combed over 1–4 beat periods (weights 1/m)
///   plus half a period (weight 1.5: a beat of 4/4 music is divided in two, so
///   a dotted alias — two thirds of the tempo, whose half falls between the
///   eighths — loses to the true beat; a fast break may still be heard at
///   half tempo), and
///   weighted by a log-normal tempo preference (one octave wide) centred
///   on `onsetsPerBeat` onsets a beat at the onset rate (the window's, held
///   where higher with a 30-s half-life; 120 BPM before any onset, the
///   user's tempo once set): a fast break heard at half tempo puts four
///   onsets in a beat, a sparse piece at double tempo one. It picks the
///   period in 60–200 BPM, refined by a parabola; double
///   or half the current tempo is picked only when it scores `octaveMargin`
///   times the current one's best (within a frame of its lag: an octave
///   error blinks in for a few seconds on a fast break otherwise). A new
///   tempo more than 4 % away replaces the current one only when two
///   estimates in a row agree on it. Confidence is the normalised
///   autocorrelation at the period.
/// - The phase: pulses one period apart over the last 8 beats (newer ones
///   weigh more) are matched against the window of the flux plus, at equal
///   weight (each over its window's mean), the accent (`BeatAccent`: the
///   power a snare or clap adds in 600 Hz – 4 kHz; a break whose kicks fall
///   between the beats would put the beat half a beat off on the flux
///   alone, which weighs a soft hit like a loud one); the best offset predicts
///   the next beat. A prediction within a quarter period of the current one
///   pulls it halfway; farther ones replace it after two updates in a row.
/// - A beat fires on the hop whose end passes the predicted beat; beats stop
///   while confidence is below `minConfidence` or no music is heard.
/// - Tap tempo: taps less than 2 s apart set the tempo (median interval of
///   the last four) and put a beat on the last tap; ×2 / ÷2 move the tempo
///   and the preference; a lock keeps the tempo fixed.
public struct BeatTracker: Sendable {
    /// The last hop's output.
    public private(set) var features = BeatFeatures()
    /// Tempo held by the user.
    public private(set) var locked = false

    static let framesPerUpdate = 48
    static let windowFrames = 1024
    static let minBPM: Double = 60, maxBPM: Double = 200
    static let preferredBPM: Double = 120
    static let minConfidence: Float = 0.08
    static let pulseDecaySeconds: Double = 0.1
    static let subdivisionWeight: Float = 1.5
    /// The current tempo's double or half must score this much better to be estimated (octave inertia).
    static let octaveMargin: Float = 1.2
    /// Weight of the accent against the flux in the phase (each over its mean).
    static let accentWeight: Float = 1
    /// Onsets per beat where the tempo preference centres (on the onset rate held over `rateHalfLife`).
    static let onsetsPerBeat: Double = 2
    /// The held onset rate halves over this many seconds (a quiet stretch does not slow the beat heard).
    static let rateHalfLife: Double = 30

    private let hopsPerFrame: Int
    private let frameSeconds: Double
    private let hopSeconds: Double
    private var odf: [Float]
    /// The accent (`BeatAccent`) per frame, a ring like `odf`.
    private var accents: [Float]
    /// Onsets per frame, a ring like `odf`.
    private var onsetCounts: [Float]
    private var onsetsInFrame: Float = 0
    /// Whether the user has moved the preference (tap, ×2, ÷2, a set tempo): then the onset rate no longer moves it.
    private var userPreferred = false
    /// Onsets per second: the window's rate, or the held one decayed (`rateHalfLife`) where higher.
    private var heldRate: Double = 0
    private let rateDecay: Double
    /// What the phase hears per frame: the flux and `accentWeight` × the accent, each over its window's mean.
    private var phaseScale: (odf: Float, accent: Float) = (1, 0)
    private var scratch: [Float]
    private var ac: [Float]
    private var score: [Float]
    private var write = 0
    private var filled = 0
    private var frameSum: Float = 0
    private var accentSum: Float = 0
    private var hopInFrame = 0
    private var framesToUpdate = framesPerUpdate
    private var hop: Int64 = 0
    /// The beat period in hops (0 = none) and the next predicted beat (hop index, fractional).
    private var period: Double = 0
    private var nextBeat: Double = 0
    private var candidate: Double = 0
    private var phaseMisses = 0
    private var preferred = preferredBPM
    private var taps: InlineArray<5, Int64> = InlineArray(repeating: -1)
    private var tapCount = 0
    private var pulseDecay: Float

    /// A tracker for hops of `hopSeconds` (about 2.67 ms).
    public init(hopSeconds: Double) {
        self.hopSeconds = hopSeconds
        hopsPerFrame = max(1, Int((0.005 / hopSeconds).rounded()))
        frameSeconds = hopSeconds * Double(hopsPerFrame)
        odf = Array(repeating: 0, count: 2 * Self.windowFrames)
        accents = odf
        onsetCounts = odf
        scratch = Array(repeating: 0, count: Self.windowFrames)
        let maxLag = Int(60 / Self.minBPM / frameSeconds) + 2
        ac = Array(repeating: 0, count: 4 * maxLag + 2)
        score = Array(repeating: 0, count: maxLag + 2)
        pulseDecay = Float(exp(-hopSeconds / Self.pulseDecaySeconds))
        rateDecay = pow(0.5, Double(Self.framesPerUpdate) * frameSeconds / Self.rateHalfLife)
    }

    /// Tempo range in frames of lag.
    private var lagRange: ClosedRange<Int> {
        Int(60 / Self.maxBPM / frameSeconds)...Int(60 / Self.minBPM / frameSeconds) + 1
    }

    /// One hop: `flux` the broadband onset-detection value, `accent` the
    /// hop's `BeatAccent`, `onset` whether a broadband onset fired, `music`
    /// whether music is heard (a gate open). Returns this hop's features.
    public mutating func process(flux: Float, accent: Float = 0, onset: Bool = false, music: Bool) -> BeatFeatures {
        hop += 1
        if onset { onsetsInFrame += 1 }
        frameSum += max(0, flux)
        accentSum += accent  // ≥ 0 (`BeatAccent`)
        hopInFrame += 1
        if hopInFrame == hopsPerFrame {
            push(frameSum, accentSum, onsetsInFrame)
            onsetsInFrame = 0
            frameSum = 0
            accentSum = 0
            hopInFrame = 0
            framesToUpdate -= 1
            if framesToUpdate == 0 {
                framesToUpdate = Self.framesPerUpdate
                if filled >= Self.windowFrames / 2 { update() }
            }
        }
        var f = features
        f.beat = false
        f.bar = false
        f.beatPulse *= pulseDecay
        f.barPulse *= pulseDecay
        if period > 0 {
            let now = Double(hop)
            if now >= nextBeat {
                while nextBeat <= now { nextBeat += period }
                f.beatInBar = (f.beatInBar + 1) % 4
                if music && f.confidence >= Self.minConfidence {
                    f.beat = true
                    f.beatPulse = 1
                    if f.beatInBar == 0 { f.bar = true; f.barPulse = 1 }
                }
            }
            f.phase = Float(max(0, min(1, 1 - (nextBeat - now) / period)))
            f.tempo = Float(60 / (period * hopSeconds))
        }
        if !music { f.confidence *= pulseDecay }
        f.held = locked
        features = f
        return f
    }

    /// Applies a user command at the current hop.
    public mutating func apply(_ c: BeatCommand) {
        switch c {
        case .tap: tap()
        case .double: setPeriod(period / 2, moving: true)
        case .half: setPeriod(period * 2, moving: true)
        case .lock(let on): locked = on && period > 0
        case .resetBar: features.beatInBar = 3
        case .setTempo(let bpm):
            guard bpm.isFinite, bpm > 0 else { return }
            setPeriod(60 / (Double(bpm) * hopSeconds), moving: true)
            locked = period > 0
            features.confidence = max(features.confidence, 0.5)
        }
    }

    private mutating func setPeriod(_ p: Double, moving: Bool) {
        guard p > 0 else { return }
        let bpm = 60 / (p * hopSeconds)
        guard bpm >= Self.minBPM / 2 && bpm <= Self.maxBPM * 2 else { return }
        period = p
        if moving { preferred = min(Self.maxBPM, max(Self.minBPM, bpm)); userPreferred = true }
        candidate = 0
        if nextBeat < Double(hop) { nextBeat = Double(hop) + p }
    }

    private mutating func tap() {
        let last = taps[(tapCount + 4) % 5]
        if last >= 0 && Double(hop - last) * hopSeconds > 2 { tapCount = 0; for i in 0..<5 { taps[i] = -1 } }
        taps[tapCount % 5] = hop
        tapCount += 1
        let n = min(tapCount, 5)
        guard n >= 2 else { return }
        var gaps: InlineArray<4, Double> = InlineArray(repeating: 0)
        var k = 0
        for i in 1..<n {
            let a = taps[(tapCount - i) % 5], b = taps[(tapCount - i - 1 + 5) % 5]
            gaps[k] = Double(a - b); k += 1
        }
        // Median of the k gaps (k ≤ 4): sort in place.
        for i in 0..<k { for j in (i + 1)..<max(i + 1, k) where gaps[j] < gaps[i] { let t = gaps[i]; gaps[i] = gaps[j]; gaps[j] = t } }
        let p = k % 2 == 1 ? gaps[k / 2] : (gaps[k / 2 - 1] + gaps[k / 2]) / 2
        setPeriod(p, moving: true)
        nextBeat = Double(hop) + period
        features.beatInBar = 0
        features.confidence = max(features.confidence, 0.5)
    }

    private mutating func push(_ v: Float, _ a: Float, _ onsets: Float) {
        onsetCounts[write] = onsets
        onsetCounts[write + Self.windowFrames] = onsets
        odf[write] = v
        odf[write + Self.windowFrames] = v
        accents[write] = a
        accents[write + Self.windowFrames] = a
        write = (write + 1) % Self.windowFrames
        filled = min(filled + 1, Self.windowFrames)
    }

    /// Re-estimates the tempo (unless locked) and the phase.
    private mutating func update() {
        let n = filled
        let start = write + Self.windowFrames - n // oldest of the filled frames
        var mean: Float = 0
        var accentMean: Float = 0, onsetCount: Float = 0
        for i in 0..<n { mean += odf[start + i]; accentMean += accents[start + i]; onsetCount += onsetCounts[start + i] }
        // Busier music is heard at a faster beat: the preference centres on the held onset rate.
        heldRate = max(Double(onsetCount) / (Double(n) * frameSeconds), heldRate * rateDecay)
        let centre = userPreferred || heldRate <= 0 ? preferred
            : min(Self.maxBPM, max(Self.minBPM, 60 * heldRate / Self.onsetsPerBeat))
        mean /= Float(n)
        accentMean /= Float(n)
        phaseScale = mean > 1e-9 && accentMean > 1e-12 ? (1 / mean, Self.accentWeight / accentMean) : (1, 0)
        var energy: Float = 0
        for i in 0..<n { let x = odf[start + i] - mean; scratch[i] = x; energy += x * x }
        guard energy > 1e-9 else { return }
        let lags = lagRange
        let maxLag = min(ac.count - 1, n / 2)
        scratch.withUnsafeBufferPointer { x in
            let x0 = x.baseAddress!
            for l in 1...maxLag {  // eight lanes at a time: a scalar sum waited on each add (~0.1 % of a core live)
                let s = OnsetNetwork.dot(x0 + l, x0, n - l)
                ac[l] = s / (energy * Float(n - l) / Float(n))
            }
        }
        var best = lags.lowerBound, bestScore: Float = -.infinity
        for l in lags where l <= maxLag {
            var s: Float = 0
            for m in 1...4 where m * l <= maxLag { s += ac[m * l] / Float(m) }
            s += Self.subdivisionWeight * ac[l / 2] // the beat's halves: eighths count for the faster level
            let bpm = 60 / (Double(l) * frameSeconds)
            let octaves = log2(bpm / centre)
            s *= Float(exp(-0.5 * octaves * octaves))
            score[l] = s
            if s > bestScore { bestScore = s; best = l }
        }
        if period > 0 && !locked {
            // Octave inertia: the current tempo's double or half takes over only when it clearly scores better.
            let current = Int((period / Double(hopsPerFrame)).rounded())
            if lags.contains(current) && current <= maxLag {
                let ratio = Double(best) / Double(current)
                let octave = abs(ratio / 2 - 1) <= 0.06 || abs(ratio * 2 - 1) <= 0.06
                var here = current
                for l in max(lags.lowerBound, current - 1)...min(lags.upperBound, maxLag, current + 1) where score[l] > score[here] {
                    here = l
                }
                if octave && bestScore < Self.octaveMargin * score[here] { best = here; bestScore = score[here] }
            }
        }
        var lag = Double(best)
        if best > lags.lowerBound && best < min(lags.upperBound, maxLag) {
            let a = score[best - 1], b = score[best], c = score[best + 1]
            let den = a - 2 * b + c
            if den < 0 { lag += Double(max(-0.5, min(0.5, 0.5 * (a - c) / den))) }
        }
        features.confidence = max(0, min(1, ac[best]))
        let estimate = lag * Double(hopsPerFrame)
        if !locked {
            if period == 0 || abs(estimate / period - 1) <= 0.04 {
                period = period == 0 ? estimate : 0.5 * (period + estimate)
                candidate = 0
            } else if candidate > 0 && abs(estimate / candidate - 1) <= 0.04 {
                period = estimate
                candidate = 0
            } else {
                candidate = estimate
            }
        }
        updatePhase()
    }

    /// Matches a pulse train at the current period against the window and
    /// moves the predicted beat toward its best offset.
    private mutating func updatePhase() {
        guard period > 0 else { return }
        let p = period / Double(hopsPerFrame) // frames
        let newest = write + Self.windowFrames - 1
        var bestOffset = 0, bestScore: Float = -1
        for off in 0..<Int(p.rounded(.up)) {
            var s: Float = 0, w: Float = 1
            for m in 0..<8 {
                let back = Int((Double(off) + Double(m) * p).rounded())
                guard back < filled - 1 else { break }
                let i = newest - back
                let j = i + (back > 0 ? 1 : 0)
                s += w * (phaseScale.odf * (odf[i] + 0.5 * (odf[i - 1] + odf[j]))
                          + phaseScale.accent * (accents[i] + 0.5 * (accents[i - 1] + accents[j])))
                w *= 0.8
            }
            if s > bestScore { bestScore = s; bestOffset = off }
        }
        // The frame `bestOffset` back ends `bestOffset` frames before now: its beat is there.
        let lastBeat = Double(hop) - Double(bestOffset * hopsPerFrame) - Double(hopsPerFrame - 1) / 2
        var predicted = lastBeat + period
        while predicted <= Double(hop) { predicted += period }
        var diff = predicted - nextBeat
        diff -= period * (diff / period).rounded()
        if nextBeat <= 0 || phaseMisses >= 1 && abs(diff) >= 0.25 * period {
            nextBeat = predicted
            phaseMisses = 0
        } else if abs(diff) < 0.25 * period {
            nextBeat += 0.5 * diff
            phaseMisses = 0
        } else {
            phaseMisses += 1
        }
        while nextBeat <= Double(hop) { nextBeat += period }
    }
}
