/// The analysis of an offline source (an audio file), pulled one hop at a
/// time: `nextHop()` reads the source in chunks as needed, so a long file is
/// never held in memory as a whole. Hops are exactly those `Analyzer.run`
/// and live analysis give for the same samples (the analyzer does not depend
/// on chunking); time is the sample clock.
///
/// Thread-safety: use from one thread (it owns the analyzer and the source).
public final class OfflineAnalysis {
    /// The source analysed.
    public let source: any AudioSource
    /// The analyzer (settings, layout, sample clock).
    public let analyzer: Analyzer
    private var buffer = [Float](repeating: 0, count: 4096)
    private var pending: [AudioFeatures] = []
    private var next = 0
    private var ended = false

    /// Analyses `source` with `settings` at the source's sample rate (FFT plans are made here).
    public init(source: any AudioSource, settings: AudioTuning,
                network: OnsetNetworkWeights? = OnsetNetworkWeights.shipped) {
        self.source = source
        analyzer = Analyzer(layout: .standard(sampleRate: source.sampleRate), settings: settings, network: network)
        pending.reserveCapacity(buffer.count / analyzer.layout.hop + 1)
    }

    /// The next hop's features, or nil once the source has ended (a partial
    /// last hop gives none). Throws the source's read error.
    public func nextHop() throws(AudioSourceError) -> AudioFeatures? {
        while next == pending.count {
            if ended { return nil }
            pending.removeAll(keepingCapacity: true)
            next = 0
            let r = try source.read(into: &buffer)
            if r.count == 0 && r.dropped == 0 && !r.isEnd {
                // An offline source that delivers nothing has ended.
                ended = true
                return nil
            }
            if r.dropped > 0 { analyzer.skip(samples: r.dropped) }
            if r.count > 0 {
                buffer.withUnsafeBufferPointer { all in
                    analyzer.process(UnsafeBufferPointer(rebasing: all[0..<r.count])) { pending.append($0) }
                }
            }
            if r.isEnd { ended = true }
        }
        defer { next += 1 }
        return pending[next]
    }
}
