import Foundation

/// Where bars begin, estimated from the music (4/4 assumed): causal, one
/// step per hop, a decision on every beat the tracker emits. Pure state
/// machine; allocates only in `init`. Single-threaded.
///
/// On each beat it looks back along the current beat grid (period P) over
/// the last `lookBack` beats (as many as its 11-s memory holds) and scores
/// each of the four places in the bar by the beats that fall there:
/// - **low-band onsets**: the strongest `sub` + `bass` flux within P/8 of
///   the beat, over the mean of those beats (a kick on the one), weight
///   `lowWeight`;
/// - **mid-band onsets**: the same for `mid` (a snare or a clap: the
///   backbeat), counted against it, weight `midWeight`;
/// - **harmonic change**: 1 − cosine between the pitch-class profiles
///   (100 Hz – 1 kHz, the long window) of the beat after it and the beat
///   before it, over their mean (chords change on the bar), `changeWeight`;
/// - **where the music started**: the place of the first onset after a
///   second without any (music tends to begin on a bar), `startWeight`,
///   for `startBeats` beats after it.
/// Looking back along the grid (not counting beats) keeps a phase jump of
/// the beat tracker from shifting the bar. The weights were chosen on the
/// tuning set (`scripts/onset-eval`); "Bar" from the user (`resetBar`)
/// makes the next beat a downbeat and holds the count from there.
struct DownbeatTracker {
    static let lowWeight: Float = 1.5
    static let midWeight: Float = 1
    static let changeWeight: Float = 0.25
    static let startWeight: Float = 1.5
    static let startBeats: Float = 64
    static let lookBack = 16
    /// A second without onsets before an onset makes it a start.
    static let startGap = 1.0
    static let ringHops = 4096
    static let hopsPerFrame = 4

    private var low: [Float]
    private var mid: [Float]
    /// Pitch-class power per frame of `hopsPerFrame` hops, a ring of `ringHops / hopsPerFrame` frames × 12.
    private var frames: [Float]
    private var hop = 0
    private let chromaBins: [(bin: Int, pitchClass: Int)]
    private let hopSeconds: Double
    private var lastOnsetHop = Int.min / 2
    private var startHop = -1
    private var held = false
    private var beatInBar = 0
    private var barPulse: Float = 0
    private let pulseDecay: Float
    private var evidence: [(low: Float, mid: Float, change: Float, place: Int)] = []

    init(layout: AnalysisLayout) {
        low = Array(repeating: 0, count: Self.ringHops)
        mid = Array(repeating: 0, count: Self.ringHops)
        frames = Array(repeating: 0, count: Self.ringHops / Self.hopsPerFrame * 12)
        let n = layout.windows[layout.windows.count - 1]
        let width = layout.sampleRate / Double(n)
        var bins: [(Int, Int)] = []
        for k in Int((100 / width).rounded(.up))...Int(1000 / width) {
            let midi = 69 + 12 * log2(Double(k) * width / 440)
            bins.append((k, ((Int(midi.rounded()) % 12) + 12) % 12))
        }
        chromaBins = bins
        hopSeconds = layout.hopSeconds
        pulseDecay = Float(exp(-layout.hopSeconds / 0.1))
        evidence.reserveCapacity(Self.lookBack)
    }

    /// One hop's evidence: `lowFlux` (`sub` + `bass`), `midFlux`, whether the
    /// broadband onset fired, and the long window's power spectrum.
    mutating func observe(lowFlux: Float, midFlux: Float, onset: Bool, longPower: UnsafePointer<Float>) {
        low[hop % Self.ringHops] = lowFlux
        mid[hop % Self.ringHops] = midFlux
        let frameCount = Self.ringHops / Self.hopsPerFrame
        let f = (hop / Self.hopsPerFrame) % frameCount * 12
        if hop % Self.hopsPerFrame == 0 { for i in 0..<12 { frames[f + i] = 0 } }
        for (k, pc) in chromaBins { frames[f + pc] += longPower[k] }
        if onset {
            if Double(hop - lastOnsetHop) * hopSeconds >= Self.startGap { startHop = hop }
            lastOnsetHop = hop
        }
        hop += 1
    }

    /// The user's "Bar": the next beat is a downbeat, and the count holds from there.
    mutating func resetBar() {
        beatInBar = 3
        held = true
    }

    /// Labels this hop's beat output with the estimated bar (`beatInBar`, `bar`, `barPulse`).
    mutating func label(_ b: BeatFeatures) -> BeatFeatures {
        var f = b
        barPulse *= pulseDecay
        if b.beat {
            if held || b.tempo <= 0 {
                beatInBar = (beatInBar + 1) % 4
            } else {
                beatInBar = estimate(period: 60 / (Double(b.tempo) * hopSeconds))
            }
            if beatInBar == 0 { barPulse = 1 }
        }
        f.beatInBar = beatInBar
        f.bar = b.beat && beatInBar == 0
        f.barPulse = barPulse
        return f
    }

    /// The current beat's place in the bar (0 = a downbeat), from the beats `period` hops apart before it.
    private mutating func estimate(period p: Double) -> Int {
        let now = hop - 1
        let eighth = max(1, Int(p / 8))
        evidence.removeAll(keepingCapacity: true)
        var meanLow: Float = 0, meanMid: Float = 0, meanChange: Float = 0
        for j in 1...Self.lookBack {
            let c = Int((Double(now) - Double(j) * p).rounded())
            guard c - Int(p) - eighth > now - Self.ringHops + Self.hopsPerFrame, c >= Int(p) else { break }
            var lo: Float = 0, mi: Float = 0
            for h in (c - eighth)...(c + eighth) {
                lo = max(lo, low[h % Self.ringHops])
                mi = max(mi, mid[h % Self.ringHops])
            }
            let change = profileChange(at: c, period: p, now: now)
            evidence.append((lo, mi, change, j % 4))
            meanLow += lo; meanMid += mi; meanChange += change
        }
        guard !evidence.isEmpty else { return (beatInBar + 1) % 4 }
        let n = Float(evidence.count)
        meanLow = max(1e-6, meanLow / n); meanMid = max(1e-6, meanMid / n); meanChange = max(1e-6, meanChange / n)
        var scores: InlineArray<4, Float> = InlineArray(repeating: 0)
        for e in evidence {
            scores[e.place] += (Self.lowWeight * e.low / meanLow - Self.midWeight * e.mid / meanMid
                                + Self.changeWeight * e.change / meanChange) * 4 / n
        }
        if startHop >= 0 && Double(now - startHop) * hopSeconds >= 0.1 {
            let k = Double(now - startHop) / p
            if k < Double(Self.startBeats) { scores[Int(k.rounded()) % 4] += Self.startWeight }
        }
        var best = 0
        for i in 1..<4 where scores[i] > scores[best] { best = i }
        return best
    }

    /// 1 − cosine between the pitch-class profiles of the beat after hop `c` and the beat before it.
    private func profileChange(at c: Int, period p: Double, now: Int) -> Float {
        let frameCount = Self.ringHops / Self.hopsPerFrame
        var after: InlineArray<12, Float> = InlineArray(repeating: 0), before: InlineArray<12, Float> = InlineArray(repeating: 0)
        let c0 = c / Self.hopsPerFrame, span = max(1, Int(p) / Self.hopsPerFrame)
        let last = now / Self.hopsPerFrame
        for fr in c0..<min(last, c0 + span) { for i in 0..<12 { after[i] += frames[fr % frameCount * 12 + i] } }
        for fr in max(0, c0 - span)..<c0 { for i in 0..<12 { before[i] += frames[fr % frameCount * 12 + i] } }
        var dot: Float = 0, a: Float = 0, b: Float = 0
        for i in 0..<12 { dot += after[i] * before[i]; a += after[i] * after[i]; b += before[i] * before[i] }
        return a > 0 && b > 0 ? 1 - dot / (a * b).squareRoot() : 0
    }
}
