import Testing
@testable import LiveCore

/// What a host's window says about remote control, and the list of hosts
/// `physarum remote` builds from what Avahi resolves.
@Suite struct HostDiscoveryModelTests {
    @Test func theWindowSaysWhereToConnectAndShowsTheTokenOnlyWhenAsked() {
        var s = HostStatus(addresses: ["192.168.1.4:7777", "10.0.0.2:7777"], loopbackOnly: false, token: "abcdef0123456789abcdef0123456789",
                           remotePeer: nil, announcement: .announced(name: "Physarum Live on studio"))
        let hidden = s.lines(showToken: false)
        #expect(hidden == ["Remote control on 192.168.1.4:7777, 10.0.0.2:7777", "Token needed (K shows it)",
                           "Found on the local network as \"Physarum Live on studio\"", "No remote connected"])
        #expect(!hidden.joined().contains("abcdef"))
        #expect(s.lines(showToken: true)[1] == "Token: abcdef0123456789abcdef0123456789  (K hides it)")
        s.remotePeer = "192.168.1.9"
        s.announcement = .unavailable(reason: "the Avahi daemon is not running")
        #expect(s.lines(showToken: false).suffix(2) == ["Not announced on the network: the Avahi daemon is not running",
                                                        "Remote connected from 192.168.1.9"])
        let local = HostStatus(addresses: ["127.0.0.1:7777"], loopbackOnly: true, token: nil, remotePeer: nil, announcement: nil)
        #expect(local.lines(showToken: true) == ["Remote control on 127.0.0.1:7777 (this machine only)", "No token needed", "No remote connected"])
    }

    @Test func kTogglesTheToken() {
        #expect(KeyMap.action(for: KeyPress(key: .letter("k")), textFocused: false) == .live(.toggleHostToken))
        #expect(KeyMap.action(for: KeyPress(key: .letter("k")), textFocused: true) == nil)
        var m = AppModel(presets: [])
        _ = m.handle(.live(.toggleHostToken))
        #expect(m.live.hostTokenShown)
    }

    static func found(_ name: String, _ address: String, port: Int = 7777) -> DiscoveredHost {
        DiscoveredHost(name: name, hostName: "studio.local", address: address, port: port, tokenRequired: true, version: 1)
    }

    @Test func oneEntryPerHostWithItsBestAddress() {
        var d = HostDirectory()
        // Avahi reports a host once per interface and family.
        d.add(Self.found("Studio", "fe80::1"))
        d.add(Self.found("Studio", "127.0.0.1"))
        d.add(Self.found("Studio", "192.168.1.4"))
        d.add(Self.found("Studio", "fd00::4"))
        d.add(Self.found("Attic", "fd00::7", port: 7000))
        #expect(d.sorted.map(\.name) == ["Attic", "Studio"])
        #expect(d.sorted[1].target == "192.168.1.4:7777")
        #expect(d.sorted[0].target == "[fd00::7]:7000")
        #expect(d.sorted[1].browseLine == "Studio\t192.168.1.4:7777\tstudio.local\ttoken")
        d.remove(name: "Studio")
        #expect(d.sorted.map(\.name) == ["Attic"])
    }

    @Test func theAnswerPicksByNumberOrName() {
        var d = HostDirectory()
        d.add(Self.found("Studio", "192.168.1.4"))
        d.add(Self.found("Attic", "192.168.1.5"))
        #expect(d.choose("1")?.name == "Attic")
        #expect(d.choose(" 2\n")?.name == "Studio")
        #expect(d.choose("Studio")?.name == "Studio")
        #expect(d.choose("3") == nil)
        #expect(d.choose("0") == nil)
        #expect(d.choose("studio") == nil)
        #expect(Discovery.txt(tokenRequired: false) == ["v=1", "token=no"])
    }
}
