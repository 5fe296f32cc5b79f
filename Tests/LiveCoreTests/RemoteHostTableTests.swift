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

    @Test func pendingConnectionsAreCappedPerAddressAndTheOldestMakesRoom() {
        var t = HostTable(policy: .init(token: nil))
        let perAddress = RemoteProtocol.maxPendingPerAddress
        for id in 1...perAddress { #expect(t.opened(id, from: "10.0.0.1", now: Double(id) * 0.01).isEmpty) }
        let d = t.opened(100, from: "10.0.0.1", now: 1)
        #expect(Self.errors(d, to: 1) == ["busy"] && Self.closes(d) == [1], "the longest waiting of that address makes room")
        #expect(t.pending.count == perAddress && t.pending[100] != nil, "the newcomer waits")
        // Another address is not touched by that address's crowd.
        #expect(t.opened(200, from: "10.0.0.2", now: 1.1).isEmpty)
        let ok = t.received(100, Self.hello(nil), now: 1.2)
        #expect(ok.contains(.authenticated(100)), "the newcomer's hello is heard")
        #expect(t.opened(101, from: "10.0.0.1", now: 1.3).isEmpty, "a place freed up")
    }

    @Test func aFullHostMakesRoomFromTheFullestAddressNeverFromTheRemote() {
        var t = HostTable(policy: .init(token: nil, maxPending: 8, maxPendingPerAddress: 6))
        _ = t.opened(1, from: "remote", now: 0)
        _ = t.received(1, Self.hello(nil), now: 0)
        for id in 2...7 { _ = t.opened(id, from: "crowd", now: Double(id)) }
        _ = t.opened(8, from: "other", now: 10)
        _ = t.opened(9, from: "other", now: 11)
        let d = t.opened(10, from: "third", now: 12)
        #expect(Self.closes(d) == [2], "the oldest of the fullest address goes: \(d)")
        #expect(t.active?.id == 1, "the remote is not waiting for anything and stays")
        #expect(Set(t.pending.keys) == [3, 4, 5, 6, 7, 8, 9, 10])
    }

    @Test func wrongTokensAreAnsweredSlowerAndSlowerWhileARightOneGetsInAtOnce() {
        var t = HostTable(policy: .init(token: Self.token))
        let wrong = Self.hello("ffffffffffffffffffffffffffffffff")
        // The first three wrong tokens are refused at once.
        for id in 1...3 {
            _ = t.opened(id, from: "guesser", now: Double(id))
            #expect(Self.errors(t.received(id, wrong, now: Double(id)), to: id) == ["unauthorized"])
        }
        // The fourth's answer waits 0.5 s, the fifth's 1 s, the sixth's 2 s.
        _ = t.opened(4, from: "guesser", now: 3.1)
        #expect(t.received(4, wrong, now: 3.1).allSatisfy { if case .log = $0 { true } else { false } }, "decided, not answered yet")
        #expect(t.deadline() <= 3.6)
        #expect(Self.closes(t.tick(now: 3.5)).isEmpty)
        #expect(Self.errors(t.tick(now: 3.6), to: 4) == ["unauthorized"], "answered after the delay")
        _ = t.opened(5, from: "guesser", now: 3.7)
        _ = t.opened(6, from: "guesser", now: 3.7)
        _ = t.opened(7, from: "guesser", now: 3.7)
        _ = t.received(5, wrong, now: 3.7)
        _ = t.received(6, wrong, now: 3.7)
        // A right token from the same address, behind two wrong ones: in at once.
        let ok = t.received(7, Self.hello(), now: 3.7)
        #expect(Self.delivered(ok) == [.connected(connection: 7, push: nil)], "\(ok)")
        #expect(t.active?.id == 7)
        #expect(Self.closes(t.tick(now: 4.6)).isEmpty)
        #expect(Self.errors(t.tick(now: 4.7), to: 5) == ["unauthorized"], "1 s after its check")
        #expect(Self.closes(t.tick(now: 5.6)).isEmpty)
        #expect(Self.errors(t.tick(now: 5.7), to: 6) == ["unauthorized"], "2 s after its check")
        // The right token does not clear the guesser's record; another address was never slowed.
        _ = t.opened(8, from: "guesser", now: 6)
        #expect(Self.closes(t.received(8, wrong, now: 6)).isEmpty, "still slowed")
        _ = t.opened(9, from: "elsewhere", now: 6)
        #expect(Self.errors(t.received(9, wrong, now: 6), to: 9) == ["unauthorized"])
        // The delay stops growing at its limit.
        var now = 7.0
        for id in 10..<30 {
            _ = t.opened(id, from: "guesser", now: now)
            _ = t.received(id, wrong, now: now)
            now += 0.01
        }
        let last = t.pending[29]?.refusal?.at ?? 0
        #expect(abs(last - (now - 0.01) - RemoteProtocol.maxRefusalDelay) < 1e-9)
    }

    @Test func aFullAddressMakesRoomFromDecidedRefusalsFirst() {
        var t = HostTable(policy: .init(token: Self.token, maxPending: 64, maxPendingPerAddress: 4))
        let wrong = Self.hello("ffffffffffffffffffffffffffffffff")
        for id in 1...3 {
            _ = t.opened(id, from: "a", now: 0)
            _ = t.received(id, wrong, now: 0)
        }
        _ = t.opened(4, from: "a", now: 0.1)  // a slow hello: waits longest among the undecided
        for id in 5...7 {
            _ = t.opened(id, from: "a", now: 0.2)
            _ = t.received(id, wrong, now: 0.2)
        }
        #expect(Set(t.pending.keys) == [4, 5, 6, 7])
        let d = t.opened(8, from: "a", now: 0.3)
        #expect(Self.errors(d, to: 5) == ["unauthorized"] && Self.closes(d) == [5],
                "a decided refusal makes room (answered early), not the undecided one: \(d)")
        #expect(t.pending[4] != nil && t.pending[8] != nil)
    }

    @Test func aRefusalWaitingForItsAnswerIsPingedSoItsRemoteWaits() {
        var t = HostTable(policy: .init(token: Self.token))
        for id in 1...4 {
            _ = t.opened(id, from: "a", now: 0)
            _ = t.received(id, Self.hello("nope-nope-nope-nope"), now: 0)
        }
        // Three answered at once; the fourth waits 0.5 s, longer ones are pinged.
        for id in 5...6 {
            _ = t.opened(id, from: "a", now: 0)
            _ = t.received(id, Self.hello("nope-nope-nope-nope"), now: 0)
        }
        let d = t.tick(now: 1)
        #expect(d.contains { if case .send(6, .ping) = $0 { true } else { false } }, "\(d)")
        #expect(t.received(6, .message(.pong(1)), now: 1.1).isEmpty, "its pong does not count as a first message")
        #expect(Self.errors(t.tick(now: 2), to: 6) == ["unauthorized"])
    }

    @Test func helloTimeoutPingsAndSilence() {
        var t = HostTable(policy: .init(token: nil))
        _ = t.opened(1, now: 0)
        let limit = RemoteProtocol.helloTimeout
        #expect(t.deadline() == limit)
        #expect(t.tick(now: limit - 0.01).isEmpty)
        let late = t.tick(now: limit)
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
