import Dispatch
import Foundation
import Synchronization

/// Runs the analysis of a live source on its own thread: samples from the
/// source's ring → `Analyzer` → every hop's `AudioFeatures` into a
/// `FeatureQueue` for the render thread; meters for the UI under a lock.
///
/// Settings can be changed from any thread (`settings`): they are stored
/// under a `Mutex` and a generation counter is bumped; the analysis thread
/// compares the counter (one atomic load) before each chunk and takes the
/// lock only when it changed. The capture thread is never involved.
///
/// Thread invariant: `analyzer` and `work` are touched only by the
/// analysing thread once started — the analysis thread, or the source's
/// producer thread when the source runs the analysis itself after each
/// batch (`runConsumerOnProducerThread`); everything shared is atomic, a
/// `Mutex` or the wait-free queue. `drainFeatures` must be called from one
/// thread.
public final class LiveAnalysis: @unchecked Sendable {
    /// The live source analysed.
    public let source: any LiveAudioSource
    /// Hop and window structure.
    public let layout: AnalysisLayout
    private let analyzer: Analyzer
    private let queue = FeatureQueue(capacity: 1024)
    private let settingsBox: Mutex<AudioTuning>
    private let generation = Atomic<Int>(0)
    private let commands = Mutex(InlineArray<8, BeatCommand?>(repeating: nil))
    private let metersBox = Mutex(AnalysisMeters())
    private let running = Atomic<Bool>(false)
    private let stopFlag = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let featuresReady = DispatchSemaphore(value: 0)
    private let hopCount = Atomic<Int>(0)
    private let newestHop = Atomic<UInt64>(0)
    /// When `meters` was last read (uptime ns; 0 = never).
    private let metersRead = Atomic<UInt64>(0)
    /// Onsets' measured timing, newest last, for the render thread (at most 8 wait).
    private let onsetTimes = Mutex(InlineArray<8, OnsetTiming?>(repeating: nil))
    /// The analysing thread's own state (the analysis thread, or the
    /// source's producer thread when it runs the analysis itself).
    private var work = Work()
    private var ownThread = false

    private struct Work {
        var seen = -1
        var buffer = [Float](repeating: 0, count: 4096)
        var sinceMeters = 0
        var recent = HitStart()
    }

    /// Meters (with the spectrum) are published every this many hops (≈ 10 ms)
    /// while someone reads them (a read in the last `metersKeptNanos`): the
    /// spectrum and the copy cost a live analysis nothing when no panel shows them.
    static let meterEvery = 4
    static let metersKeptNanos: UInt64 = 1_000_000_000

    /// An analysis of `source` with `settings` (FFT plans are made here).
    /// `network`: the onset network's weights (nil: the DSP detector alone).
    public init(source: any LiveAudioSource, settings: AudioTuning = AudioTuning(),
                network: OnsetNetworkWeights? = OnsetNetworkWeights.shipped) {
        self.source = source
        layout = .standard(sampleRate: source.sampleRate)
        analyzer = Analyzer(layout: layout, settings: settings, network: network)
        settingsBox = Mutex(analyzer.settings)
    }

    deinit { stop() }

    /// Starts the source and the analysis: on the source's own producer
    /// thread right after each batch it hands over where the source offers
    /// that (PulseCapture: one thread wake-up per fragment instead of two),
    /// else on an analysis thread of its own.
    public func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if !source.runConsumerOnProducerThread({ [unowned self] in analyseAvailable() }) {
            ownThread = true
            let t = Thread { [self] in analyse() }
            t.name = "physarum-analysis"
            t.qualityOfService = .userInteractive
            t.start()
        }
        source.start()
    }

    /// Stops the analysis and the source (joining their threads).
    public func stop() {
        guard running.load(ordering: .acquiring), !stopFlag.exchange(true, ordering: .acquiringAndReleasing) else { return }
        source.stop()
        if ownThread { finished.wait() } else { featuresReady.signal() }
    }

    /// The settings in force; setting applies them from the next chunk on (any thread).
    public var settings: AudioTuning {
        get { settingsBox.withLock { $0 } }
        set {
            settingsBox.withLock { $0 = newValue }
            generation.add(1, ordering: .releasing)
        }
    }

    /// Render thread: calls `body` for every hop analysed since the last
    /// call, oldest first; returns how many. Never blocks or allocates.
    @discardableResult
    public func drainFeatures(_ body: (AudioFeatures) -> Void) -> Int { queue.drain(body) }

    /// Blocks until new features may be queued or `timeout` seconds pass (for
    /// consumers without a frame clock, such as the CLI).
    public func waitForFeatures(timeout: Double) { _ = featuresReady.wait(timeout: .now() + timeout) }

    /// The latest meters (≤ 4 hops old while they are read; the first read
    /// after a pause may be older), for the UI; any thread.
    public var meters: AnalysisMeters {
        metersRead.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        return metersBox.withLock { $0 }
    }

    /// The source's health (state, sample clock, drops, server latency); any thread.
    public var captureStatus: CaptureStatus { source.status }

    /// Gives a beat-tracker command (tap, ×2, ÷2, lock, bar) to the analysis,
    /// applied before its next chunk (any thread; at most 8 wait, more are dropped).
    public func beat(_ c: BeatCommand) {
        commands.withLock { q in
            for i in 0..<8 where q[i] == nil { q[i] = c; return }
        }
    }

    /// Hops analysed so far; any thread.
    public var hops: Int { hopCount.load(ordering: .relaxed) }

    /// When the newest hop's features were queued (`DispatchTime` uptime
    /// nanoseconds; 0 before the first), for the latency readout; any thread.
    public var newestHopUptime: UInt64 { newestHop.load(ordering: .relaxed) }

    /// The measured timing of the onsets analysed since the last call,
    /// oldest first (render thread; at most 8 are kept).
    public func takeOnsetTimings() -> [OnsetTiming] {
        onsetTimes.withLock { q in
            var out: [OnsetTiming] = []
            for i in 0..<8 { if let t = q[i] { out.append(t); q[i] = nil } }
            return out
        }
    }

    private func analyse() {
        while !stopFlag.load(ordering: .acquiring) {
            source.waitForData(timeout: 0.05)
            analyseAvailable()
        }
        featuresReady.signal()
        finished.signal()
    }

    /// Analyses every sample the source has (on the analysing thread).
    private func analyseAvailable() {
        let queue = self.queue
        let rate = layout.sampleRate
        while true {
            let g = generation.load(ordering: .acquiring)
            if g != work.seen {
                analyzer.apply(settingsBox.withLock { $0 })
                work.seen = g
            }
            let pending = commands.withLock { q in
                let out = q
                for i in 0..<8 { q[i] = nil }
                return out
            }
            for i in 0..<8 { if let c = pending[i] { analyzer.beat(c) } }
            guard let r = try? source.read(into: &work.buffer), r.count > 0 || r.dropped > 0 else { break }
            if r.dropped > 0 {
                analyzer.skip(samples: r.dropped)
                work.recent.skip(r.dropped)
            }
            var produced = 0
            var newest: UInt64 = 0
            work.buffer.withUnsafeBufferPointer { all in
                let chunk = UnsafeBufferPointer(rebasing: all[0..<r.count])
                work.recent.append(chunk)
                let batchEnd = work.recent.written
                analyzer.process(chunk) { f in
                    if f.onset {
                        // Its timing goes out before the hop, so the frame that takes the hop finds it.
                        let end = Int((f.time * rate).rounded())
                        let start = work.recent.start(before: end) ?? end
                        newest = DispatchTime.now().uptimeNanoseconds
                        let t = OnsetTiming(hopTime: f.time, decision: Double(end - start) / rate,
                                            batchTail: Double(max(0, batchEnd - end)) / rate, queuedUptime: newest)
                        onsetTimes.withLock { q in
                            if q[7] != nil { for i in 0..<7 { q[i] = q[i + 1] }; q[7] = nil }  // newest last
                            for i in 0..<8 where q[i] == nil { q[i] = t; break }
                        }
                    }
                    queue.push(f)
                    produced += 1
                }
            }
            guard produced > 0 else { continue }
            hopCount.add(produced, ordering: .relaxed)
            let now = newest > 0 ? newest : DispatchTime.now().uptimeNanoseconds
            newestHop.store(now, ordering: .relaxed)
            work.sinceMeters += produced
            let read = metersRead.load(ordering: .relaxed)
            if work.sinceMeters >= Self.meterEvery, read > 0, now &- read < Self.metersKeptNanos {
                work.sinceMeters = 0
                analyzer.updateSpectrum()
                let m = analyzer.meters
                metersBox.withLock { $0 = m }
            }
            featuresReady.signal()
        }
    }
}

extension Analyzer {
    /// Runs an offline source to its end (or `maxSeconds` of it), calling
    /// `emit` per hop with the features and the analyzer (for meters).
    /// Returns the number of hops.
    @discardableResult
    public func run(_ source: any AudioSource, maxSeconds: Double? = nil,
                    emit: (AudioFeatures, Analyzer) -> Void) throws(AudioSourceError) -> Int {
        var buffer = [Float](repeating: 0, count: 4096)
        var hops = 0
        let limit = maxSeconds.map { Int64($0 * layout.sampleRate) } ?? Int64.max
        while sampleCount < limit {
            let r = try source.read(into: &buffer)
            if r.count == 0 && r.dropped == 0 { break }
            if r.dropped > 0 { skip(samples: r.dropped) }
            let n = Int(min(Int64(r.count), limit - sampleCount))
            buffer.withUnsafeBufferPointer { all in
                process(UnsafeBufferPointer(rebasing: all[0..<n])) { f in
                    hops += 1
                    emit(f, self)
                }
            }
            if r.isEnd { break }
        }
        return hops
    }
}
