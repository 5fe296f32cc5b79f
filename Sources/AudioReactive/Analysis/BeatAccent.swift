/// The beat tracker's accent: the rise of the short spectrum's linear power
/// in 600 Hz – 4 kHz over its largest value 2 to 5 hops back, square-rooted
/// (an amplitude). A snare or a clap puts far more power there than a kick's
/// click or a hat, so in a break whose kicks fall between the beats the
/// accent still marks the backbeat; the broadband flux, a rise in dB, weighs
/// a soft hit like a loud one. The reference span is the flux's
/// (`Analyzer.fluxLag` … `fluxLag + referenceFrames − 1` hops back). Fixed
/// in Hz: the user's band edges do not move it. Pure state; no allocation.
struct BeatAccent {
    static let lowHz = 600.0, highHz = 4000.0
    static let firstBack = 2
    private let bins: Range<Int>
    private var back: InlineArray<5, Float> = InlineArray(repeating: 0)
    private var write = 0

    /// For a spectrum of `window` samples at `sampleRate`.
    init(window: Int, sampleRate: Double) {
        let width = sampleRate / Double(window)
        let lo = max(1, Int((Self.lowHz / width).rounded(.up)))
        let hi = max(lo + 1, min(window / 2 + 1, Int((Self.highHz / width).rounded(.up))))
        bins = lo..<hi
    }

    /// This hop's accent from its power spectrum (`scale` to full-scale power).
    mutating func step(power p: UnsafeMutablePointer<Float>, scale: Float) -> Float {
        var sum: Float = 0
        for k in bins { sum += p[k] }
        sum *= scale
        var reference: Float = 0
        for j in Self.firstBack...back.count { reference = max(reference, back[(write - j + 2 * back.count) % back.count]) }
        back[write] = sum
        write = (write + 1) % back.count
        return max(0, sum - reference).squareRoot()
    }
}
