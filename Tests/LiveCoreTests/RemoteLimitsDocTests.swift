import Foundation
import Testing
@testable import LiveCore

/// docs/remote-protocol.md states the limits the code enforces: its table is
/// the one `RemoteProtocol.limitsTable` makes from the constants, and the
/// numbers in its prose are the constants' values.
@Suite struct RemoteLimitsDocTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/remote-protocol.md")

    static func text() throws -> String { try String(contentsOf: page, encoding: .utf8) }

    @Test func theLimitsTableIsTheGeneratedOne() throws {
        let doc = try Self.text()
        let begin = try #require(doc.range(of: "<!-- generated from RemoteProtocol.limitsTable"), "the table's start marker")
        let afterMarker = try #require(doc[begin.upperBound...].range(of: "-->\n"))
        let end = try #require(doc[afterMarker.upperBound...].range(of: "\n<!-- end of generated table -->"))
        let table = String(doc[afterMarker.upperBound..<end.lowerBound])
        #expect(table == RemoteProtocol.limitsTable, "docs/remote-protocol.md's table is out of date; it should read:\n\(RemoteProtocol.limitsTable)")
    }

    @Test func theProseStatesTheConstants() throws {
        let doc = try Self.text().replacingOccurrences(of: "\n  ", with: " ")
        func s(_ x: Double) -> String { x == x.rounded() ? "\(Int(x)) s" : "\(x) s" }
        let facts = [
            "must arrive within \(s(RemoteProtocol.helloTimeout)) of connecting",
            "At most \(RemoteProtocol.maxPending) connections may wait for their `hello`, at most \(RemoteProtocol.maxPendingPerAddress) from one address",
            "after \(RemoteProtocol.freeTokenFailures) wrong (or missing) tokens from one address",
            "is sent \(s(RemoteProtocol.firstRefusalDelay)) after its check",
            "failure up to \(s(RemoteProtocol.maxRefusalDelay))",
            "forgotten after \(Int(RemoteProtocol.forgetFailuresAfter / 60)) minutes",
            "silent for \(s(RemoteProtocol.silenceLimit)) (not a byte)",
            "its address's \(RemoteProtocol.maxPendingPerAddress) places",
        ]
        for f in facts { #expect(doc.contains(f), "docs/remote-protocol.md should say: \(f)") }
    }
}
