import Foundation
import Testing
@testable import AudioReactive
import TestSupport

/// Integration tests against real PulseAudio daemons: the one `scripts/test`
/// starts (null sink `$PHYSARUM_TEST_SINK`, reached through `PULSE_SERVER`)
/// and private ones these tests start and kill themselves.
@Suite(.serialized, .enabled(if: TestPulse.available, "needs the PulseAudio daemon scripts/test starts"))
struct PulseIntegrationTests {
    static var sink: String { TestPulse.sink }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    @Test func sourcesListTheMonitorAsDefault() throws {
        let list = try PulseSources.list()
        let monitor = try #require(list.first { $0.name == "\(Self.sink).monitor" })
        #expect(monitor.isMonitor && monitor.isDefault)
        #expect(!monitor.description.isEmpty)
    }

    @Test func noServerGivesOneClearError() {
        do {
            _ = try PulseSources.list(server: "unix:/nonexistent/physarum/native")
            Issue.record("listed sources of a server that does not exist")
        } catch {
            #expect(error.description.contains("/nonexistent/physarum/native"))
            #expect(!error.description.contains("\n"))
        }
        let c = PulseCapture(server: "unix:/nonexistent/physarum/native")
        c.start()
        let s = c.waitForFirstOutcome(timeout: 5)
        #expect(s.state == .retrying)
        #expect(s.message?.contains("cannot reach") == true)
        c.stop()
        #expect(c.status.state == .stopped)
    }

    /// `paplay` plays a click track into the null sink; capture of its
    /// monitor detects every click, with at most one extra detection. The
    /// delay from the moment each click is due (paplay's start + its offset
    /// in the file) to the detection reaching the feature queue is reported.
    @Test func clicksPlayedIntoTheSinkAreDetectedFromItsMonitor() throws {
        let clickCount = 8, interval = 0.5, first = 0.5
        var clicks = Clicks(interval: interval, start: first, dBFS: -6)
        let file = makeTempDir("pulse-clicks").appendingPathComponent("clicks.wav").path
        try AudioFileWriter.write(clicks.render(count: Int((first + Double(clickCount) * interval) * 48000)), to: file)

        // A daemon of its own: the shared sink also carries the clicks window tests play beside this one.
        let daemon = try PrivateDaemon(sinks: ["pulse_clicks"])
        defer { daemon.stop() }
        try daemon.start()
        let capture = PulseCapture(source: "pulse_clicks.monitor", server: daemon.server)
        let live = LiveAnalysis(source: capture)
        live.start()
        defer { live.stop() }
        #expect(capture.waitForFirstOutcome(timeout: 10).state == .capturing)
        // The null sink works in 2 s blocks until a client asks for low latency:
        // let capture run for more than 2.5 s of samples before playing.
        #expect(poll(seconds: 20) {
            live.drainFeatures { _ in }
            return capture.status.samples > 120_000
        })
        live.drainFeatures { _ in }

        let clock = ContinuousClock()
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        player.arguments = ["--latency-msec=50", "-d", "pulse_clicks", file]
        player.environment = ProcessInfo.processInfo.environment.merging(daemon.clientEnvironment) { $1 }
        let t0 = clock.now
        try player.run()
        var detections: [(t: Double, wall: Double)] = []
        var finishedAt: ContinuousClock.Instant?
        _ = poll(seconds: 30, every: 0.001) {
            live.drainFeatures { f in
                if f.onset { detections.append((f.time, Self.seconds(t0.duration(to: clock.now)))) }
            }
            if finishedAt == nil && !player.isRunning { finishedAt = clock.now }
            return finishedAt.map { $0.duration(to: clock.now) > .milliseconds(1500) } ?? false
        }
        #expect(player.terminationStatus == 0)
        print("pulse clicks: \(detections.count) detections for \(clickCount) clicks; capture latency \(capture.status.latency.map { String(format: "%.1f ms", $0 * 1000) } ?? "?")")
        #expect(detections.count >= clickCount && detections.count <= clickCount + 1,
                "at \(detections.map { String(format: "%.3f", $0.t) }) s; \(capture.status.dropped) samples dropped by the reader")
        // Match in order: each click to the next detection at least its spacing
        // (less 60 ms) after the previous click's. On a busy machine paplay can
        // stall, which delays the later clicks on the monitor's sample clock
        // (the spacing grows, it never shrinks): an extra detection sits
        // between two clicks, a missed click leaves too few.
        var delays: [Double] = []
        var hits: [(t: Double, wall: Double)] = []
        for d in detections where hits.last.map({ d.t - $0.t >= interval - 0.06 }) ?? true { hits.append(d) }
        #expect(hits.count == clickCount, "\(hits.count) of \(clickCount) clicks detected once each, in order: \(detections.map(\.t))")
        for (k, hit) in hits.prefix(clickCount).enumerated() { delays.append(hit.wall - (first + Double(k) * interval)) }
        let sorted = delays.sorted()
        if !sorted.isEmpty {
            print(String(format: "pulse clicks: playback-due → detection delay median %.1f ms, min %.1f ms, max %.1f ms (includes paplay's start-up and its 50 ms buffer)",
                         sorted[sorted.count / 2] * 1000, sorted.first! * 1000, sorted.last! * 1000))
        }
    }

    /// Kills a private daemon mid-capture and restarts it: capture reports the
    /// loss, keeps retrying, and resumes on the same named source within 3 s
    /// of the daemon answering, without the process exiting.
    @Test func captureSurvivesADaemonRestart() throws {
        let daemon = try PrivateDaemon(sinks: ["rtest"])
        defer { daemon.stop() }
        try daemon.start()
        let capture = PulseCapture(source: "rtest.monitor", server: daemon.server)
        capture.start()
        defer { capture.stop() }
        var buf = [Float](repeating: 0, count: 4096)
        func drain() { while let r = try? capture.read(into: &buf), r.count > 0 {} }
        #expect(capture.waitForFirstOutcome(timeout: 10).state == .capturing)
        #expect(poll(seconds: 15) { drain(); return capture.status.samples > 24_000 })

        daemon.kill()
        #expect(poll(seconds: 5) { drain(); return capture.status.state != .capturing }, "the loss is reported")
        #expect(capture.status.message?.isEmpty == false)
        try daemon.start()
        let clock = ContinuousClock()
        let answered = clock.now
        let before = capture.status.samples
        #expect(poll(seconds: 10) { drain(); return capture.status.state == .capturing && capture.status.connections == 2 })
        let resumed = Self.seconds(answered.duration(to: clock.now))
        #expect(poll(seconds: 15) { drain(); return capture.status.samples > before + 4800 }, "samples flow again")
        let flowing = Self.seconds(answered.duration(to: clock.now))
        print(String(format: "pulse restart: stream back %.2f s after the daemon answered, samples flowing after %.2f s", resumed, flowing))
        #expect(resumed <= 3)
    }
}

/// The daemon `scripts/test` starts (exported as PULSE_SERVER and PHYSARUM_TEST_SINK).
enum TestPulse {
    static let env = ProcessInfo.processInfo.environment
    static var available: Bool { env["PULSE_SERVER"] != nil && env["PHYSARUM_TEST_SINK"] != nil }
    static var sink: String { env["PHYSARUM_TEST_SINK"] ?? "test_sink" }
}
