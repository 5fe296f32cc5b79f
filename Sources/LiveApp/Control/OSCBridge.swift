import AudioReactive
import Foundation

/// `physarum analyze --osc HOST:PORT`: the analysis as an OSC feature
/// stream without a window. Hops are grouped into frames by the frame rule
/// (frame N at N ÷ rate on the sample clock takes the hops in
/// (t(N−1), t(N)]: the level of the last, the peak transient, any onset or
/// beat), and each frame goes out as one bundle (`OSCDestination`). Offline
/// input (a file, a synthetic signal) is paced to real time, so receivers
/// see the stream a live source would give. Main thread only.
final class OSCBridge {
    let rate: Double
    private let sender: OSCFeatureSender
    private let paced: Bool
    private var accumulator = FrameFeatureAccumulator()
    private var index = 0
    private let start = ContinuousClock.now

    init(target: HostPort, rate: Double, paced: Bool) throws(NetError) {
        self.rate = rate
        self.paced = paced
        sender = try OSCFeatureSender(target)
    }

    /// The time of frame `n` on the sample clock.
    func frameTime(_ n: Int) -> Double { Double(n) / rate }

    /// One hop, in time order.
    func add(_ hop: AudioFeatures) {
        while hop.time > frameTime(index) + 1e-9 { emit() }
        accumulator.add(hop)
    }

    /// Sends the last frame (when hops are waiting) and everything queued.
    func finish() {
        if accumulator.pendingHops > 0 { emit() }
        sender.stop(timeout: 10)
    }

    /// Frames sent, and dropped because the network thread fell behind.
    var sent: Int { sender.sent }
    var dropped: Int { sender.dropped }

    private func emit() {
        let t = frameTime(index)
        if paced {
            let due = start + .nanoseconds(Int64(t * 1e9))
            let wait = due - ContinuousClock.now
            if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) * 1e-18) }
        }
        var f = accumulator.takeFrame()
        f.time = t
        sender.offer(FeatureFrame(index: index, time: t, features: f))
        index += 1
    }
}
