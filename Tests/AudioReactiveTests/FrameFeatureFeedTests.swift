import Foundation
import Testing
@testable import AudioReactive

/// DESIGN.md's frame rule as offline renders apply it, and the offline
/// hop-by-hop analysis they pull from.
@Suite(.serialized) struct FrameFeatureFeedTests {
    /// A hop at `time` with a bass level, a `full` transient and an onset flag.
    static func hop(_ time: Double, level: Float, transient: Float = 0, onset: Bool = false) -> AudioFeatures {
        var f = AudioFeatures(time: time)
        f[.bass].level = level
        f[.full].transient = transient
        f.onset = onset
        return f
    }

    /// Pulls every frame's features from `hops` (time order) at `fps`.
    static func frames(_ hops: [AudioFeatures], fps: Double, count: Int) -> [AudioFeatures] {
        var feed = FrameFeatureFeed(fps: fps)
        var i = 0
        return (0..<count).map { _ in
            feed.next { () -> AudioFeatures? in
                defer { i += 1 }
                return i < hops.count ? hops[i] : nil
            }
        }
    }

    @Test func levelIsTheLastHopAtOrBeforeTheFrameAndTransientThePeakSinceTheLastFrame() {
        let fps = 50.0
        let t1 = FrameFeatureFeed.time(ofFrame: 1, fps: fps), t2 = FrameFeatureFeed.time(ofFrame: 2, fps: fps)
        #expect(t1 == 0.02 && t2 == 0.04)
        let hops = [
            Self.hop(0, level: 0.1, transient: 0.3),                  // exactly t_0: frame 0
            Self.hop(0.005, level: 0.2),                              // frame 1
            Self.hop(0.01, level: 0.3, transient: 0.9, onset: true),  // frame 1's hit
            Self.hop(t1, level: 0.4, transient: 0.5),                 // exactly t_1: still frame 1
            Self.hop(t1.nextUp, level: 0.5, transient: 0.2),          // just after t_1: frame 2
            Self.hop(t2, level: 0.6, transient: 0.8),                 // exactly t_2: frame 2
            // nothing in (t_2, t_3]
            Self.hop(0.075, level: 0.7, transient: 0.1),              // frame 4
        ]
        let f = Self.frames(hops, fps: fps, count: 6)
        #expect(f.map { $0[.bass].level } == [0.1, 0.4, 0.6, 0.6, 0.7, 0.7])
        #expect(f.map { $0[.full].transient } == [0.3, 0.9, 0.8, 0.8, 0.1, 0.1])
        #expect(f.map(\.onset) == [false, true, false, false, false, false])
        #expect(f.map(\.time) == [0, t1, t2, t2, 0.075, 0.075])
    }

    @Test func aHitExactlyAtAFrameTimeIsShownInThatFrameOnly() {
        let fps = 60.0
        // A hop on every 1/240 s tick that lands exactly on t_3 carries a hit.
        let t3 = FrameFeatureFeed.time(ofFrame: 3, fps: fps)
        let hops = (1...20).map { k -> AudioFeatures in
            let t = k == 12 ? t3 : Double(k) / 240
            return Self.hop(t, level: 0, transient: k == 12 ? 1 : 0)
        }
        let f = Self.frames(hops, fps: fps, count: 6)
        #expect(f.map { $0[.full].transient } == [0, 0, 0, 1, 0, 0])
    }

    @Test func frameCountCoversTheWholeFile() {
        #expect(FrameFeatureFeed.frameCount(samples: 480_000, sampleRate: 48000, fps: 60) == 600)
        #expect(FrameFeatureFeed.frameCount(samples: 480_001, sampleRate: 48000, fps: 60) == 601)
        #expect(FrameFeatureFeed.frameCount(samples: 44100, sampleRate: 44100, fps: 30) == 30)
        #expect(FrameFeatureFeed.frameCount(samples: 1, sampleRate: 48000, fps: 60) == 1)
    }

    /// The offline pull analysis gives bit for bit the hops of `Analyzer.run`
    /// (and so of live analysis, which equals it) for the same samples.
    @Test func offlineAnalysisEqualsAnalyzerRun() throws {
        let (x, _) = DrumPattern.house(bpm: 128).render(bars: 2, seed: 4)
        let settings = AudioTuning()
        var viaRun: [AudioFeatures] = []
        try Analyzer(layout: .standard(sampleRate: 48000), settings: settings)
            .run(SyntheticSource(Replay(x), duration: Double(x.count) / 48000)) { f, _ in viaRun.append(f) }
        let pull = OfflineAnalysis(source: SyntheticSource(Replay(x), duration: Double(x.count) / 48000), settings: settings)
        var viaPull: [AudioFeatures] = []
        while let f = try pull.nextHop() { viaPull.append(f) }
        #expect(viaPull.count == viaRun.count && viaRun.count == x.count / 128)
        #expect(zip(viaRun, viaPull).allSatisfy { a, b in
            a.time == b.time && a.onset == b.onset && AudioSourceID.allCases.allSatisfy { a[$0] == b[$0] }
        })
        #expect(try pull.nextHop() == nil)
    }
}
