import Foundation
import TestSupport
import Testing

/// Hosts found on the local network: a real avahi-daemon on a private system
/// bus (scripts/services-private.sh, started by scripts/test or here), real
/// `physarum host` and `physarum remote` processes.
@Suite(.serialized) struct DiscoveryTests {
    /// The host's announcement in its state file.
    static func announcement(_ host: HostProcess) -> [String: Any]? {
        (host.state?["host"] as? [String: Any])?["announcement"] as? [String: Any]
    }

    @Test func aHostOnEveryInterfaceIsListedByBrowseAndTheRemoteConnectsByChoosingIt() throws {
        let services = PrivateServices()
        try services.avahi()
        let fx = try RemoteFixture()
        for (k, v) in services.environment { fx.env[k] = v }
        let started = Date()
        let host = try fx.startHost(address: "0.0.0.0:0")
        defer { host.process.stop() }
        let port = try #require(host.port)
        // One `--browse`, started as soon as the host listens, lists it (it
        // browses for at most --wait seconds).
        let browse = try AppProcess(["remote", "--browse", "--wait", "3"], environment: fx.env)
        #expect(browse.wait(seconds: 30) == 0, "browse: \(browse.stderr)")
        let listed = Date().timeIntervalSince(started)
        let line = browse.stdout.split(separator: "\n").first { $0.contains(":\(port)\t") }
        #expect(line != nil, "the host (port \(port)) is listed: \(browse.stdout)\nhost: \(host.process.stderr)")
        let fields = line.map { $0.split(separator: "\t").map(String.init) } ?? []
        #expect(fields.count == 4 && fields[3] == "token", "NAME, ADDR:PORT, host name, token: \(fields)")
        print("DiscoveryTests: host start to listed by one --browse: \(String(format: "%.2f", listed)) s")

        // The announcement is in the host's state, under the name browse printed.
        var name: String?
        #expect(poll(seconds: 10) {
            name = Self.announcement(host)?["name"] as? String
            return name != nil
        })
        #expect(fields.first == name)
        // Choosing it by name (other hosts may be on the network), then the token, on standard input.
        let token = try #require(host.process.stdout.split(separator: "\n").first { $0.hasPrefix("remote token: ") }?
            .dropFirst("remote token: ".count))
        let script = fx.file("chosen.jsonl")
        try #"{"intent":"jumpTo","preset":"gamma"}"#.write(to: script, atomically: true, encoding: .utf8)
        let remote = try AppProcess(["remote", "--wait", "3", "--headless", "--script", script.path], environment: fx.env,
                                    input: "\(name ?? "?")\n\(token)\n")
        defer { remote.stop() }
        #expect(poll(seconds: 30) { host.remoteConnected && host.state?["preset"] as? String == "gamma" },
                "the remote connected to the host it chose and its script ran: \(remote.stderr)")
        let status = host.state?["host"] as? [String: Any]
        #expect(status?["remotePeer"] as? String != nil, "the host knows where its remote is: \(String(describing: status))")
        #expect((status?["lines"] as? [String])?.contains { $0.hasPrefix("Remote connected from ") } == true)
        #expect(remote.stderr.contains("Connect to which?") && remote.stderr.contains("token needed"), "\(remote.stderr)")
        host.process.signal(SIGTERM)
        #expect(host.process.wait(seconds: 30) == 0)
    }

    @Test func withoutAvahiTheHostAndTheRemoteRunWithOneNotice() throws {
        let fx = try RemoteFixture()
        let noBus = fx.file("no-such-bus").path
        fx.env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(noBus)"
        let host = try fx.startHost(address: "0.0.0.0:0", extra: ["--token", "0123456789abcdef0123"])
        defer { host.process.stop() }
        let port = try #require(host.port)
        #expect(poll(seconds: 10) { Self.announcement(host)?["state"] as? String == "unavailable" },
                "the state says why: \(String(describing: Self.announcement(host)))")
        // A remote by address still connects.
        let (remote, _) = try fx.startRemote("by-address", port: port, script: [#"{"intent":"jumpTo","preset":"beta"}"#],
                                             extra: ["--token", "0123456789abcdef0123"])
        defer { remote.stop() }
        #expect(poll(seconds: 30) { host.remoteConnected && host.state?["preset"] as? String == "beta" }, "\(remote.stderr)")
        let notices = host.process.stderr.components(separatedBy: "not announced on the local network").count - 1
        #expect(notices == 1, "one notice on the host: \(host.process.stderr)")
        #expect(host.process.stderr.contains("Avahi daemon is not running"))

        let browse = try AppProcess(["remote", "--browse", "--wait", "1"], environment: fx.env)
        #expect(browse.wait(seconds: 20) == 1)
        #expect(browse.stdout.isEmpty)
        #expect(browse.stderr.split(separator: "\n").count == 1, "one line: \(browse.stderr)")
        #expect(browse.stderr.contains("cannot look for hosts on the local network"))
        let choose = try AppProcess(["remote", "--wait", "1", "--headless"], environment: fx.env, input: "1\n")
        #expect(choose.wait(seconds: 20) == 1)
        #expect(choose.stderr.split(separator: "\n").count == 1, "one line: \(choose.stderr)")
        #expect(choose.stderr.contains("physarum remote HOST:PORT"), "it says what to do instead: \(choose.stderr)")
    }
}
