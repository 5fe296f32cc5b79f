import Testing
@testable import LiveCore

/// The wheel over a slider: scrolls past it unless the pointer rested on it or it has the focus.
@Suite struct WheelGateTests {
    /// Frames at 60 per second from `start`.
    static func t(_ frame: Int) -> Double { Double(frame) / 60 }

    @Test func scrollingPastASliderNeverStepsIt() {
        var g = WheelGate()
        // A list scrolls under a still pointer: a new slider passes under it every few frames, each notch scrolls.
        for f in 0..<120 {
            let id = UInt32(f / 6)
            let d = g.hovered(id, focused: false, pointer: (100, 100), wheel: f % 3 == 0 ? -1 : 0, frame: f, now: Self.t(f))
            #expect(!d.step, "frame \(f)")
        }
    }

    @Test func aSliderTheScrollStopsOnIsNotSteppedByTheNextNotchAtOnce() {
        var g = WheelGate()
        for f in 0..<30 { _ = g.hovered(7, focused: false, pointer: (50, 50), wheel: f % 4 == 0 ? 1 : 0, frame: f, now: Self.t(f)) }
        // 0.1 s after the last scrolling notch: still scrolling.
        let d = g.hovered(7, focused: false, pointer: (50, 50), wheel: 1, frame: 34, now: Self.t(34))
        #expect(!d.step)
    }

    @Test func afterRestingThreeTenthsOfASecondTheWheelStepsIt() {
        var g = WheelGate()
        var claimed = false
        for f in 0..<17 { claimed = g.hovered(3, focused: false, pointer: (10, 10), wheel: 0, frame: f, now: Self.t(f)).claim }
        #expect(!claimed, "0.27 s is not yet a rest")
        for f in 17..<20 { claimed = g.hovered(3, focused: false, pointer: (10, 10), wheel: 0, frame: f, now: Self.t(f)).claim }
        #expect(claimed, "0.32 s: it claims the wheel")
        let d = g.hovered(3, focused: false, pointer: (10, 10), wheel: 2, frame: 20, now: Self.t(20))
        #expect(d == WheelGate.Decision(claim: true, step: true))
        // The notches keep going to it.
        #expect(g.hovered(3, focused: false, pointer: (11, 10), wheel: 1, frame: 21, now: Self.t(21)).step)
        // The pointer moves away and back: it must rest again.
        _ = g.hovered(3, focused: false, pointer: (40, 10), wheel: 0, frame: 22, now: Self.t(22))
        #expect(!g.hovered(3, focused: false, pointer: (40, 10), wheel: 1, frame: 23, now: Self.t(23)).step)
    }

    @Test func aFocusedSliderTakesTheWheelAtOnceFromTheNextFrame() {
        var g = WheelGate()
        let first = g.hovered(9, focused: true, pointer: (0, 0), wheel: 1, frame: 0, now: 0)
        #expect(first == WheelGate.Decision(claim: true, step: false), "that notch already scrolled the panel")
        #expect(g.hovered(9, focused: true, pointer: (0, 0), wheel: 1, frame: 1, now: Self.t(1)).step)
    }
}

extension WheelGateTests {
    @Test func aNewUIContextWhoseClockStartsAgainStartsAFreshRest() {
        var g = WheelGate()
        for f in 0..<600 { _ = g.hovered(5, focused: false, pointer: (1, 1), wheel: 0, frame: f, now: Self.t(f)) }
        // The same slider id at the same place, a new context: time and frames from 0 again.
        for f in 0..<20 { _ = g.hovered(5, focused: false, pointer: (1, 1), wheel: 0, frame: f, now: Self.t(f)) }
        #expect(g.hovered(5, focused: false, pointer: (1, 1), wheel: 1, frame: 20, now: Self.t(20)).step)
    }
}
