import CGL

/// Bounds the frames the GPU has queued: a fence after each presented
/// frame, and a wait at the start of the next until at most `limit` frames
/// are unfinished. Without it the driver lets the CPU run several frames
/// ahead and then blocks it inside some GL call of a later frame, so frame
/// times alternate between near zero and several frames' worth, and the
/// picture lags the audio by those queued frames.
///
/// Thread safety: the thread whose GL context is current (the frame loop's).
public final class GLFrameFence {
    /// Most unfinished frames before `waitForRoom` blocks.
    public let limit: Int
    private var fences: [GLsync] = []

    /// `limit` 2 (the default) lets the CPU prepare a frame while the GPU draws the previous one.
    public init(limit: Int = 2) {
        self.limit = max(1, limit)
    }

    deinit {
        for f in fences { glDeleteSync(f) }
    }

    /// Marks the end of a frame's GL commands (glFenceSync).
    public func frameSubmitted() {
        if let f = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0) { fences.append(f) }
    }

    /// Waits (glClientWaitSync, at most 1 s per fence) until at most
    /// `limit − 1` earlier frames are unfinished, so this frame makes `limit`.
    /// Returns the milliseconds waited.
    @discardableResult
    public func waitForRoom() -> Double {
        guard fences.count >= limit else { return 0 }
        let clock = ContinuousClock()
        let start = clock.now
        while fences.count >= limit {
            let f = fences.removeFirst()
            _ = glClientWaitSync(f, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 1_000_000_000)
            glDeleteSync(f)
        }
        let d = clock.now - start
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) * 1e-15
    }
}
