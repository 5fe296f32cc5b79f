import Foundation
import Synchronization
import Testing
import TestSupport

/// A wrong-token guesser on the same address as the real remote: 8
/// connections from 127.0.0.1 keep sending hellos with wrong tokens to a
/// headless host with a token, each waiting for its answer. Meanwhile a real
/// `physarum remote --token RIGHT` starts three times: each time it is
/// admitted at its first attempt, never answered `busy`, never made to wait
/// behind the guesses (it used to wait 45–70 s). The guesses' answers come
/// later and later (the back-off slows them, not the next connection).
@Suite(.serialized) struct RemoteGuesserTests {
    static let token = "guesser-test-token-0123456789"

    /// One guessing socket, repeated until `stop`: connect, a wrong hello,
    /// wait for the answer; counts the answers and the longest wait.
    static func guess(port: Int, stop: borrowing Atomic<Bool>, refused: borrowing Atomic<Int>, longestMs: borrowing Atomic<Int>) {
        var n = 0
        while !stop.load(ordering: .relaxed) {
            guard let c = try? RawClient(port: port) else { continue }
            n += 1
            let began = Date()
            c.sendFrame(#"{"type":"hello","version":1,"token":"wrong-guess-\#(n)-0000000000000"}"#)
            var bytes: [UInt8] = []
            while !stop.load(ordering: .relaxed) {
                let r = c.receive(seconds: 0.2)
                bytes += r.bytes
                if r.closed { break }
            }
            if String(decoding: bytes, as: UTF8.self).contains("unauthorized") {
                refused.add(1, ordering: .relaxed)
                let ms = Int(Date().timeIntervalSince(began) * 1000)
                while true {
                    let old = longestMs.load(ordering: .relaxed)
                    if ms <= old || longestMs.compareExchange(expected: old, desired: ms, ordering: .relaxed).exchanged { break }
                }
            }
        }
    }

    @Test func wrongTokensFromTheSameAddressNeverKeepTheRightRemoteWaiting() throws {
        let fx = try RemoteFixture()
        let host = try fx.startHost(extra: ["--token", Self.token])
        defer { host.process.stop() }
        let port = try #require(host.port)

        let stop = Atomic<Bool>(false), refused = Atomic<Int>(0), longestMs = Atomic<Int>(0)
        let done = DispatchGroup()
        for _ in 0..<8 {
            done.enter()
            Thread {
                Self.guess(port: port, stop: stop, refused: refused, longestMs: longestMs)
                done.leave()
            }.start()
        }
        defer {
            stop.store(true, ordering: .relaxed)
            done.wait()
        }
        // The guesser's first answers come at once; from the 4th on they wait.
        #expect(poll(seconds: 30) { refused.load(ordering: .relaxed) >= 6 }, "the guesses are answered")
        for i in 0..<3 {
            let began = Date()
            let (remote, _) = try fx.startRemote("remote-\(i)", port: port, script: [#"{"sync":true}"#],
                                                 extra: ["--token", Self.token, "--exit-when-done"])
            // It used to take 45–70 s (or end `busy`); a generous deadline tells the two apart on a busy machine.
            let status = remote.wait(seconds: 20)
            if status == nil { remote.stop() }
            let err = remote.stderr
            print("guesser: try \(i + 1): exit \(status.map(String.init) ?? "none"), "
                  + "\(String(format: "%.2f", Date().timeIntervalSince(began))) s from start to done; "
                  + "\(refused.load(ordering: .relaxed)) guesses answered so far, the slowest after \(longestMs.load(ordering: .relaxed)) ms")
            #expect(status == 0, "try \(i + 1) is admitted and finishes: \(err)")
            #expect(!err.contains("retrying") && !err.contains("busy"), "try \(i + 1) got in at its first attempt: \(err)")
        }
        #expect(longestMs.load(ordering: .relaxed) >= 400, "the back-off slowed the wrong tokens' answers")
        #expect(host.process.isRunning)
    }
}
