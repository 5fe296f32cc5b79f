/// Notices a capture stream that claims to run but delivers nothing (a
/// sound server that hangs — `kill -STOP`, a stuck driver — keeps the
/// connection open and the stream "ready" while no sample arrives).
///
/// Fed once a frame with whether the stream claims to capture and the
/// capture's sample count: after the first samples of a connection have
/// arrived (a fresh stream may take a while to start: the null sink's first
/// block), no new sample for `limit` seconds is a stall; the next sample
/// ends it. Pure (the clock is injected); one owner.
public struct CaptureWatchdog: Sendable {
    /// Seconds without a sample that make a stall (the capture's fragments
    /// are 5 ms; a healthy stream never pauses this long).
    public let limit: Double
    /// Whether the stream is stalled now.
    public private(set) var stalled = false
    private var lastSamples: Int?
    /// When the sample count last moved (nil until it has moved once on this connection).
    private var lastChange: Double?

    /// What changed at an `update`.
    public enum Event: Equatable, Sendable {
        /// No sample for `seconds` while the stream claims to run.
        case stalled(seconds: Double)
        /// Samples flow again, `after` seconds without any.
        case resumed(after: Double)
    }

    public init(limit: Double = 0.4) { self.limit = limit }

    /// One look at the stream at `now` (seconds): `running` when it claims to
    /// capture, `samples` the count delivered so far. A stream that does not
    /// claim to run is not watched (its loss is reported elsewhere) and
    /// starts afresh when it runs again.
    public mutating func update(running: Bool, samples: Int, now: Double) -> Event? {
        guard running else {
            stalled = false
            lastSamples = nil
            lastChange = nil
            return nil
        }
        guard let last = lastSamples else {
            lastSamples = samples  // a new connection: wait for its first samples
            return nil
        }
        if samples != last {
            lastSamples = samples
            defer { lastChange = now }
            if stalled, let t = lastChange {
                stalled = false
                return .resumed(after: now - t)
            }
            stalled = false
            return nil
        }
        if !stalled, let t = lastChange, now - t >= limit {
            stalled = true
            return .stalled(seconds: now - t)
        }
        return nil
    }
}
