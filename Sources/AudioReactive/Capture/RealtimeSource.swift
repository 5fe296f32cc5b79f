import Dispatch
import Foundation
import Synchronization

/// A synthetic signal played in real time: a producer thread generates the
/// samples that are due by the wall clock every few milliseconds and hands
/// them over through the same wait-free ring as capture. The demo groove
/// when no server is reachable, and a live source for tests without one.
///
/// Thread invariant: the generator is touched only by the producer thread.
public final class RealtimeSource: LiveAudioSource, @unchecked Sendable {
    public let sampleRate: Double
    public let label: String
    let channel = SampleChannel()
    private var generator: any SignalGenerator
    private let blockSeconds: Double
    private let running = Atomic<Bool>(false)
    private let stopFlag = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Plays `generator` in real time in blocks of `blockSeconds`.
    public init(_ generator: any SignalGenerator, label: String = "demo groove", blockSeconds: Double = 0.005) {
        self.generator = generator
        sampleRate = generator.sampleRate
        self.label = label
        self.blockSeconds = max(0.001, blockSeconds)
    }

    deinit { stop() }

    public func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let t = Thread { [self] in produce() }
        t.name = "physarum-synth"
        t.start()
    }

    public func stop() {
        guard running.load(ordering: .acquiring), !stopFlag.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
        channel.wake()
    }

    public func waitForData(timeout: Double) { channel.wait(timeout: timeout) }

    public func read(into buffer: inout [Float]) throws(AudioSourceError) -> AudioRead {
        channel.read(into: &buffer)
    }

    public var status: CaptureStatus {
        let state: CaptureState = stopFlag.load(ordering: .relaxed) ? .stopped
            : running.load(ordering: .relaxed) ? .capturing : .idle
        return CaptureStatus(state: state, samples: channel.ring.written, dropped: channel.ring.droppedTotal,
                             latency: blockSeconds, connections: running.load(ordering: .relaxed) ? 1 : 0)
    }

    private func produce() {
        let clock = ContinuousClock()
        let start = clock.now
        var produced = 0
        var block = [Float](repeating: 0, count: 1024)
        while !stopFlag.load(ordering: .acquiring) {
            let elapsed = start.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            let due = Int(seconds * sampleRate)
            if due - produced > Int(sampleRate) { produced = due - Int(sampleRate) } // after a suspension
            while produced < due {
                let n = min(block.count, due - produced)
                generator.render(into: &block, count: n)
                block.withUnsafeBufferPointer { channel.write(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                produced += n
            }
            Thread.sleep(forTimeInterval: blockSeconds)
        }
        finished.signal()
    }
}
