import Foundation
import Synchronization
import Testing
import TestSupport

/// The lockout attack on a headless host with a token: 20 sockets from the
/// same address as the real remote keep reopening and each sends its hello
/// one byte at a time, never finishing it. Meanwhile a real
/// `physarum remote --token` starts again and again: it must connect on its
/// first attempt (never answered `busy`, never retrying) every time.
///
/// The suite runs it briefly; `scripts/lockout` runs the full measurement
/// (60 s, 20 tries) by setting PHYSARUM_LOCKOUT_SECONDS / _TRIES, and the
/// times to connect are printed ("lockout: …").
@Suite(.serialized) struct RemoteLockoutTests {
    static let token = "lockout-test-token-0123456789"

    static func setting(_ name: String, _ fallback: Double) -> Double {
        ProcessInfo.processInfo.environment[name].flatMap(Double.init) ?? fallback
    }

    /// One attacking socket's life, repeated until `stop`: connect, announce a
    /// 100-byte frame, then send it a byte every 200 ms until the host closes.
    static func attack(port: Int, stop: borrowing Atomic<Bool>, connections: borrowing Atomic<Int>, closes: borrowing Atomic<Int>) {
        while !stop.load(ordering: .relaxed) {
            guard let c = try? RawClient(port: port) else { continue }
            connections.add(1, ordering: .relaxed)
            guard c.send([0, 0, 0, 100, UInt8(ascii: "{")]) else { continue }
            while !stop.load(ordering: .relaxed) {
                if c.receive(seconds: 0.2).closed {
                    closes.add(1, ordering: .relaxed)
                    break
                }
                guard c.send([UInt8(ascii: " ")]) else { break }
            }
        }
    }

    @Test func aSlowHelloCrowdNeverKeepsTheRealRemoteOut() throws {
        let seconds = Self.setting("PHYSARUM_LOCKOUT_SECONDS", 6)
        let tries = Int(Self.setting("PHYSARUM_LOCKOUT_TRIES", 3))
        let fx = try RemoteFixture()
        let host = try fx.startHost(extra: ["--token", Self.token])
        defer { host.process.stop() }
        let port = try #require(host.port)

        let stop = Atomic<Bool>(false), connections = Atomic<Int>(0), closes = Atomic<Int>(0)
        let done = DispatchGroup()
        for _ in 0..<20 {
            done.enter()
            Thread {
                Self.attack(port: port, stop: stop, connections: connections, closes: closes)
                done.leave()
            }.start()
        }
        defer {
            stop.store(true, ordering: .relaxed)
            done.wait()
        }
        #expect(poll(seconds: 10) { connections.load(ordering: .relaxed) >= 20 }, "the crowd is connected")
        let start = Date()
        var times: [Double] = []
        for i in 0..<tries {
            // Spread the tries over the attack.
            let due = start.addingTimeInterval(seconds * Double(i) / Double(max(tries, 1)))
            _ = poll(seconds: max(0, due.timeIntervalSinceNow)) { Date() >= due }
            let began = Date()
            let (remote, _) = try fx.startRemote("remote-\(i)", port: port, script: [#"{"sync":true}"#],
                                                 extra: ["--token", Self.token, "--exit-when-done"])
            let status = remote.wait(seconds: 60)
            if status == nil { remote.stop() }
            let took = Date().timeIntervalSince(began)
            times.append(took)
            let err = remote.stderr
            print("lockout: try \(i + 1)/\(tries) at \(String(format: "%.1f", began.timeIntervalSince(start))) s: "
                  + "exit \(status.map(String.init) ?? "none"), \(String(format: "%.2f", took)) s from start to done")
            #expect(status == 0, "try \(i + 1) connects and finishes: \(err)")
            #expect(!err.contains("retrying") && !err.contains("busy"), "try \(i + 1) got in at its first attempt: \(err)")
        }
        _ = poll(seconds: max(0, start.addingTimeInterval(seconds).timeIntervalSinceNow)) { Date() >= start.addingTimeInterval(seconds) }
        let made = connections.load(ordering: .relaxed), closed = closes.load(ordering: .relaxed)
        let sorted = times.sorted()
        print("lockout: \(seconds) s attack, \(made) attacking connections (\(closed) closed by the host); remote start-to-done "
              + "median \(String(format: "%.2f", sorted[sorted.count / 2])) s, max \(String(format: "%.2f", sorted.last ?? 0)) s")
        #expect(closed >= 20, "the host closed the slow hellos at their deadline: \(closed)")
        #expect(host.process.isRunning)
    }
}
