import Foundation
import Testing
import TestSupport

/// Remote control through the real window under Xvfb: the window as a host,
/// and the window as a remote editor (a real key press mirrored to the host).
@Suite(.serialized) struct RemoteWindowTests {
    @Test func theWindowAsAHostFollowsAScriptedRemote() throws {
        let display = try #require(TestDisplay.display, "Xvfb is needed (scripts/test installs it)")
        let fx = try RemoteFixture()
        fx.env["DISPLAY"] = display
        let state = fx.file("window-state.json")
        let app = try AppProcess(["--listen", "127.0.0.1:0", "--no-audio", "--no-session", "--size", "800x600",
                                  "--state-file", state.path], environment: fx.env)
        defer { app.stop() }
        var port: Int?
        #expect(poll(seconds: 60) {
            port = (readJSON(state)?["listen"] as? String)?.split(separator: ":").last.flatMap { Int($0) }
            return port != nil
        }, "the window listens: \(app.stderr)")
        let p = try #require(port)
        let (remote, remoteState) = try fx.startRemote("script", port: p, script: [
            #"{"intent":"jumpTo","preset":"gamma"}"#, #"{"params":{"global.exposure":3.5,"effects.vignette":0.8}}"#, #"{"sync":true}"#,
        ])
        defer { remote.stop() }
        var host: NSDictionary?, mirror: NSDictionary?
        #expect(poll(seconds: 30) {
            host = RemoteEndToEndTests.shared(readJSON(state))
            mirror = RemoteEndToEndTests.shared(readJSON(remoteState))
            return host != nil && host == mirror && readJSON(remoteState)?["settled"] as? Bool == true
        }, "window \(String(describing: host))\nremote \(String(describing: mirror))\n\(remote.stderr)")
        #expect(host?["preset"] as? String == "gamma")
        #expect((host?["params"] as? [String: Any])?["global.exposure"] as? Double == 3.5)
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }

    @Test func theWindowAsARemoteMirrorsAKeyPressToTheHost() throws {
        // A display of its own: on the shared one another test's window can take the key press.
        let own = try WindowTestHome("remote-window", ownDisplay: true)
        let display = own.display
        defer { withExtendedLifetime(own) {} }  // Xvfb lives until the test ends
        let fx = try RemoteFixture()
        let host = try fx.startHost(extra: ["--preset", "beta"])
        defer { host.process.stop() }
        let port = try #require(host.port)
        fx.env["DISPLAY"] = display
        let state = fx.file("remote-window-state.json")
        let app = try AppProcess(["remote", "127.0.0.1:\(port)", "--no-audio", "--no-session", "--size", "1200x700",
                                  "--state-file", state.path], environment: fx.env)
        defer { app.stop() }
        // It pulls the host's look on connect.
        #expect(poll(seconds: 60) {
            readJSON(state)?["connected"] as? Bool == true && readJSON(state)?["preset"] as? String == "beta"
        }, "the remote window connects and shows the host's preset: \(app.stderr)")
        let before = try #require(host.state?["params"] as? [String: Any])
        #expect(NSDictionary(dictionary: before).isEqual(to: readJSON(state)?["params"] as? [String: Any] ?? [:]))
        // A real key press in the remote window: M mutates the look, which goes to the host.
        try LiveWindowTests.xdotool(["mousemove", "1100", "600"], display: display)
        var hostParams: [String: Any]?
        #expect(poll(seconds: 30) {
            try? LiveWindowTests.xdotool(["key", "m"], display: display)
            hostParams = host.state?["params"] as? [String: Any]
            return hostParams.map { !NSDictionary(dictionary: $0).isEqual(to: before) } ?? false
        }, "the host took the edit: \(app.stderr)")
        #expect(poll(seconds: 10) {
            let h = host.state?["params"] as? [String: Any], r = readJSON(state)?["params"] as? [String: Any]
            return h != nil && r != nil && NSDictionary(dictionary: h!).isEqual(to: r!)
        }, "and both show the same parameters")
        #expect(host.state?["preset"] as? String == "beta", "an edit, not a preset change")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
        #expect(poll(seconds: 5) { host.state?["playlist"] as? Bool == true }, "the host cycles again when the editor quits")
    }

    @Test func theHostWindowShowsItsAddressItsTokenOnKAndTheConnectedRemote() throws {
        // A display of its own: K below must reach this window, not another test's.
        let own = try #require(PrivateDisplay(), "Xvfb is needed (scripts/test installs it)")
        let display = own.display
        let fx = try RemoteFixture()
        fx.env["DISPLAY"] = display
        // No Avahi here (a bus that does not exist): the window says so once and carries on.
        fx.env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(fx.file("no-bus").path)"
        let state = fx.file("host-window-state.json")
        let app = try AppProcess(["--listen", "0.0.0.0:0", "--no-audio", "--no-session", "--size", "1000x700",
                                  "--state-file", state.path], environment: fx.env)
        defer { app.stop() }
        func host() -> [String: Any]? { readJSON(state)?["host"] as? [String: Any] }
        func lines() -> [String] { host()?["lines"] as? [String] ?? [] }
        #expect(poll(seconds: 60) { lines().contains("Token needed (K shows it)") }, "the window shows its remote control: \(app.stderr)")
        let port = try #require((readJSON(state)?["listen"] as? String)?.split(separator: ":").last.flatMap { Int($0) })
        let shown = lines().first ?? ""
        #expect(shown.hasPrefix("Remote control on ") && shown.contains(":\(port)") && !shown.contains("0.0.0.0"),
                "the machine's addresses a remote can type, not the wildcard: \(shown)")
        #expect(lines().contains("No remote connected"))
        let label = try #require(host()?["label"] as? [Double], "the label is drawn")
        #expect(label.count == 4 && label[0] >= 0 && label[1] >= 0 && label[2] <= 1000 && label[3] <= 700, "inside the window: \(label)")
        let token = try #require(app.stdout.split(separator: "\n").first { $0.hasPrefix("remote token: ") }?.dropFirst("remote token: ".count))
        #expect(!lines().joined().contains(token), "the token is hidden until asked for")
        // K shows the token (a real key press in the window).
        try LiveWindowTests.xdotool(["mousemove", "900", "100"], display: display)
        // K toggles: press it again only when a press was not taken (the state file is rewritten every second).
        var tokenShown = false
        for _ in 0..<3 where !tokenShown {
            try LiveWindowTests.xdotool(["key", "k"], display: display)
            tokenShown = poll(seconds: 5) { lines().contains("Token: \(token)  (K hides it)") }
        }
        #expect(tokenShown, "K shows the token: \(lines())")
        // A remote connects: the window names it.
        let (remote, _) = try fx.startRemote("window-host", port: port, script: [#"{"intent":"next"}"#], extra: ["--token", String(token)])
        defer { remote.stop() }
        #expect(poll(seconds: 30) { lines().contains("Remote connected from 127.0.0.1") }, "\(lines())\n\(remote.stderr)")
        #expect(host()?["remotePeer"] as? String == "127.0.0.1")
        let history = ((readJSON(state)?["notices"] as? [String: Any])?["history"] as? [[String: Any]]) ?? []
        let avahiNotices = history.filter { ($0["text"] as? String)?.contains("not announced on the local network") == true }
        #expect(avahiNotices.count == 1, "one notice without Avahi: \(history)")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }
}
