import Foundation

/// When a frame happens: its index, its time on the driver's clock and the
/// time since the previous frame (what auto-cycle fades and the modulation
/// fade advance by).
public struct FrameTick: Sendable, Equatable {
    /// 0 for the first frame.
    public var index: Int
    /// Seconds since the clock started (display: wall clock; offline: index ÷ fps).
    public var time: Double
    /// Seconds since the previous frame (1/60 for the first frame).
    public var dt: Double

    public init(index: Int, time: Double, dt: Double) {
        self.index = index
        self.time = time
        self.dt = dt
    }
}

/// The one thing that differs between the pipeline's drivers: when the
/// next frame starts. `next()` waits as the driver must (not at all offline,
/// until the next slot of a fixed schedule, or not before vsync has paced
/// the loop) and returns the tick, or nil when the run is over.
public protocol FrameClock {
    mutating func next() -> FrameTick?
}

/// Offline renders: frame N is at N ÷ fps exactly (DESIGN.md's frame rule),
/// `count` frames, no waiting.
public struct OfflineClock: FrameClock {
    public let fps: Double
    public let count: Int
    private var index = 0

    public init(fps: Double, count: Int) {
        precondition(fps > 0 && fps.isFinite, "fps must be positive")
        self.fps = fps
        self.count = count
    }

    public mutating func next() -> FrameTick? {
        guard index < count else { return nil }
        defer { index += 1 }
        return FrameTick(index: index, time: Double(index) / fps, dt: 1 / fps)
    }
}

/// The headless host: a fixed schedule at `fps`; a frame that woke late is
/// made up by the next ones (up to 3 frames behind; beyond that the schedule
/// restarts, so a long stall does not cause a burst). Stops at `quitAfter`
/// seconds or when `stop()` returns true.
public struct ScheduleClock: FrameClock {
    public let fps: Double
    public let quitAfter: Double?
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var nextFrame = 0.0
    private var last = 0.0
    private var index = 0
    private let stop: () -> Bool

    public init(fps: Double, quitAfter: Double? = nil, stop: @escaping () -> Bool = { false }) {
        self.fps = fps
        self.quitAfter = quitAfter
        self.stop = stop
        start = clock.now
    }

    /// Seconds since the clock started.
    public var elapsed: Double { Self.seconds(clock.now - start) }

    public mutating func next() -> FrameTick? {
        if index > 0 {
            let period = 1 / fps
            nextFrame = max(nextFrame + period, elapsed - 3 * period)
            let wait = nextFrame - elapsed
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        }
        let now = elapsed
        if stop() { return nil }
        if let q = quitAfter, now >= q { return nil }
        defer { index += 1; last = now }
        return FrameTick(index: index, time: now, dt: now - last)
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}

/// The live window: wall-clock time; the display's vsync paces the loop
/// (the swap blocks), so `next()` only waits when there is no vsync
/// (`timerPacing`: sleeps out the rest of a 1/`timerFPS` s frame). The
/// frame time (`dt`) is clamped to 1…100 ms so a stall never jumps a fade.
public struct DisplayClock: FrameClock {
    /// Sleep out the rest of each 1/`timerFPS` s frame (no vsync available, or `--max-fps`).
    public var timerPacing = false
    /// Frames per second of timer pacing (60 where the display gives no vsync).
    public var timerFPS = 60.0
    /// Called about every millisecond while timer pacing sleeps out a frame
    /// (the live window's hit reaction looks for a hit there).
    public var whileWaiting: (() -> Void)?
    /// Stops the loop (quit requested) when it returns true.
    public var quitAfter: Double?
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var frameStart: ContinuousClock.Instant
    private var index = 0
    private let stop: () -> Bool

    public init(quitAfter: Double? = nil, stop: @escaping () -> Bool) {
        self.quitAfter = quitAfter
        self.stop = stop
        start = clock.now
        frameStart = start
    }

    /// Seconds since the clock started.
    public var elapsed: Double { ScheduleClock.seconds(clock.now - start) }
    /// The instant of time 0 (to put other threads' timestamps on this clock).
    public var origin: ContinuousClock.Instant { start }

    public mutating func next() -> FrameTick? {
        if index > 0, timerPacing {
            let budget = 1.0 / timerFPS - ScheduleClock.seconds(clock.now - frameStart)
            if budget > 0.0002 {
                if let whileWaiting {
                    let end = clock.now + .nanoseconds(Int64(budget * 1e9))
                    while clock.now < end {
                        whileWaiting()
                        let left = ScheduleClock.seconds(end - clock.now)
                        if left > 0 { Thread.sleep(forTimeInterval: min(0.001, left)) }
                    }
                } else {
                    Thread.sleep(forTimeInterval: budget)
                }
            }
        }
        if stop() { return nil }
        let now = clock.now
        let t = ScheduleClock.seconds(now - start)
        if let q = quitAfter, t >= q { return nil }
        let dt = index > 0 ? max(0.001, min(0.1, ScheduleClock.seconds(now - frameStart))) : 1.0 / 60
        frameStart = now
        defer { index += 1 }
        return FrameTick(index: index, time: t, dt: dt)
    }
}
