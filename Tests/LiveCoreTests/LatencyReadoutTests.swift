import Testing
@testable import LiveCore

/// The sound → picture readout adds measured parts.
@Suite struct LatencyReadoutTests {
    @Test func onsetsReplaceTheEstimatesAndTheTotalIsTheSumOfTheParts() {
        var r = LatencyReadout(analysisWindow: 0.0133)
        r.server = 0.002
        for _ in 0..<60 { r.addFrame(latchToPresent: 0.006, hopAge: 0.004) }
        #expect(abs(r.frame - 0.006) < 1e-9 && abs(r.queue - 0.004) < 1e-9)
        #expect(abs(r.analysis - 0.0133) < 1e-9, "no onset yet: the layout's estimate")
        let o = r.addOnset(batchTail: 0.001, decision: 0.003, queue: 0.002, frame: 0.007)
        #expect(abs(o.total - (0.002 + 0.001 + 0.003 + 0.002 + 0.007)) < 1e-9)
        #expect(abs(r.analysis - 0.003) < 1e-9 && abs(r.queue - 0.002) < 1e-9, "the first onset replaces the estimates")
        for _ in 0..<30 { r.addFrame(latchToPresent: 0.006, hopAge: 0.05) }
        #expect(abs(r.queue - 0.002) < 1e-9, "once onsets are measured, frames' hop ages no longer move the queue part")
        #expect(abs(r.total - (r.capture + r.analysis + r.queue + r.frame + r.offset)) < 1e-12)
        #expect(r.summary.contains("1 onsets measured"))
    }

    /// What the probe measured: frames whose late latch is 11 ms before their
    /// present, onsets taken at a frame start 19 ms before it. The frame part
    /// (and so the total) is the onsets' own.
    @Test func theFramePartIsTheOnsetsOwnOnceOnsetsAreSeen() {
        var r = LatencyReadout(analysisWindow: 0.0133)
        for _ in 0..<60 { r.addFrame(latchToPresent: 0.011, hopAge: 0.004) }
        #expect(abs(r.frame - 0.011) < 1e-9, "before any onset: every frame's latch to present")
        for _ in 0..<8 { r.addOnset(batchTail: 0.001, decision: 0.001, queue: 0.006, frame: 0.019) }
        for _ in 0..<60 { r.addFrame(latchToPresent: 0.011, hopAge: 0.004) }
        #expect(abs(r.frame - 0.019) < 1e-9, "the onsets' frame part, not the mean over frames")
        #expect(abs(r.total - (0.001 + 0.001 + 0.006 + 0.019)) < 1e-9)
    }
}
