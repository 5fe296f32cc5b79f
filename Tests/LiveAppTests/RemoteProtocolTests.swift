import Engine
import Foundation
import Storage
import Testing
@testable import LiveCore
@testable import LiveApp

@Suite struct RemoteProtocolTests {
    /// One of every message kind, with every optional part and every parameter kind.
    static var samples: [RemoteMessage] {
        var edited = PresetParams.defaults
        edited[.exposure] = 2.5
        edited[.species(1, .moveSpeed)] = 3.25
        edited.blendMode = .paint
        edited.setColor(RGBColor(r: 1, g: 2, b: 3), species: 2)
        let state = RemoteState(revision: 42, ack: 7, presetID: "user:3", params: edited, playlist: true, overlay: true, edited: true)
        return [
            .hello(RemoteHello()),
            .hello(RemoteHello(version: 1, token: "0123456789abcdef0123456789abcdef", push: nil)),
            .hello(RemoteHello(version: 1, token: nil, push: RemoteState(presetID: "neon", params: edited, playlist: true))),
            .intent(seq: 1, .next),
            .intent(seq: 2, .previous),
            .intent(seq: 3, .togglePlaylist),
            .intent(seq: 4, .jumpTo("user:12")),
            .intent(seq: 5, .jumpTo("neon-veins")),
            .intent(seq: 6, .showOverlay),
            .intent(seq: 7, .dismissOverlay),
            .params(seq: 8, [.scalar(.exposure, 1.75), .scalar(.agents, 250_000), .scalar(.matrix(0, 2), -0.5),
                             .spawnPattern(.spiral), .blendMode(.paint), .background(RGBColor(r: 10, g: 20, b: 30)),
                             .speciesColor(1, RGBColor(r: 255, g: 0, b: 128))]),
            .params(seq: 9, []),
            .state(state),
            .state(RemoteState(presetID: nil)),
            .ping(3),
            .pong(3),
            .error(code: "unauthorized", message: "wrong token — \"quoted\"\n"),
        ]
    }

    /// Feeds `bytes` to `decoder` in random chunk sizes (1…max).
    static func feedInChunks(_ bytes: [UInt8], into decoder: inout FrameDecoder, max: Int, rng: inout SeededRandom) -> [FrameDecoder.Event] {
        var events: [FrameDecoder.Event] = []
        var i = 0
        while i < bytes.count {
            let n = min(Int.random(in: 1...max, using: &rng), bytes.count - i)
            events += decoder.feed(Array(bytes[i..<(i + n)]))
            i += n
        }
        return events
    }

    static func messages(_ events: [FrameDecoder.Event]) -> [DecodedFrame] {
        events.compactMap { e in
            if case .frame(let b) = e { return RemoteMessage.decode(b) }
            return nil
        }
    }

    @Test(arguments: [1, 3, 7, 64, 1000, 100_000])
    func everyKindRoundTripsInRandomChunks(maxChunk: Int) {
        let stream = Self.samples.flatMap(\.frame)
        var rng = SeededRandom(state: UInt64(maxChunk))
        for _ in 0..<20 {
            var d = FrameDecoder(limit: RemoteProtocol.frameLimit)
            let events = Self.feedInChunks(stream, into: &d, max: maxChunk, rng: &rng)
            #expect(Self.messages(events) == Self.samples.map { .message($0) })
            #expect(events.count == Self.samples.count, "no skipped or fatal events")
            #expect(d.bufferedBytes == 0)
        }
    }

    @Test func messagesAreExplicitObjectsWithAType() throws {
        let text = RemoteMessage.intent(seq: 4, .jumpTo("user:12")).jsonText
        #expect(text == #"{"type":"intent","seq":4,"intent":"jumpTo","preset":"user:12"}"#)
        let hello = try StrictJSON.parse(text: RemoteMessage.hello(RemoteHello(token: "t")).jsonText)
        #expect(hello.object?["type"]?.string == "hello")
        #expect(hello.object?["version"]?.number == 1)
    }

    @Test func unknownTypeFromANewerPeerIsSkippedAndTheStreamGoesOn() {
        let future = FrameCodec.frame(Array(#"{"type":"hologram","beam":3}"#.utf8))
        var d = FrameDecoder(limit: RemoteProtocol.preHelloLimit)
        let out = Self.messages(d.feed(future + RemoteMessage.ping(9).frame))
        #expect(out == [.unknownType("hologram"), .message(.ping(9))])
    }

    @Test func emptyAndNonJSONFramesAreSkippedWithoutPoisoningTheStream() {
        var d = FrameDecoder(limit: RemoteProtocol.preHelloLimit)
        let garbage = FrameCodec.frame([0xFF, 0x00, 0x13, 0x37])
        let events = d.feed([0, 0, 0, 0] + garbage + RemoteMessage.pong(1).frame)
        #expect(events.count == 3)
        if case .skipped(let why) = events[0] { #expect(why.contains("empty")) } else { Issue.record("expected a skip: \(events[0])") }
        if case .skipped(let why) = events[1] { #expect(why.contains("not a JSON object")) } else { Issue.record("expected a skip: \(events[1])") }
        #expect(Self.messages(events) == [.message(.pong(1))])
    }

    @Test func invalidMessagesNameTheProblem() {
        func decode(_ s: String) -> DecodedFrame { RemoteMessage.decode(Array(s.utf8)) }
        func reason(_ s: String) -> String {
            if case .invalid(let r) = decode(s) { return r }
            return "decoded: \(decode(s))"
        }
        #expect(reason(#"{"seq":1}"#).contains("type"))
        #expect(reason(#"{"type":"intent","seq":1,"intent":"explode"}"#).contains("unknown intent 'explode'"))
        #expect(reason(#"{"type":"intent","seq":1,"intent":"jumpTo"}"#).contains("preset"))
        #expect(reason(#"{"type":"params","seq":1,"values":{"global.nope":1}}"#).contains("unknown parameter id 'global.nope'"))
        #expect(reason(#"{"type":"params","seq":1,"values":{"global.exposure":99}}"#).contains("must be within"))
        #expect(reason(#"{"type":"params","seq":1,"values":{"render.blendMode":"glow"}}"#).contains("blend mode"))
        #expect(reason(#"{"type":"hello"}"#).contains("version"))
        #expect(reason(#"{"type":"state","revision":1}"#).contains("params"))
        #expect(reason(#"{"type":"ping","id":-1}"#).contains("id"))
        #expect(reason(#"{"type":"ping","type":"pong"}"#).contains("duplicate"))
        #expect(reason("[1,2]").contains("object"))
        #expect(reason(#"{"type":"ping""#).contains("not JSON"))
        // Unknown fields are ignored (a newer peer may add some).
        #expect(decode(#"{"type":"ping","id":2,"colour":"red"}"#) == .message(.ping(2)))
    }

    @Test func aTruncatedFrameWaitsForTheRestAtEveryCut() {
        let frame = RemoteMessage.params(seq: 3, [.scalar(.exposure, 1.5)]).frame
        for cut in 0..<frame.count {
            var d = FrameDecoder(limit: RemoteProtocol.preHelloLimit)
            #expect(d.feed(Array(frame[..<cut])).isEmpty, "nothing before the frame is complete (cut \(cut))")
            #expect(Self.messages(d.feed(Array(frame[cut...]))) == [.message(.params(seq: 3, [.scalar(.exposure, 1.5)]))])
        }
    }

    @Test func aLengthOverTheLimitIsFatalAtOnce() {
        // Before hello: 64 KiB.
        var d = FrameDecoder(limit: RemoteProtocol.preHelloLimit)
        let over = UInt32(RemoteProtocol.preHelloLimit + 1)
        let header = [UInt8(over >> 24), UInt8(over >> 16 & 0xFF), UInt8(over >> 8 & 0xFF), UInt8(over & 0xFF)]
        let events = d.feed(header)
        #expect(events.count == 1)
        if case .fatal(let why) = events.first { #expect(why.contains("over the limit")) } else { Issue.record("expected fatal: \(events)") }
        #expect(d.feed(RemoteMessage.ping(1).frame).isEmpty, "a failed stream accepts nothing more")
        // Exactly at the limit is fine; after hello the limit is 8 MiB.
        var ok = FrameDecoder(limit: RemoteProtocol.preHelloLimit)
        let at = UInt32(RemoteProtocol.preHelloLimit)
        #expect(ok.feed([UInt8(at >> 24), UInt8(at >> 16 & 0xFF), UInt8(at >> 8 & 0xFF), UInt8(at & 0xFF), UInt8(ascii: "{")]).isEmpty)
        var after = FrameDecoder(limit: RemoteProtocol.frameLimit)
        #expect(after.feed(header + [UInt8(ascii: "{")]).isEmpty)
        var huge = FrameDecoder(limit: RemoteProtocol.frameLimit)
        #expect(huge.feed([0x00, 0x80, 0x00, 0x01]).contains { if case .fatal = $0 { true } else { false } }, "8 MiB + 1 is fatal")
    }

    @Test func aHelloAndABigFrameInOneReadUseTheRaisedLimitForTheSecond() {
        let big = RemoteMessage.error(code: "x", message: String(repeating: "y", count: 100_000)).frame
        let bytes = RemoteMessage.hello(RemoteHello()).frame + big
        var d = FrameDecoder(limit: RemoteProtocol.preHelloLimit)
        bytes.withUnsafeBytes { raw in
            let (first, used) = d.feed(raw, stopAfterFrame: true)
            #expect(Self.messages(first) == [.message(.hello(RemoteHello()))])
            #expect(used == RemoteMessage.hello(RemoteHello()).frame.count, "it stops right after the hello")
            d.limit = RemoteProtocol.frameLimit  // what the host does after a valid hello
            let (second, rest) = d.feed(UnsafeRawBufferPointer(rebasing: raw[used...]), stopAfterFrame: true)
            #expect(rest == big.count)
            #expect(Self.messages(second).count == 1 && d.failure == nil, "100 KB is fine after hello")
        }
    }

    @Test func randomByteStringsNeverCrashAndGiveTheDocumentedOutcome() throws {
        var rng = SeededRandom(state: 20_261_130)
        let tokens = Array(#"{}[]":,0123456789.-+eE truefalsenull\u"type""intent""params""hello""state""seq""values"#.utf8)
        var fatal = 0, skipped = 0, invalid = 0, decoded = 0
        var violations: [String] = []
        for i in 0..<100_000 {
            let n = Int.random(in: 0...80, using: &rng)
            // Half pure noise, half JSON-ish noise (reaches deep into the parser).
            let body: [UInt8] = i % 2 == 0
                ? (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
                : [UInt8(ascii: "{")] + (0..<n).map { _ in tokens.randomElement(using: &rng)! }
            // 1. As a raw stream: a length the limit allows waits, a larger one is fatal.
            var raw = FrameDecoder(limit: RemoteProtocol.preHelloLimit)
            let rawEvents = raw.feed(body)
            if body.count >= 4 {
                let len = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
                if len > RemoteProtocol.preHelloLimit {
                    if rawEvents.count != 1 || raw.failure == nil { violations.append("#\(i): length \(len) did not close") }
                    fatal += 1
                } else if raw.failure != nil {
                    violations.append("#\(i): length \(len) closed")
                }
            } else if !rawEvents.isEmpty {
                violations.append("#\(i): under 4 bytes decided something")
            }
            // 2. As a frame's payload: exactly one outcome, then the stream goes on.
            var framed = FrameDecoder(limit: RemoteProtocol.preHelloLimit)
            let events = framed.feed(FrameCodec.frame(body) + RemoteMessage.ping(UInt64(i)).frame)
            guard events.count == 2 else {
                violations.append("#\(i): \(events.count) events")
                continue
            }
            switch events[0] {
            case .skipped: skipped += 1
            case .frame(let b):
                switch RemoteMessage.decode(b) {
                case .invalid: invalid += 1
                case .message, .unknownType: decoded += 1
                }
            case .fatal: violations.append("#\(i): a framed payload was fatal")
            }
            if Self.messages([events[1]]) != [.message(.ping(UInt64(i)))] { violations.append("#\(i): the next frame did not decode") }
        }
        #expect(violations.isEmpty, "\(violations.count) violations, e.g. \(violations.prefix(5))")
        #expect(fatal > 1000 && skipped > 1000 && invalid > 1000, "each outcome was exercised: \(fatal) \(skipped) \(invalid) \(decoded)")
    }

    @Test func paramDiffCoversEveryKindAndAppliesBack() {
        var a = PresetParams.defaults
        var b = a
        b[.decay] = 0.9
        b.spawnPattern = .ring
        b.background = RGBColor(r: 9, g: 9, b: 9)
        b.setColor(RGBColor(r: 1, g: 1, b: 1), species: 0)
        let diff = ParamAssignment.diff(from: a, to: b)
        #expect(diff.map(\.id) == ["pheromone.decay", "spawn.pattern", "render.background", "species.0.color"])
        for d in diff { d.apply(to: &a) }
        #expect(a == b)
    }

    @Test func tokensCompareWholeStrings() {
        let t = RemoteToken.generate()
        #expect(t.count == 32 && t.allSatisfy(\.isHexDigit))
        #expect(RemoteToken.generate() != t)
        #expect(RemoteToken.matches(t, expected: t))
        #expect(!RemoteToken.matches(String(t.dropLast()), expected: t))
        #expect(!RemoteToken.matches(t + "0", expected: t))
        #expect(!RemoteToken.matches(nil, expected: t))
        #expect(!RemoteToken.matches("", expected: ""), "no token never matches")
    }

    @Test func hostPortParsing() throws {
        #expect(try HostPort.parse("7777", option: "--listen") == HostPort(host: nil, port: 7777))
        #expect(try HostPort.parse("0.0.0.0:80", option: "--listen") == HostPort(host: "0.0.0.0", port: 80))
        #expect(try HostPort.parse("[::1]:9", option: "--listen") == HostPort(host: "::1", port: 9))
        for bad in ["", "x", ":1", "1.2.3.4:", "::1:9", "1:99999", "[::1]9"] {
            #expect(throws: UsageError.self) { try HostPort.parse(bad, option: "--listen") }
        }
        #expect(throws: UsageError.self) { try HostPort.parse("7777", option: "HOST:PORT", requireHost: true) }
    }
}
