import Engine
import Foundation
import Testing
@testable import AudioReactive

@Suite struct SPSCRingTests {
    private func read(_ ring: SPSCRing<Float>, max: Int) -> (values: [Float], r: RingRead) {
        var buf = [Float](repeating: -1, count: max)
        let r = buf.withUnsafeMutableBufferPointer { ring.read(into: $0) }
        return (Array(buf[0..<r.count]), r)
    }

    private func write(_ ring: SPSCRing<Float>, _ values: [Float]) {
        values.withUnsafeBufferPointer { ring.write($0) }
    }

    @Test func deliversInOrderWithAbsoluteIndices() {
        let ring = SPSCRing<Float>(capacity: 8)
        write(ring, [0, 1, 2])
        write(ring, [3, 4])
        let a = read(ring, max: 4)
        #expect(a.values == [0, 1, 2, 3])
        #expect(a.r.firstIndex == 0 && a.r.dropped == 0)
        let b = read(ring, max: 4)
        #expect(b.values == [4])
        #expect(b.r.firstIndex == 4)
        #expect(read(ring, max: 4).values.isEmpty)
    }

    @Test func overflowDropsTheOldestAndTheClockKeepsCounting() {
        let ring = SPSCRing<Float>(capacity: 8)
        write(ring, (0..<20).map(Float.init))
        let a = read(ring, max: 100)
        #expect(a.values == (12..<20).map(Float.init), "the newest `capacity` survive")
        #expect(a.r.firstIndex == 12)
        #expect(a.r.dropped == 12)
        #expect(ring.droppedTotal == 12)
        #expect(ring.written == 20)
        write(ring, [20, 21])
        let b = read(ring, max: 100)
        #expect(b.values == [20, 21] && b.r.dropped == 0 && b.r.firstIndex == 20)
    }

    @Test func oneWriteLargerThanTheRingKeepsItsNewestPart() {
        let ring = SPSCRing<Float>(capacity: 4)
        write(ring, (0..<10).map(Float.init))
        let a = read(ring, max: 10)
        #expect(a.values == [6, 7, 8, 9])
        #expect(a.r.firstIndex == 6 && a.r.dropped == 6)
    }

    /// A producer thread writes a counting sequence as fast as it can while
    /// the consumer reads slowly: every value delivered must equal its index
    /// (no torn or reordered data), and delivered + dropped = written.
    @Test func concurrentOverrunNeverDeliversTornData() async {
        let ring = SPSCRing<Float>(capacity: 256)
        let total = 400_000
        let producer = Task.detached {
            var next = 0
            var rng = SeededRandom(seed: 9)
            var chunk = [Float](repeating: 0, count: 300)
            while next < total {
                let n = min(total - next, 1 + Int(rng.next() % 300))
                for i in 0..<n { chunk[i] = Float(next + i) }
                chunk.withUnsafeBufferPointer { ring.write(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                next += n
            }
        }
        var delivered = 0, dropped = 0, expectedNext = 0, bad = 0
        var buf = [Float](repeating: 0, count: 64)
        while expectedNext < total {
            let r = buf.withUnsafeMutableBufferPointer { ring.read(into: $0) }
            dropped += r.dropped
            #expect(r.firstIndex == expectedNext + r.dropped)
            for i in 0..<r.count where buf[i] != Float(r.firstIndex + i) { bad += 1 }
            delivered += r.count
            expectedNext = r.firstIndex + r.count
            if r.count == 0 { await Task.yield() }
        }
        await producer.value
        #expect(bad == 0)
        #expect(delivered + dropped == total)
        #expect(ring.droppedTotal == dropped)
    }
}

@Suite struct FeatureQueueTests {
    private func sample(_ i: Int) -> AudioFeatures {
        var f = AudioFeatures(time: Double(i) * 0.001 + 1e-9)
        for s in AudioSourceID.allCases {
            f[s] = SourceFeatures(level: Float(i) + Float(s.index) / 10, transient: Float(s.index) / 7, gate: 1 / Float(s.index + 1))
        }
        f.onset = i % 3 == 0
        f.beat.tempo = 120 + Float(i)
        f.beat.phase = Float(i) / 10
        f.beat.confidence = 0.5 + Float(i) / 100
        f.beat.beat = i % 2 == 0
        f.beat.bar = i % 4 == 0
        f.beat.held = i % 3 == 1
        f.beat.beatPulse = Float(i) / 9
        f.beat.barPulse = Float(i) / 11
        f.beat.beatInBar = i % 4
        return f
    }

    @Test func everyFieldSurvivesTheQueue() {
        let q = FeatureQueue(capacity: 16)
        for i in 0..<5 { q.push(sample(i)) }
        var got: [AudioFeatures] = []
        #expect(q.drain { got.append($0) } == 5)
        for (i, f) in got.enumerated() {
            let e = sample(i)
            #expect(f.time == e.time && f.onset == e.onset)
            for s in AudioSourceID.allCases { #expect(f[s] == e[s]) }
            #expect(f.beat == e.beat, "the beat tracker's features cross the thread too (tempo, phase, beats, bars)")
        }
        #expect(q.drain { _ in } == 0)
    }

    @Test func aStalledReaderLosesTheOldestHops() {
        let q = FeatureQueue(capacity: 8)
        for i in 0..<20 { q.push(sample(i)) }
        var times: [Double] = []
        q.drain { times.append($0.time) }
        #expect(times == (12..<20).map { sample($0).time })
        #expect(q.dropped == 12)
    }
}
