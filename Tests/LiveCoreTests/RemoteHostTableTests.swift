import Engine
import TestSupport
import Testing
@testable import LiveCore

/// The host's connection policy on an injected clock.
@Suite struct RemoteHostTableTests {
    static let token = "0123456789abcdef0123456789abcdef"

    static func hello(_ token: String? = RemoteHostTableTests.token, version: Int = 1) -> DecodedFrame {
        .message(.hello(RemoteHello(version: version, token: token, push: nil)))
    }

    static func errors(_ d: [HostTable.Decision], to id: Int) -> [String] {
        d.compactMap { if case .send(id, .error(let code, _)) = $0 { code } else { nil } }
    }

    static func closes(_ d: [HostTable.Decision]) -> [Int] {
        d.compactMap { if case .close(let id, _) = $0 { id } else { nil } }
    }

    static func delivered(_ d: [HostTable.Decision]) -> [HostEvent] {
        d.compactMap { if case .deliver(let e) = $0 { e } else { nil } }
    }

    @Test func aValidHelloConnectsAWrongOrMissingTokenIsRefused() {
        var t = HostTable(policy: .init(token: Self.token))
        _ = t.opened(1, now: 0)
        let wrong = t.received(1, Self.hello("ffffffffffffffffffffffffffffffff"), now: 0.1)
        #expect(Self.errors(wrong, to: 1) == ["unauthorized"] && Self.closes(wrong) == [1])
        #expect(Self.delivered(wrong).isEmpty && t.active == nil)
        _ = t.opened(2, now: 0.2)
        let missing = t.received(2, Self.hello(nil), now: 0.3)
        #expect(Self.errors(missing, to: 2) == ["unauthorized"] && Self.closes(missing) == [2])
        _ = t.opened(3, now: 0.4)
        let ok = t.received(3, Self.hello(), now: 0.5)
        #expect(ok.contains(.authenticated(3)))
        #expect(Self.delivered(ok) == [.connected(connection: 3, push: nil)])
        #expect(t.active?.id == 3 && t.pending.isEmpty)
    }

    @Test func otherVersionsAndNonHelloFirstMessagesAreRefused() {
        var t = HostTable(policy: .init(token: nil))
        _ = t.opened(1, now: 0)
        #expect(Self.errors(t.received(1, Self.hello(nil, version: 2), now: 0), to: 1) == ["version"])
        _ = t.opened(2, now: 0)
        let d = t.received(2, .message(.intent(seq: 1, .next)), now: 0)
        #expect(Self.errors(d, to: 2) == ["hello-first"] && Self.delivered(d).isEmpty)
        // Junk before hello is skipped, not fatal; the hello still works.
        _ = t.opened(3, now: 0)
        #expect(Self.closes(t.received(3, .invalid("x"), now: 0)).isEmpty)
        #expect(Self.closes(t.received(3, .unknownType("hologram"), now: 0)).isEmpty)
        #expect(t.received(3, Self.hello(nil), now: 0).contains(.authenticated(3)))
    }

    @Test func aNewcomerReplacesTheRemoteOnlyAfterAValidHello() {
        var t = HostTable(policy: .init(token: Self.token))
        _ = t.opened(1, now: 0)
        _ = t.received(1, Self.hello(), now: 0)
        _ = t.opened(2, now: 1)
        let bad = t.received(2, Self.hello("nope-nope-nope-nope"), now: 1)
        #expect(Self.closes(bad) == [2] && t.active?.id == 1, "an invalid hello leaves the remote alone")
        _ = t.opened(3, now: 2)
        #expect(t.active?.id == 1, "connecting is not enough")
        let good = t.received(3, Self.hello(), now: 2.5)
        #expect(Self.errors(good, to: 1) == ["replaced"] && Self.closes(good) == [1])
        #expect(Self.delivered(good) == [.connected(connection: 3, push: nil)], "no disconnect in between: the host stays controlled")
        #expect(t.active?.id == 3)
        #expect(t.received(1, .message(.intent(seq: 9, .next)), now: 2.6).isEmpty, "the old one is not heard any more")
    }

    @Test func pendingConnectionsAreCapped() {
        var t = HostTable(policy: .init(token: nil))
        for id in 1...16 { #expect(t.opened(id, now: 0).isEmpty) }
        let d = t.opened(17, now: 0)
        #expect(Self.errors(d, to: 17) == ["busy"] && Self.closes(d) == [17])
        _ = t.received(1, Self.hello(nil), now: 0.1)
        #expect(t.opened(18, now: 0.2).isEmpty, "a place freed up")
    }

    @Test func helloTimeoutPingsAndSilence() {
        var t = HostTable(policy: .init(token: nil))
        _ = t.opened(1, now: 0)
        #expect(t.deadline() == 5)
        #expect(t.tick(now: 4.99).isEmpty)
        let late = t.tick(now: 5)
        #expect(Self.errors(late, to: 1) == ["hello-timeout"] && Self.closes(late) == [1])
        _ = t.opened(2, now: 10)
        _ = t.received(2, Self.hello(nil), now: 10)
        #expect(t.tick(now: 10.5).isEmpty)
        #expect(t.tick(now: 11).contains(.send(2, .ping(1))), "ping every second")
        _ = t.received(2, .message(.pong(1)), now: 11.1)
        #expect(t.tick(now: 12).contains(.send(2, .ping(2))))
        t.heard(2, now: 12.5)  // part of a frame arrived: not silent
        #expect(!t.tick(now: 15.4).contains { if case .close = $0 { true } else { false } }, "heard 2.9 s ago: still fine")
        let silent = t.tick(now: 15.5)
        #expect(Self.closes(silent) == [2])
        #expect(Self.delivered(silent).count == 1)
        if case .disconnected(let why)? = Self.delivered(silent).first { #expect(why.contains("silent")) }
        #expect(t.active == nil)
    }

    @Test func theRemoteIsHeardAndAnsweredAndBadFramesGetARateLimitedError() {
        var t = HostTable(policy: .init(token: nil))
        _ = t.opened(1, now: 0)
        _ = t.received(1, Self.hello(nil), now: 0)
        #expect(t.received(1, .message(.ping(5)), now: 1) == [.send(1, .pong(5))])
        #expect(Self.delivered(t.received(1, .message(.params(seq: 2, [.scalar(.exposure, 2)])), now: 1))
                == [.params(seq: 2, [.scalar(.exposure, 2)])])
        #expect(Self.errors(t.received(1, .invalid("bad"), now: 2), to: 1) == ["bad-message"])
        #expect(Self.errors(t.received(1, .invalid("bad"), now: 2.5), to: 1).isEmpty, "one error reply per second")
        #expect(Self.errors(t.skipped(1, reason: "empty frame", now: 3.1), to: 1) == ["bad-message"])
        let closed = t.closed(1, reason: "closed by the peer")
        #expect(Self.delivered(closed) == [.disconnected(reason: "closed by the peer")])
    }

    @Test func theInboxMergesParamFloodsAndKeepsConnectionChanges() {
        let inbox = HostInbox(capacity: 4)
        for i in 0..<1000 { inbox.post(.params(seq: UInt64(i), [.scalar(.exposure, Double(i) / 1000)])) }
        inbox.post(.intent(seq: 1000, .next))
        for _ in 0..<10 { inbox.post(.intent(seq: 1001, .next)) }
        inbox.post(.disconnected(reason: "gone"))
        let events = inbox.drain()
        #expect(events.first == .params(seq: 999, [.scalar(.exposure, 0.999)]))
        #expect(events.count == 5, "capacity 4 plus the vital disconnect: \(events.count)")
        #expect(events.last == .disconnected(reason: "gone"))
        #expect(inbox.dropped == 8)
    }
}
