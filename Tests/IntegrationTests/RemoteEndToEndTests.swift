import Foundation
import Testing
import TestSupport

/// Two real processes on loopback: a headless host and scripted remotes.
@Suite(.serialized) struct RemoteEndToEndTests {
    static let token = "0123456789abcdef0123456789abcdef"

    /// The parts of a state dump both sides must agree on.
    static func shared(_ s: [String: Any]?) -> NSDictionary? {
        guard let s else { return nil }
        return NSDictionary(dictionary: ["preset": s["preset"] ?? NSNull(), "params": s["params"] ?? NSNull(),
                                         "playlist": s["playlist"] ?? NSNull(), "overlay": s["overlay"] ?? NSNull(),
                                         "revision": s["revision"] ?? NSNull()])
    }

    @Test func jumpAnd200ParamChangesMirrorExactlyThenKillingTheRemoteResumesCycling() throws {
        let fx = try RemoteFixture()
        let host = try fx.startHost(extra: ["--dwell", "3"])
        defer { host.process.stop() }
        let port = try #require(host.port)
        // Cycling on its own until someone connects.
        #expect(poll(seconds: 10) { host.state?["playlist"] as? Bool == true })

        // A preset jump, then 200 changes of two parameters over 2 s.
        var script = [#"{"intent":"jumpTo","preset":"beta"}"#]
        for i in 0..<200 {
            script.append(#"{"params":{"global.exposure":\#(0.5 + Double(i) * 0.01),"effects.bloom":\#(Double(i % 9) / 10)}}"#)
            script.append(#"{"wait":0.01}"#)
        }
        script.append(#"{"intent":"showOverlay"}"#)
        script.append(#"{"sync":true}"#)
        let (remote, remoteState) = try fx.startRemote("remote", port: port, script: script)
        defer { remote.stop() }
        #expect(poll(seconds: 15) { host.remoteConnected }, "the host sees the remote: \(remote.stderr)")
        #expect(host.state?["playlist"] as? Bool == false, "cycling pauses while a remote is connected")

        // Both state dumps agree (they refresh every second).
        var h: NSDictionary?, r: NSDictionary?
        let agreed = poll(seconds: 20) {
            h = Self.shared(host.state)
            r = Self.shared(readJSON(remoteState))
            return h != nil && h == r && readJSON(remoteState)?["settled"] as? Bool == true
        }
        #expect(agreed, "host \(String(describing: h))\nremote \(String(describing: r))\n\(remote.stderr)")
        let params = try #require(h?["params"] as? [String: Any])
        #expect(h?["preset"] as? String == "beta")
        #expect(params["global.exposure"] as? Double == 2.49, "the last value arrived")
        #expect(params["effects.bloom"] as? Double == Double(199 % 9) / 10)
        #expect(params["render.blendMode"] as? String == "paint", "beta's own values under the edits")
        #expect(h?["overlay"] as? Bool == true)

        // Kill the remote: within 3 s the host cycles again, and really moves on.
        remote.signal(SIGKILL)
        let killed = Date()
        #expect(poll(seconds: 3) { host.state?["playlist"] as? Bool == true && !host.remoteConnected },
                "cycling resumes within 3 s: \(String(describing: host.state?["remote"]))")
        print("remote killed → host cycling after \(String(format: "%.2f", Date().timeIntervalSince(killed))) s")
        #expect(poll(seconds: 10) { (host.state?["preset"] as? String).map { $0 != "beta" } ?? false }, "the cycle moves to another preset")
    }

    @Test func pushSendsTheRemotesLookInsteadOfPullingTheHosts() throws {
        let fx = try RemoteFixture()
        let host = try fx.startHost(extra: ["--preset", "alpha"])
        defer { host.process.stop() }
        let port = try #require(host.port)
        let (remote, remoteState) = try fx.startRemote("pusher", port: port, script: [#"{"sync":true}"#],
                                                       extra: ["--push", "--preset", "gamma"])
        defer { remote.stop() }
        var h: NSDictionary?, r: NSDictionary?
        #expect(poll(seconds: 20) {
            h = Self.shared(host.state)
            r = Self.shared(readJSON(remoteState))
            return h != nil && h == r && readJSON(remoteState)?["settled"] as? Bool == true
        }, "host \(String(describing: h))\nremote \(String(describing: r))\n\(remote.stderr)")
        #expect(h?["preset"] as? String == "gamma", "the host loaded the remote's preset")
        #expect((h?["params"] as? [String: Any])?["global.exposure"] as? Double == 2, "with the remote's values")
    }

    @Test func aScriptOnStandardInputRunsAndExitsWhenDone() throws {
        let fx = try RemoteFixture()
        let host = try fx.startHost()
        defer { host.process.stop() }
        let port = try #require(host.port)
        let state = fx.file("stdin-state.json")
        let lines = [#"{"intent":"jumpTo","preset":"gamma"}"#, #"{"params":{"global.exposure":0.75}}"#]
        let sh = try AppProcess(["-c", "printf '%s\\n' '\(lines[0])' '\(lines[1])' | \"$0\" remote 127.0.0.1:\(port) --headless --script - --exit-when-done --state-file \(state.path)",
                                 AppProcess.binary], environment: fx.env, binary: "/bin/sh")
        #expect(sh.wait(seconds: 20) == 0, "it exits 0 once the host acknowledged everything: \(sh.stderr)")
        let mine = try #require(readJSON(state))
        #expect(mine["preset"] as? String == "gamma" && mine["settled"] as? Bool == true)
        #expect((mine["params"] as? [String: Any])?["global.exposure"] as? Double == 0.75)
        #expect(poll(seconds: 5) { (host.state?["params"] as? [String: Any])?["global.exposure"] as? Double == 0.75 })
    }

    /// An endless script on standard input, every line a change: the remote
    /// takes it no further ahead than the host acknowledges, so its memory
    /// stays flat, and SIGTERM stops it at once (it used to take line after
    /// line without looking at signals: 7 minutes for 1 GB of lines).
    @Test func anEndlessScriptOnStandardInputStaysSmallAndStopsOnSIGTERM() throws {
        let fx = try RemoteFixture()
        let host = try fx.startHost()
        defer { host.process.stop() }
        let port = try #require(host.port)
        let fifo = fx.file("endless.fifo"), state = fx.file("endless-state.json")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let writer = try AppProcess(["-c", #"exec yes "$(printf '%s\n%s' '{"params":{"global.exposure":0.5}}' '{"params":{"global.exposure":0.75}}')" > "$0""#,
                                     fifo.path], binary: "/bin/sh")
        defer { writer.stop() }
        let remote = try AppProcess(["-c", #"exec "$0" remote 127.0.0.1:"$1" --headless --script - --state-file "$2" < "$3""#,
                                     AppProcess.binary, String(port), state.path, fifo.path], environment: fx.env, binary: "/bin/sh")
        defer { remote.stop() }
        // The script's lines the host acknowledged (the remote's state file, rewritten every second).
        func acked() -> Int { readJSON(state)?["ack"] as? Int ?? 0 }
        try #require(poll(seconds: 30) { acked() >= 2000 }, "the host follows the script: \(remote.stderr)")
        let first = try #require(AgentLimitWindowTests.memory(remote.pid)), firstAcked = acked()
        #expect(poll(seconds: 60) { acked() >= firstAcked + 50_000 }, "and goes on following it (\(acked()) lines acknowledged)")
        let later = try #require(AgentLimitWindowTests.memory(remote.pid))
        print("endless script: \(firstAcked) -> \(acked()) lines acknowledged, remote RSS \(first.now / 1024) -> \(later.now / 1024) MB")
        #expect(later.now - first.now < 16 * 1024, "memory stays flat: \(first.now / 1024) -> \(later.now / 1024) MB")
        remote.signal(SIGTERM)
        let status = remote.wait(seconds: 10)
        #expect(status == 0, "SIGTERM stops it while the script still runs: \(status.map(String.init) ?? "still running")")
    }

    @Test func theRemoteReconnectsWhenTheHostComesBack() throws {
        let fx = try RemoteFixture()
        var host = try fx.startHost(extra: ["--preset", "beta"])
        let port = try #require(host.port)
        let (remote, remoteState) = try fx.startRemote("patient", port: port, script: [])
        defer { remote.stop() }
        #expect(poll(seconds: 15) { readJSON(remoteState)?["connected"] as? Bool == true }, "\(remote.stderr)")
        host.process.signal(SIGKILL)
        host.process.wait(seconds: 10)
        #expect(poll(seconds: 10) { readJSON(remoteState)?["connected"] as? Bool == false }, "the remote notices")
        #expect(poll(seconds: 5) { remote.stderr.contains("retrying in") }, "and retries: \(remote.stderr)")
        // The same port again (SO_REUSEADDR), another preset.
        try? FileManager.default.removeItem(at: host.stateFile)
        host = try fx.startHost(address: "127.0.0.1:\(port)", extra: ["--preset", "gamma"])
        defer { host.process.stop() }
        #expect(poll(seconds: 15) {
            readJSON(remoteState)?["connected"] as? Bool == true && readJSON(remoteState)?["preset"] as? String == "gamma"
        }, "it reconnects by itself and pulls the new host's state: \(remote.stderr)")
        #expect(poll(seconds: 5) { host.connects == 1 } && remote.isRunning)
    }

    @Test func aValidHelloReplacesTheRemoteAnInvalidOneDoesNot() throws {
        let fx = try RemoteFixture()
        let host = try fx.startHost(extra: ["--token", Self.token])
        defer { host.process.stop() }
        let port = try #require(host.port)
        let (first, firstState) = try fx.startRemote("first", port: port, script: [], extra: ["--token", Self.token])
        defer { first.stop() }
        #expect(poll(seconds: 15) { host.remoteConnected && readJSON(firstState)?["connected"] as? Bool == true }, "\(first.stderr)")
        #expect(host.connects == 1)

        let (intruder, _) = try fx.startRemote("intruder", port: port, script: [], extra: ["--token", "ffffffffffffffffffffffffffffffff"])
        defer { intruder.stop() }
        let status = intruder.wait(seconds: 15)
        #expect(status == 1, "a refused remote gives up: \(intruder.stderr)")
        #expect(intruder.stderr.components(separatedBy: "wrong token").count == 2, "the refusal, once: \(intruder.stderr)")
        #expect(host.connects == 1 && first.isRunning, "the first remote is still in control")
        // A raw hello with a wrong token, too: refused and closed, nothing else changes.
        let raw = try RawClient(port: port)
        raw.sendFrame(#"{"type":"hello","version":1,"token":"nope-nope-nope-nope"}"#)
        let answer = raw.receive(seconds: 3)
        #expect(answer.closed && frames(answer.bytes).first?["code"] as? String == "unauthorized")
        #expect(host.connects == 1)

        let (second, secondState) = try fx.startRemote("second", port: port, script: [], extra: ["--token", Self.token])
        defer { second.stop() }
        #expect(poll(seconds: 15) { host.connects == 2 && readJSON(secondState)?["connected"] as? Bool == true }, "\(second.stderr)")
        #expect(first.wait(seconds: 10) == 1, "the first remote was replaced and stops")
        #expect(first.stderr.contains("another remote took over"))
        #expect(host.remoteConnected, "the host stays controlled by the second")
    }

    @Test func boundBeyondLoopbackTheTokenIsRequired() throws {
        let fx = try RemoteFixture()
        let host = try fx.startHost(address: "0.0.0.0:0")
        defer { host.process.stop() }
        let port = try #require(host.port)
        var token: String?
        #expect(poll(seconds: 10) {
            token = host.process.stdout.split(separator: "\n").first { $0.hasPrefix("remote token: ") }
                .map { String($0.dropFirst("remote token: ".count)) }
            return token != nil
        }, "the host prints the token it made: \(host.process.stdout)")
        let t = try #require(token)
        #expect(t.count == 32 && t.allSatisfy(\.isHexDigit), "128 random bits")

        let (without, _) = try fx.startRemote("without", port: port, script: [])
        defer { without.stop() }
        #expect(without.wait(seconds: 15) == 1, "refused without the token: \(without.stderr)")
        #expect(without.stderr.components(separatedBy: "requires a token").count == 2, "the refusal, once: \(without.stderr)")
        #expect(!host.remoteConnected && host.connects == 0)

        let (with, state) = try fx.startRemote("with", port: port, script: [#"{"intent":"next"}"#, #"{"sync":true}"#],
                                               extra: ["--token", t])
        defer { with.stop() }
        #expect(poll(seconds: 15) { host.remoteConnected && readJSON(state)?["settled"] as? Bool == true }, "\(with.stderr)")
        #expect(host.connects == 1)
    }
}
