import Engine
import Foundation
import Synchronization
import Testing
@testable import AudioReactive
import TestSupport


/// A live source test double: a producer thread writes whatever the test
/// hands it, in one piece, through the same channel capture uses.
final class BurstSource: LiveAudioSource, @unchecked Sendable {
    let sampleRate = 48000.0
    let label = "burst"
    let channel = SampleChannel()
    func start() {}
    func stop() { channel.wake() }
    func waitForData(timeout: Double) { channel.wait(timeout: timeout) }
    func read(into buffer: inout [Float]) throws(AudioSourceError) -> AudioRead { channel.read(into: &buffer) }
    var status: CaptureStatus {
        CaptureStatus(state: .capturing, samples: channel.ring.written, dropped: channel.ring.droppedTotal)
    }
    /// Writes from another thread and waits for it (the producer side).
    func burst(_ samples: [Float]) {
        let t = Thread { samples.withUnsafeBufferPointer { self.channel.write($0) } }
        t.start()
        _ = poll(seconds: 5) { self.channel.ring.written >= samples.count }
    }
}

@Suite(.serialized) struct LiveAnalysisTests {
    /// The same samples, analysed live (written by a producer thread in
    /// random chunks, read by the analysis thread in whatever pieces arrive)
    /// and offline, give bit-identical features: offline output equals what
    /// live analysis gives. The producer waits for the analysis to keep up,
    /// so nothing is dropped however loaded the machine is.
    @Test func liveEqualsOffline() {
        var g = Groove(seed: 4)
        let samples = g.render(count: 48000 * 2)
        let offline = Analysis(samples).features
        let source = BurstSource()
        let live = LiveAnalysis(source: source)
        live.start()
        let producer = Thread {
            var rng = SeededRandom(seed: 77)
            var at = 0
            while at < samples.count {
                let n = min(samples.count - at, 1 + Int(rng.next() % 2000))
                samples.withUnsafeBufferPointer { source.channel.write(UnsafeBufferPointer(rebasing: $0[at..<(at + n)])) }
                at += n
                _ = poll(seconds: 10, every: 0.0005) { live.hops * 128 + 8192 >= at }
            }
        }
        producer.start()
        var got: [AudioFeatures] = []
        #expect(poll(seconds: 30) {
            live.drainFeatures { got.append($0) }
            return got.count >= offline.count
        })
        live.stop()
        #expect(live.captureStatus.dropped == 0)
        for (a, b) in zip(offline, got) {
            #expect(a.time == b.time && a.onset == b.onset)
            for s in AudioSourceID.allCases where a[s] != b[s] { Issue.record("\(s) differs at t=\(a.time)") }
        }
    }

    /// Settings changed from another thread apply on the analysis thread
    /// within a few hops; meters and the spectrum are readable meanwhile.
    /// Meters nobody reads are not computed (a live analysis without a
    /// panel pays nothing for them).
    @Test func settingsChangeLiveAndMetersAreReadable() {
        var s = AudioTuning()
        s.autoGain = false
        s.attack = 0
        let live = LiveAnalysis(source: RealtimeSource(Tone(frequency: 1000, dBFS: -30)), settings: s)
        live.start()
        defer { live.stop() }
        var mid: Float = 0
        #expect(poll(seconds: 10) {
            live.drainFeatures { mid = $0[.mid].level }
            return mid > 0.4
        })
        let before = mid
        s.gain = 18
        live.settings = s
        #expect(poll(seconds: 5) {
            live.drainFeatures { mid = $0[.mid].level }
            return mid > before + 0.25 // +18 dB = +0.3 on the level scale
        }, "level \(before) → \(mid)")
        // Meters are published while someone reads them (as the audio panel
        // does every frame): the first read starts them.
        var m = live.meters
        #expect(poll(seconds: 5) {
            m = live.meters
            return m[.mid].gate == .open
        })
        let peak = (0..<SpectrumSnapshot.count).max { m.spectrum.dbfs[$0] < m.spectrum.dbfs[$1] }!
        #expect(abs(log2(SpectrumSnapshot.frequency(peak) / 1000)) < 0.15, "spectrum peak at \(SpectrumSnapshot.frequency(peak)) Hz")
        #expect(live.captureStatus.state == .capturing)
    }

    /// When the reader falls behind, the oldest audio is dropped, the drop is
    /// counted, and the sample clock (`t`) still advances over it.
    @Test func overflowDropsOldestAndTheClockAdvances() {
        let source = BurstSource()
        let live = LiveAnalysis(source: source)
        let total = 50_000
        let capacity = source.channel.ring.capacity
        source.burst(Signals.take(Tone(frequency: 440, dBFS: -12), seconds: Double(total) / 48000))
        live.start()
        defer { live.stop() }
        var times: [Double] = []
        #expect(poll(seconds: 10) {
            live.drainFeatures { times.append($0.time) }
            return times.last.map { $0 >= Double(total - 128) / 48000 } ?? false
        })
        #expect(live.captureStatus.dropped == total - capacity)
        #expect(times.count == capacity / 128, "only the newest \(capacity) samples are analysed")
        // Hops stay on the absolute grid: the first ends at the first multiple of 128 after the drop.
        let firstEnd = ((total - capacity) / 128 + 1) * 128
        #expect(abs(times.first! - Double(firstEnd - 1) / 48000) < 1e-9, "t counts the dropped samples")
    }
}
