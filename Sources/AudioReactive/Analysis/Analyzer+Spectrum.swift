import Foundation

extension Analyzer {
    /// Refreshes `meters.spectrum` from the current spectra (each point from
    /// the window its band uses for levels).
    public func updateSpectrum() {
        let rate = layout.sampleRate
        let edges = settings.bandEdges
        for i in 0..<SpectrumSnapshot.count {
            let f = SpectrumSnapshot.frequency(i)
            var source = 7
            for b in 0..<7 where f >= edges[b] && f < edges[b + 1] { source = b }
            if f < edges[0] { source = 0 }
            let w = layout.levelWindow[source]
            let n = layout.windows[w]
            let binHz = rate / Double(n)
            let halfStep = pow(1000, 0.5 / Double(SpectrumSnapshot.count - 1))
            var lo = Int((f / halfStep / binHz).rounded(.up)), hi = Int((f * halfStep / binHz).rounded(.up))
            lo = max(0, min(lo, n / 2)); hi = max(lo + 1, min(hi, n / 2 + 1))
            if f * halfStep / binHz > Double(n / 2) + 0.5 { meters.spectrum.dbfs[i] = -200; continue }
            var sum: Float = 0
            for k in lo..<hi { sum += powers[w][k] }
            meters.spectrum.dbfs[i] = max(-200, 10 * log10(sum * powerScale[w] + 1e-20))
        }
    }
}
