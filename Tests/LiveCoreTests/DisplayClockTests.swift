import Foundation
import Testing
@testable import LiveCore

/// Timer pacing sleeps out the rest of each frame; the live window's hit
/// reaction looks for hits while it does.
@Suite struct DisplayClockTests {
    @Test func timerPacingCallsWhileWaitingDuringTheSleep() {
        var calls = 0
        var clock = DisplayClock { false }
        clock.timerPacing = true
        clock.timerFPS = 100
        clock.whileWaiting = { calls += 1 }
        let started = ContinuousClock.now
        for _ in 0..<4 { #expect(clock.next() != nil) }
        // Three waits of up to 10 ms each (the first tick does not wait):
        // the callback runs at least once per wait, about every millisecond.
        #expect(calls >= 3, "\(calls) calls")
        #expect(ContinuousClock.now - started >= .milliseconds(29), "the frames are still paced")
    }

    /// Frames due on a grid: the sleep's lateness and a frame that runs a
    /// little long do not move it (the next one waits less), so a paced
    /// window holds its rate; one that falls a whole period behind starts
    /// a new grid instead of rushing frames out to catch up.
    @Test func timerPacingKeepsItsGrid() {
        let p = 1.0 / 60
        // Woken 0.3 ms late every time: still due every period exactly.
        var due = 0.0
        for k in 1...600 {
            let s = DisplayClock.schedule(due: due, now: due + 0.0003 + 0.010, period: p)
            #expect(abs(s.due - Double(k) * p) < 1e-9)
            #expect(abs(s.wait - (p - 0.0103)) < 1e-9)
            due = s.due
        }
        // A frame that ran 18 ms: the next starts at once, still on the grid; the one after waits less.
        let late = DisplayClock.schedule(due: 0, now: 0.018, period: p)
        #expect(late.due == p && late.wait == 0)
        let after = DisplayClock.schedule(due: late.due, now: 0.018 + 0.012, period: p)
        #expect(abs(after.due - 2 * p) < 1e-9 && abs(after.wait - (2 * p - 0.030)) < 1e-9)
        // A stall of 100 ms: a new grid from now, no frames in a burst.
        let stalled = DisplayClock.schedule(due: 0, now: 0.1, period: p)
        #expect(stalled.due == 0.1 && stalled.wait == 0)
        let next = DisplayClock.schedule(due: stalled.due, now: 0.105, period: p)
        #expect(abs(next.wait - (p - 0.005)) < 1e-9)
    }

    @Test func withoutTimerPacingNothingWaits() {
        var calls = 0
        var clock = DisplayClock { false }
        clock.whileWaiting = { calls += 1 }
        for _ in 0..<4 { #expect(clock.next() != nil) }
        #expect(calls == 0)
    }
}
