import Engine
import Foundation
import LiveCore
import Synchronization
import Testing
import TestSupport

/// Attacks on a headless host from raw sockets in the test process. During
/// each, the host must keep rendering on its schedule: its frame thread
/// spends almost none of its time on the network (the remote's queue is
/// drained there; sockets are read only on the network thread), frames keep
/// coming in every second, and its memory stays bounded. (Frame rates under
/// attack vs calm depend on what else the machine runs: they are printed
/// here and measured by scripts/live-bench, not asserted.)
@Suite(.serialized) struct RemoteAbuseTests {
    /// Length of each measured window.
    static let window = 2.5
    /// The stated memory bound for this host (256×144 field, 5000 agents;
    /// ≈ 30 MiB resident at rest): 64 MiB resident, whatever the attack. The
    /// network side can hold at most 64 × 64 KiB of pending frames, one 8 MiB
    /// frame of the remote and 1 MiB of unsent replies per connection.
    static let rssLimitKiB = 64 * 1024

    /// Frames per second over [from, to] (host clock), from the per-second stats lines.
    static func rate(_ host: HostProcess, from: Double, to: Double) -> Double? {
        let log = host.frameLog.filter { $0.t >= from && $0.t <= to }
        guard let a = log.first, let b = log.last, b.t - a.t >= 1.5 else { return nil }
        return Double(b.frames - a.frames) / (b.t - a.t)
    }

    /// The host's clock: the t of its latest stats line.
    static func hostTime(_ host: HostProcess) -> Double { host.frameLog.last?.t ?? 0 }

    /// What one attack window showed.
    struct Window {
        var calm: Double, attacked: Double, peakKiB: Int
        /// Share of wall time the host's frame thread spent on the remote's side of the loop.
        var netShare: Double
        /// Whether every stats line of the window counted new frames.
        var framesEverySecond: Bool
        /// Socket reads the host did outside its network thread (by the end of the window).
        var readsOffNetworkThread: Int
    }

    /// The host's cumulative network time on the frame thread at its latest stats line.
    static func netSeconds(_ host: HostProcess) -> (t: Double, net: Double, offThread: Int)? {
        guard let o = host.statsLines.last, let t = o["t"] as? Double, let n = o["netSeconds"] as? Double else { return nil }
        return (t, n, o["readsOffNetworkThread"] as? Int ?? -1)
    }

    /// Runs `attack` for one window after an attack-free window.
    static func measure(_ host: HostProcess, _ name: String, attack: () throws -> Void, during: () -> Void = {}) throws -> Window {
        let t0 = hostTime(host)
        _ = poll(seconds: window + 2) { hostTime(host) >= t0 + window }
        let calm = try #require(rate(host, from: t0, to: hostTime(host)), "stats during the calm window")
        let t1 = hostTime(host)
        let net0 = try #require(netSeconds(host), "stats report the network time")
        try attack()
        var peak = 0
        _ = poll(seconds: window + 2) {
            during()
            peak = max(peak, host.rssKiB ?? 0)
            return hostTime(host) >= t1 + window
        }
        let attacked = try #require(rate(host, from: t1, to: hostTime(host)), "stats during the attack")
        let net1 = try #require(netSeconds(host))
        let log = host.frameLog.filter { $0.t >= t1 }
        let steady = zip(log, log.dropFirst()).allSatisfy { $1.frames > $0.frames }
        let share = (net1.net - net0.net) / max(0.001, net1.t - net0.t)
        print("abuse \(name): \(String(format: "%.1f", calm)) fps calm, \(String(format: "%.1f", attacked)) fps attacked, "
              + "frame thread on the network \(String(format: "%.3f", share * 100)) % of the time, peak RSS \(peak / 1024) MiB")
        return Window(calm: calm, attacked: attacked, peakKiB: peak, netShare: share, framesEverySecond: steady && log.count >= 2,
                      readsOffNetworkThread: net1.offThread)
    }

    static func check(_ r: Window, _ name: String) {
        #expect(r.netShare <= 0.05, "\(name): the frame thread spent \(r.netShare * 100) % of its time on the network side")
        #expect(r.framesEverySecond, "\(name): frames kept coming every second")
        #expect(r.readsOffNetworkThread == 0, "\(name): no socket was read on the frame thread")
        #expect(r.peakKiB > 0 && r.peakKiB < rssLimitKiB, "\(name): peak RSS \(r.peakKiB) KiB")
    }

    @Test func stalledLengthsConnectionFloodAndGarbageFloodDoNotSlowTheHost() throws {
        let fx = try RemoteFixture()
        let host = try fx.startHost()
        defer { host.process.stop() }
        let port = try #require(host.port)
        _ = poll(seconds: 10) { host.frameLog.count >= 2 }

        // 1. A length, then nothing: before hello (closed at the hello timeout)
        //    and after hello (dropped when silent for 3 s).
        var stalled: [RawClient] = []
        let r1 = try Self.measure(host, "stalled length", attack: {
            let a = try RawClient(port: port)
            a.send([0x00, 0x00, 0x10, 0x00, UInt8(ascii: "{")])
            let b = try RawClient(port: port)
            b.sendFrame(#"{"type":"hello","version":1}"#)
            b.send([0x00, 0x7F, 0x00, 0x00, UInt8(ascii: "{")])
            stalled = [a, b]
        })
        Self.check(r1, "stalled length")
        #expect(stalled[1].waitClosed(seconds: 4), "a silent remote is dropped after 3 s")
        #expect(stalled[0].waitClosed(seconds: 4), "no hello within 2 s: closed")
        stalled = []

        // 2. 100 connections at once from one address: 32 may wait for their
        //    hello; each one past that makes the longest waiting one go (busy).
        var crowd: [RawClient] = []
        let r2 = try Self.measure(host, "100 connections", attack: {
            for _ in 0..<100 { crowd.append(try RawClient(port: port)) }
        })
        Self.check(r2, "100 connections")
        let refused = crowd.filter { c in
            let r = c.receive(seconds: 0.05)
            return r.closed && frames(r.bytes).first?["code"] as? String == "busy"
        }.count
        let perAddress = RemoteProtocol.maxPendingPerAddress
        #expect(refused >= 100 - perAddress, "connections beyond the \(perAddress) pending ones of one address are closed: \(refused)")
        crowd = []

        // 3. A flood of 1 MiB garbage frames from an authenticated remote (each is
        //    skipped), and 1 MiB frames before hello (closed: over 64 KiB).
        let stop = Atomic<Bool>(false)
        let sent = Atomic<Int>(0)
        // Connected when the attack starts: an idle remote would be dropped after 3 s.
        let flooder = Mutex<RawClient?>(nil)
        var rng = SeededRandom(state: 7)
        var garbage = [UInt8](repeating: 0, count: 4 + (1 << 20))
        garbage[1] = 0x10  // length 1 MiB
        for i in 4..<garbage.count { garbage[i] = UInt8.random(in: 0...255, using: &rng) }
        garbage[4] = UInt8(ascii: "{")  // reaches the JSON reader, not only the skip path
        let payload = garbage
        let flooderDone = DispatchSemaphore(value: 0)
        let thread = Thread {
            guard let f = flooder.withLock({ $0 }) else { return }
            while !stop.load(ordering: .relaxed) {
                guard f.send(payload) else { break }
                sent.add(1, ordering: .relaxed)
            }
            flooderDone.signal()
        }
        var early: [Bool] = []
        let r3 = try Self.measure(host, "1 MiB garbage flood", attack: {
            let f = try RawClient(port: port)
            f.sendFrame(#"{"type":"hello","version":1}"#)
            flooder.withLock { $0 = f }
            thread.start()
            for _ in 0..<3 {
                let c = try RawClient(port: port)
                c.send(payload)
                early.append(c.waitClosed(seconds: 2))
            }
        })
        stop.store(true, ordering: .relaxed)
        #expect(flooderDone.wait(timeout: .now() + 10) == .success, "the flood stops")
        Self.check(r3, "garbage flood")
        #expect(early.allSatisfy { $0 }, "a 1 MiB frame before hello closes the connection")
        let floodMiB = sent.load(ordering: .relaxed)
        #expect(floodMiB >= 5, "the flood really flowed: \(floodMiB) MiB")
        #expect(host.process.isRunning, "the host is alive")
        // Each garbage frame was skipped and the stream was not poisoned: the
        // same connection still gets an answer to a ping.
        let remote = try #require(flooder.withLock { $0 })
        remote.sendFrame(#"{"type":"ping","id":77}"#)
        var answer: [[String: Any]] = []
        var received: [UInt8] = []
        let pong = poll(seconds: 10) {
            received += remote.receive(seconds: 0.2).bytes
            answer = frames(received)
            return answer.contains { $0["type"] as? String == "pong" && $0["id"] as? Int == 77 }
        }
        #expect(pong, "pong after the flood: \(answer.map { $0["type"] ?? "?" })")
        #expect(answer.contains { $0["code"] as? String == "bad-message" }, "the host reported the skipped frames")
        print("garbage flood: \(floodMiB) MiB sent")

        // 4. A flood of tiny valid frames from a remote (each one is work for the
        //    host): bounded per connection, so rendering goes on.
        var burst: [UInt8] = []
        for k in 0..<2000 {
            let json = Array(#"{"type":"params","seq":\#(k + 1),"values":{"global.exposure":\#(1 + Double(k % 100) / 100)}}"#.utf8)
            burst += [0, 0, UInt8(json.count >> 8), UInt8(json.count & 0xFF)] + json
        }
        let burstBytes = burst
        let tinyStop = Atomic<Bool>(false)
        let tinyDone = DispatchSemaphore(value: 0)
        let tinySent = Atomic<Int>(0)
        let tinyThread = Thread {
            guard let tiny = try? RawClient(port: port) else { return }
            tiny.sendFrame(#"{"type":"hello","version":1}"#)
            while !tinyStop.load(ordering: .relaxed) {
                guard tiny.send(burstBytes) else { break }
                tinySent.add(2000, ordering: .relaxed)
            }
            tinyDone.signal()
        }
        let r4 = try Self.measure(host, "tiny-frame flood", attack: { tinyThread.start() })
        tinyStop.store(true, ordering: .relaxed)
        _ = tinyDone.wait(timeout: .now() + 10)
        Self.check(r4, "tiny-frame flood")
        #expect(host.process.isRunning)
        #expect(tinySent.load(ordering: .relaxed) >= 2000, "the tiny flood flowed")
        print("tiny-frame flood: \(tinySent.load(ordering: .relaxed)) frames sent")
    }
}
