import Foundation

/// The fixed structure of the analysis for one sample rate: hop and window
/// lengths. Not live-tunable (FFT plans are made once from it).
///
/// At 48 kHz: hop 128 samples (2.67 ms); Hann windows of 1024 samples for
/// `lowMid` … `brilliance`, `full` and every transient; 2048 for `bass` and
/// 4096 for `sub`, so their bands span several bins. A window's centre lies
/// half a window behind the newest sample: 10.7 ms for 1024, 21.3 ms for
/// `bass` and 42.7 ms for `sub` (their extra lag over the short window: 10.7
/// and 32 ms).
public struct AnalysisLayout: Sendable, Equatable {
    /// Samples per second.
    public let sampleRate: Double
    /// Samples per hop (one `AudioFeatures` per hop).
    public let hop: Int
    /// The distinct FFT window lengths, ascending; index 0 is the short window.
    public let windows: [Int]
    /// Per source (`AudioSourceID.index`): index into `windows` for its level.
    public let levelWindow: [Int]

    /// The layout used everywhere: sizes scaled by the power of two nearest
    /// to `sampleRate / 48000`, so time and frequency resolution stay alike.
    public static func standard(sampleRate: Double = 48000) -> AnalysisLayout {
        let ratio = max(0.125, min(8, sampleRate / 48000))
        let scale = pow(2, (log2(ratio)).rounded())
        let s = { (n: Int) in max(16, Int(Double(n) * scale)) }
        //                sub bass lowMid mid highMid presence brilliance full
        let level = [2, 1, 0, 0, 0, 0, 0, 0]
        return AnalysisLayout(sampleRate: sampleRate, hop: s(128), windows: [s(1024), s(2048), s(4096)],
                              levelWindow: level)
    }

    /// Seconds per hop.
    public var hopSeconds: Double { Double(hop) / sampleRate }

    /// The longest window (the length of input history kept).
    public var longestWindow: Int { windows.max() ?? 0 }

}

/// Which FFT bins and flux groups belong to which source, for one layout and
/// one set of band edges. Built off the hot path when edges change.
struct BandMap {
    /// Per source: bins `lo..<hi` of spectrum `window` summed for its level.
    var levelBins: [(window: Int, lo: Int, hi: Int)] = []
    /// Flux groups on the short spectrum: bins `lo..<hi` each, ascending in frequency.
    var groups: [(lo: Int, hi: Int)] = []
    /// Per source: groups `lo..<hi` whose flux it averages (`full`: all of them).
    var sourceGroups: [(lo: Int, hi: Int)] = []
    /// `bass`'s bins on the short spectrum (window 0).
    var bassShortBins: (lo: Int, hi: Int) = (1, 1)

    /// Groups are about a sixth of an octave wide, at least one bin.
    static let groupsPerOctave = 6.0

    init(layout: AnalysisLayout, edges: [Double]) {
        precondition(edges.count == AudioSourceID.count, "8 band edges expected")
        let rate = layout.sampleRate
        let nyquist = rate / 2
        func binRange(_ n: Int, _ f0: Double, _ f1: Double) -> (Int, Int) {
            let width = rate / Double(n)
            let maxBin = n / 2
            var lo = Int((f0 / width).rounded(.up))
            var hi = Int((min(f1, nyquist) / width).rounded(.up)) // first bin at or above f1
            lo = max(1, min(lo, maxBin))
            hi = max(1, min(hi, maxBin + 1))
            if hi <= lo { // narrower than a bin: the bin nearest the band's centre
                let centre = Int((sqrt(f0 * max(f0, min(f1, nyquist))) / width).rounded())
                lo = max(1, min(centre, maxBin)); hi = lo + 1
            }
            return (lo, hi)
        }
        for s in AudioSourceID.allCases {
            let w = layout.levelWindow[s.index]
            let n = layout.windows[w]
            let (f0, f1) = s == .full ? (edges[0], edges[7]) : (edges[s.index], edges[s.index + 1])
            let (lo, hi) = binRange(n, f0, f1)
            levelBins.append((w, lo, hi))
        }
        // Flux groups across the whole analysed range on the short spectrum.
        let n = layout.windows[0]
        bassShortBins = binRange(n, edges[AudioSourceID.bass.index], edges[AudioSourceID.bass.index + 1])
        let (kmin, kmax) = binRange(n, edges[0], edges[7])
        var k = kmin
        let step = pow(2, 1 / Self.groupsPerOctave) - 1
        while k < kmax {
            let width = max(1, Int((Double(k) * step).rounded()))
            let hi = min(kmax, k + width)
            groups.append((k, hi))
            k = hi
        }
        let binHz = rate / Double(n)
        func centre(_ g: (lo: Int, hi: Int)) -> Double { Double(g.lo + g.hi - 1) / 2 * binHz }
        for s in AudioSourceID.allCases {
            if s == .full { sourceGroups.append((0, groups.count)); continue }
            let f0 = edges[s.index], f1 = edges[s.index + 1]
            let inBand = groups.indices.filter { centre(groups[$0]) >= f0 && centre(groups[$0]) < f1 }
            if let first = inBand.first, let last = inBand.last {
                sourceGroups.append((first, last + 1))
            } else { // no group centred in the band: the nearest one
                let mid = sqrt(f0 * f1)
                let nearest = groups.indices.min { abs(log(centre(groups[$0]) / mid)) < abs(log(centre(groups[$1]) / mid)) } ?? 0
                sourceGroups.append((nearest, min(groups.count, nearest + 1)))
            }
        }
    }
}
