import Foundation
import Glibc
import LiveCore
import Testing
import TestSupport
@testable import LiveApp

/// OSC at the edges: the data-less type tags of OSC 1.0/1.1 (T, F, N, I)
/// through liblo, addresses naming routes that do not exist, text from the
/// network cut before it reaches a log, and the kernel's drop count read
/// from the socket (SO_RXQ_OVFL).
@Suite struct OSCWireEdgeTests {
    /// An OSC string: the bytes, a NUL, padded to a multiple of 4.
    static func oscString(_ s: String) -> [UInt8] {
        var b = Array(s.utf8) + [0]
        while b.count % 4 != 0 { b.append(0) }
        return b
    }

    /// A message with these type tags and argument bytes.
    static func message(_ address: String, _ tags: String, _ data: [UInt8] = []) -> [UInt8] {
        oscString(address) + oscString("," + tags) + data
    }

    static func decode(_ bytes: [UInt8]) -> (messages: [OSCMessage], problem: String?) {
        bytes.withUnsafeBytes { OSCWire.decode($0) }
    }

    static func actions(_ bytes: [UInt8], routes: Int = 7) -> Result<[AppAction], OSCRejection>? {
        let d = decode(bytes)
        guard d.problem == nil, let m = d.messages.first else { return nil }
        return OSCAddressSpace.actions(for: m, context: OSCContext(routeCount: routes))
    }

    @Test func trueFalseNilAndImpulseDecodeWithoutData() {
        #expect(Self.decode(Self.message("/physarum/blackout", "T")).messages == [OSCMessage("/physarum/blackout", [.bool(true)])])
        #expect(Self.decode(Self.message("/physarum/blackout", "F")).messages == [OSCMessage("/physarum/blackout", [.bool(false)])])
        #expect(Self.decode(Self.message("/physarum/tap", "N")).messages == [OSCMessage("/physarum/tap", [.nil])])
        #expect(Self.decode(Self.message("/physarum/tap", "I")).messages == [OSCMessage("/physarum/tap", [.impulse])])
        // Mixed with data: the float after T still reads right.
        let f: Float = 0.5
        let mixed = Self.decode(Self.message("/x", "Tf", withUnsafeBytes(of: f.bitPattern.bigEndian, Array.init)))
        #expect(mixed.messages == [OSCMessage("/x", [.bool(true), .float(0.5)])], "\(mixed)")
    }

    @Test func theyDriveTheirAddresses() throws {
        #expect(try Self.actions(Self.message("/physarum/blackout", "T"))?.get() == [.live(.setBlackout(true))])
        #expect(try Self.actions(Self.message("/physarum/cycle", "F"))?.get() == [.live(.setCycling(false))])
        #expect(try Self.actions(Self.message("/physarum/tap", "I"))?.get() == [.audio(.beat(.tap))])
        #expect(try Self.actions(Self.message("/physarum/preset/next", "N"))?.get() == [.next])
        // A number is still needed where a value is asked for.
        if case .failure(let e)? = Self.actions(Self.message("/physarum/param/effects.vignette", "I")) {
            #expect(e.reason == "expects one number")
        } else {
            Issue.record("an impulse is not a value")
        }
    }

    @Test func aRouteThatDoesNotExistIsRefused() throws {
        let one: Float = 1
        let data = withUnsafeBytes(of: one.bitPattern.bigEndian, Array.init)
        #expect(try Self.actions(Self.message("/physarum/route/7/depth", "f", data), routes: 7)?.get() == [.audio(.setDepth(6, 1))])
        guard case .failure(let e)? = Self.actions(Self.message("/physarum/route/8/depth", "f", data), routes: 7) else {
            Issue.record("route 8 of 7 was taken")
            return
        }
        #expect(e.reason == "there is no route 8 (the config has 7)")
    }

    @Test func longAddressesAreCutWithTheirLength() {
        let long = "/physarum/param/" + String(repeating: "x", count: 27_000)
        guard case .failure(let e) = OSCAddressSpace.actions(for: OSCMessage(long, [.float(1)])) else {
            Issue.record("accepted")
            return
        }
        #expect(e.description.utf8.count < 300, "\(e.description.utf8.count) bytes")
        #expect(e.address.hasSuffix("… (27016 bytes)"), "\(e.address)")
        #expect(RateLimitedLog.capped(String(repeating: "y", count: 5000)).utf8.count < 400)
    }

    @Test func theKernelsDropCountComesWithEachDatagram() throws {
        let a = try SocketAddress.resolve(host: "127.0.0.1", port: 0, passive: true)[0]
        let socket = try Socket.udp(bind: a)
        let port = try #require(socket.localAddress?.port)
        // Flood the unread socket until the kernel drops some (its buffer is
        // finite), then read: the count the app reads equals the kernel's.
        let sender = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(sender) }
        var to = sockaddr_in()
        to.sin_family = sa_family_t(AF_INET)
        to.sin_port = in_port_t(UInt16(port).bigEndian)
        to.sin_addr.s_addr = inet_addr("127.0.0.1")
        let packet = Self.message("/physarum/tap", "")
        var kernel = 0
        for _ in 0..<50 where kernel == 0 {
            for _ in 0..<2000 {
                _ = packet.withUnsafeBytes { b in
                    withUnsafePointer(to: &to) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(sender, b.baseAddress, b.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    } }
                }
            }
            kernel = Self.procDrops(port: port)
        }
        try #require(kernel > 0, "the kernel dropped none (cannot check the count)")
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 2048, alignment: 8)
        defer { buffer.deallocate() }
        // The kernel stamps each datagram with the drops so far when it queues it:
        // those queued before the buffer filled say nothing; the next one says all.
        var queued = 0
        while socket.receiveDatagram(into: buffer) != nil { queued += 1 }
        #expect(queued > 0)
        _ = packet.withUnsafeBytes { b in
            withUnsafePointer(to: &to) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(sender, b.baseAddress, b.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            } }
        }
        var seen: Int?
        #expect(poll(seconds: 10) {
            if let r = socket.receiveDatagram(into: buffer) { seen = r.kernelDropped ?? -1 }
            return seen != nil
        })
        #expect(seen == kernel, "read \(String(describing: seen)), /proc/net/udp says \(kernel)")
    }

    /// /proc/net/udp's `drops` for the socket bound to `port`.
    static func procDrops(port: Int) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/net/udp", encoding: .utf8) else { return 0 }
        let hexPort = String(format: ":%04X", port)
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            if f.count > 12, f[1].hasSuffix(hexPort) { return Int(f[f.count - 1]) ?? 0 }
        }
        return 0
    }
}
