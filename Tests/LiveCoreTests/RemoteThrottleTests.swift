import Engine
import TestSupport
import Testing
@testable import LiveCore

/// The remote's parameter throttle on an injected clock (no sleeping).
@Suite struct RemoteThrottleTests {
    static func exposure(_ v: Double) -> [ParamAssignment] { [.scalar(.exposure, v)] }

    @Test func firstChangeGoesAtOnceThenHoldsWithin50ms() throws {
        var t = ParamThrottle()
        let firstSent = t.offer(Self.exposure(1.0), seq: 1, now: 10.0)
        let first = try #require(firstSent, "the first change goes at once")
        #expect(first.values == Self.exposure(1.0) && first.seq == 1)
        #expect(t.offer(Self.exposure(1.1), seq: 2, now: 10.001) == nil, "a change 1 ms later waits")
        #expect(t.offer(Self.exposure(1.2), seq: 3, now: 10.030) == nil)
        #expect(t.deadline == 10.05)
        #expect(t.poll(now: 10.049) == nil, "held until 50 ms after the last send")
        let secondSent = t.poll(now: 10.050)
        let second = try #require(secondSent, "sent no later than 50 ms after the previous one")
        #expect(second.values == Self.exposure(1.2), "coalesced: only the last value per parameter")
        #expect(second.seq == 3)
        #expect(t.poll(now: 20) == nil && t.deadline == nil, "nothing left")
    }

    @Test func coalescingKeepsEveryParameterAndOrder() throws {
        var t = ParamThrottle()
        _ = t.offer(Self.exposure(1), seq: 1, now: 0)
        _ = t.offer([.scalar(.decay, 0.9), .scalar(.exposure, 2)], seq: 2, now: 0.01)
        _ = t.offer([.blendMode(.paint), .scalar(.decay, 0.95)], seq: 3, now: 0.02)
        let outSent = t.poll(now: 0.05)
        let out = try #require(outSent)
        #expect(out.values == [.scalar(.decay, 0.95), .scalar(.exposure, 2), .blendMode(.paint)])
    }

    @Test func flushSendsHeldValuesBeforeAnIntent() throws {
        var t = ParamThrottle()
        _ = t.offer(Self.exposure(1), seq: 1, now: 0)
        _ = t.offer(Self.exposure(3), seq: 2, now: 0.01)
        let flushedSent = t.flush(now: 0.02)
        let flushed = try #require(flushedSent, "an intent pushes the held value out first")
        #expect(flushed.values == Self.exposure(3))
        #expect(t.flush(now: 0.03) == nil)
        #expect(t.offer(Self.exposure(4), seq: 4, now: 0.04) == nil, "the flush counts as a send for the rate")
    }

    @Test func aDragOfTwoSecondsIsAtMost20PerSecondAndEndsOnTheLastValue() {
        var t = ParamThrottle()
        var sends: [(time: Double, value: Double)] = []
        var now = 0.0
        var last = 0.0
        // A slider dragged for 2 s at 1 kHz, then released.
        for i in 0..<2000 {
            now = Double(i) / 1000
            last = Double(i) / 2000
            if let out = t.offer(Self.exposure(0.05 + last), seq: UInt64(i + 1), now: now) {
                sends.append((now, out.values.first.map { if case .scalar(_, let v) = $0 { v } else { 0 } } ?? 0))
            }
        }
        // After release, time passes with polls only.
        var polls = 0
        while let d = t.deadline, polls < 100 {
            polls += 1
            now = d
            if let out = t.poll(now: now) { sends.append((now, out.values.first.map { if case .scalar(_, let v) = $0 { v } else { 0 } } ?? 0)) }
        }
        #expect(sends.count <= 41, "at most 20 per second over 2 s (+ the first): \(sends.count)")
        #expect(sends.count >= 39, "but it keeps sending through the drag: \(sends.count)")
        for k in 1..<sends.count { #expect(sends[k].time - sends[k - 1].time >= 0.05 - 1e-9) }
        #expect(sends.last?.value == 0.05 + last, "the last value always arrives")
    }

    @Test func reconnectionBackoffDoublesUpTo5sAndResets() {
        var b = Backoff()
        #expect((0..<7).map { _ in b.take() } == [0.25, 0.5, 1, 2, 4, 5, 5])
        b.reset()
        #expect(b.take() == 0.25)
    }
}
