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

    @Test func withoutTimerPacingNothingWaits() {
        var calls = 0
        var clock = DisplayClock { false }
        clock.whileWaiting = { calls += 1 }
        for _ in 0..<4 { #expect(clock.next() != nil) }
        #expect(calls == 0)
    }
}
