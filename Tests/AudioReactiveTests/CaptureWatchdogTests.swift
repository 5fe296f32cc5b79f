import AudioReactive
import Testing

/// The capture watchdog on an injected clock: a stream that claims to run
/// and delivers nothing is a stall after `limit`, once; samples end it.
@Suite struct CaptureWatchdogTests {
    @Test func aStreamThatStopsDeliveringStallsOnceAndResumesWhenSamplesFlow() {
        var w = CaptureWatchdog(limit: 0.4)
        // A fresh stream that has not delivered yet is not a stall, however long it takes.
        #expect(w.update(running: true, samples: 0, now: 0) == nil)
        #expect(w.update(running: true, samples: 0, now: 3) == nil, "waiting for the first samples is not a stall")
        var samples = 0, t = 3.0
        for _ in 0..<60 {
            samples += 800
            t += 1.0 / 60
            #expect(w.update(running: true, samples: samples, now: t) == nil)
        }
        let stopped = t
        // The server hangs: the count stops moving.
        var events: [CaptureWatchdog.Event] = []
        for i in 1...120 {
            if let e = w.update(running: true, samples: samples, now: stopped + Double(i) / 60) { events.append(e) }
        }
        #expect(events.count == 1, "one stall, not one per frame: \(events)")
        if case .stalled(let s)? = events.first { #expect(s >= 0.4 && s < 0.45) } else { Issue.record("\(events)") }
        #expect(w.stalled)
        let resumed = w.update(running: true, samples: samples + 240, now: stopped + 8)
        #expect(resumed == .resumed(after: 8))
        #expect(!w.stalled)
        #expect(w.update(running: true, samples: samples + 480, now: stopped + 8.02) == nil)
    }

    @Test func aLostStreamIsNotWatchedAndStartsAfresh() {
        var w = CaptureWatchdog(limit: 0.4)
        _ = w.update(running: true, samples: 0, now: 0)
        _ = w.update(running: true, samples: 100, now: 0.1)
        #expect(w.update(running: false, samples: 100, now: 5) == nil, "a lost stream is reported by the capture state, not here")
        #expect(!w.stalled)
        #expect(w.update(running: true, samples: 100, now: 6) == nil)
        #expect(w.update(running: true, samples: 100, now: 9) == nil, "a reconnected stream waits for its first samples again")
    }
}
