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
/// (`timerPacing`: frames on a 1/`timerFPS` s grid, `schedule`). The
/// frame time (`dt`) is clamped to 1…100 ms so a stall never jumps a fade.
public struct DisplayClock: FrameClock {
    /// Pace frames on a 1/`timerFPS` s grid (no vsync available, or `--max-fps`).
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
    /// When the current frame was due on timer pacing's grid (seconds since `start`).
    private var due: Double = 0
    private var index = 0
    private let stop: () -> Bool

    /// Timer pacing's grid: the next frame is due one period after this one
    /// was due (not after it began), so a sleep's lateness does not add up
    /// — beginning each wait from the frame's start, the window showed 59.7
    /// fps paced at 60 with nothing to do, 59.4 at 1M agents where the
    /// frames fit. A frame late by less than a period starts at once and the
    /// grid holds (the next one waits less); later than that starts a new
    /// grid at `now` (no burst of frames to catch up). Seconds; `wait` is
    /// how long to sleep from `now`.
    public static func schedule(due: Double, now: Double, period: Double) -> (due: Double, wait: Double) {
        let next = due + period
        if next < now - period { return (now, 0) }
        return (next, max(0, next - now))
    }

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
            let s = Self.schedule(due: due, now: elapsed, period: 1.0 / timerFPS)
            due = s.due
            if s.wait > 0.0002 {
                let end = start + .nanoseconds(Int64(due * 1e9))
                if let whileWaiting {
                    while clock.now < end {
                        whileWaiting()
                        let left = ScheduleClock.seconds(end - clock.now)
                        if left > 0 { Thread.sleep(forTimeInterval: min(0.001, left)) }
                    }
                } else {
                    Thread.sleep(forTimeInterval: s.wait)
                }
            }
        }
        if stop() { return nil }
        let now = clock.now
        let t = ScheduleClock.seconds(now - start)
        if !timerPacing || index == 0 { due = t }  // a grid starts where pacing starts
        if let q = quitAfter, t >= q { return nil }
        let dt = index > 0 ? max(0.001, min(0.1, ScheduleClock.seconds(now - frameStart))) : 1.0 / 60
        frameStart = now
        defer { index += 1 }
        return FrameTick(index: index, time: t, dt: dt)
    }
}
