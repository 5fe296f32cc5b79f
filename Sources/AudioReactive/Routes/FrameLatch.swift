/// The frame rule (`FrameFeatureAccumulator`) at the live frame's two latch
/// points, each of which takes every hop exactly once:
///
/// - the **frame start** (`takeStart`): the simulation's modulation, the
///   tempo, MIDI and OSC feedback — hops since the previous frame's start;
/// - the **late latch** (`takeLate`), just before the post chain: the
///   picture's parameters — hops since the previous picture's latch, so the
///   hops that arrived while the simulation stepped reach this frame's
///   picture and are not shown again in the next.
///
/// Without a late latch in a frame (a visual offset delays the features
/// anyway), the picture's frame closes at the start with the simulation's.
/// A pure value; owned by the render thread.
public struct FrameLatch: Sendable {
    private var start = FrameFeatureAccumulator()
    private var picture = FrameFeatureAccumulator()
    private var lateOpen = false

    public init() {}

    /// Adds one hop (in time order) to both frames.
    public mutating func add(_ hop: AudioFeatures) {
        start.add(hop)
        picture.add(hop)
    }

    /// Hops the picture of the frame being made has taken so far.
    public var pictureHops: Int { picture.pendingHops }

    /// Whether the frame being made still has its late latch to come.
    public var awaitsLateLatch: Bool { lateOpen }

    /// The frame start's features; starts the next frame. With `lateLatch`
    /// the picture's frame stays open for `takeLate()`, else it closes here.
    public mutating func takeStart(lateLatch: Bool) -> AudioFeatures {
        if lateLatch {
            lateOpen = true
        } else {
            lateOpen = false
            _ = picture.takeFrame()
        }
        return start.takeFrame()
    }

    /// The picture's features at the late latch (every hop since the last
    /// picture's latch, those added since `takeStart` included); nil when
    /// this frame has no late latch (or it was taken already).
    public mutating func takeLate() -> AudioFeatures? {
        guard lateOpen else { return nil }
        lateOpen = false
        return picture.takeFrame()
    }

    /// The picture's features so far (every hop since its last latch), not
    /// taken: the live window's hit reaction between latches.
    public func peekPicture() -> AudioFeatures { picture.peekFrame() }

    /// Forgets everything (the source changed, capture was lost).
    public mutating func reset() { self = FrameLatch() }
}
