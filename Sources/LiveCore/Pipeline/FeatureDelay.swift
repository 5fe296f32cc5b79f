import AudioReactive

/// The visual offset: delays the modulation by 0…200 ms so that a picture
/// on a projector meets the sound of a PA that reaches the audience later.
/// Each frame's features go in with the frame's time; out come the features
/// of the frames at least `offset` seconds old, merged by the frame rule
/// (level of the newest, transients and onsets of all), so a hit is delayed,
/// never lost. With offset 0 the features pass through unchanged. Pure.
public struct FeatureDelay: Sendable {
    private var queue: [(time: Double, features: AudioFeatures)] = []
    private var merge = FrameFeatureAccumulator()
    private var lastOut = AudioFeatures.silent

    public init() {}

    /// Frames waiting.
    public var pending: Int { queue.count }

    /// This frame's features at `time` → the features to use now, `offset` seconds behind.
    public mutating func process(_ features: AudioFeatures, time: Double, offset: Double) -> AudioFeatures {
        guard offset > 0 || !queue.isEmpty else { return features }
        queue.append((time, features))
        var ready = 0
        while ready < queue.count, queue[ready].time <= time - offset + 1e-9 {
            merge.add(queue[ready].features)
            ready += 1
        }
        queue.removeFirst(ready)
        if queue.count > 1024 { queue.removeFirst(queue.count - 1024) }  // a clock jump: never grow without bound
        if ready > 0 { lastOut = merge.takeFrame() } else {
            var held = lastOut  // nothing new is due: levels hold, no new hit
            held.onset = false
            held.beat.beat = false
            held.beat.bar = false
            for i in 0..<AudioSourceID.count { held.sources[i].transient = 0 }
            lastOut = held
        }
        return lastOut
    }
}
