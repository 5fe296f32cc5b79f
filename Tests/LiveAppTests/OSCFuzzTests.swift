import Engine
import Foundation
import TestSupport
import Testing
@testable import LiveCore
@testable import LiveApp

/// The OSC packet decoder (liblo behind `OSCWire`) and the address space
/// under the structure-aware fuzzer: no crash, no hang, the same bytes decode
/// the same way twice, every refusal has a reason naming its address, and
/// whatever is accepted is a finite value inside its parameter's range.
/// `scripts/fuzz` runs it long beside LiveCoreTests' FuzzTests.
@Suite(.serialized) struct OSCFuzzTests {
    static let env = ProcessInfo.processInfo.environment
    static let seconds = env["PHYSARUM_FUZZ_SECONDS"].flatMap(Double.init) ?? 5
    static let maxCases = env["PHYSARUM_FUZZ_CASES"].flatMap(Int.init) ?? 4000
    static let seed = env["PHYSARUM_FUZZ_SEED"].flatMap(UInt64.init) ?? 1
    static let save = env["PHYSARUM_FUZZ_OUT"].map { URL(fileURLWithPath: $0) }
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzCorpus")

    static func float(_ f: Float) -> [UInt8] { withUnsafeBytes(of: f.bitPattern.bigEndian) { Array($0) } }
    static func double(_ d: Double) -> [UInt8] { withUnsafeBytes(of: d.bitPattern.bigEndian) { Array($0) } }
    static func int(_ i: Int32) -> [UInt8] { withUnsafeBytes(of: i.bigEndian) { Array($0) } }
    static func string(_ s: String) -> [UInt8] {
        var b = Array(s.utf8) + [0]
        while b.count % 4 != 0 { b.append(0) }
        return b
    }

    static var seeds: [[UInt8]] {
        let m = FuzzMutator.message
        let messages = [
            m("/physarum/param/effects.vignette", "f", float(0.77)),
            m("/physarum/param/global.exposure", "d", double(2.5)),
            m("/physarum/route/1/depth", "f", float(-1.25)),
            m("/physarum/preset/next", "", nil), m("/physarum/preset/slot", "i", int(3)),
            m("/physarum/blackout", "i", int(1)), m("/physarum/cycle", "i", int(0)),  // (T/F arguments: another change)
            m("/physarum/tempo", "f", float(128)), m("/physarum/tap", "", nil),
            m("/physarum/morph", "f", float(0.5)), m("/physarum/learn", "s", string("param/effects.bloom")),
        ]
        let bundle = Array("#bundle\u{0}".utf8) + [0, 0, 0, 0, 0, 0, 0, 1]
            + messages.prefix(3).flatMap { int(Int32($0.count)) + $0 }
        return messages + [bundle]
    }

    static let target = FuzzTarget(name: "osc-packet", seeds: seeds, shape: .oscPacket) { bytes in
        let first = bytes.withUnsafeBytes { OSCWire.decode($0) }
        let second = bytes.withUnsafeBytes { OSCWire.decode($0) }
        // Compared as text: a NaN argument is not equal to itself.
        guard "\(first.messages)" == "\(second.messages)", first.problem == second.problem else { return "the same packet decodes differently twice" }
        if let p = first.problem { return p.isEmpty ? "refused without a reason" : nil }
        for message in first.messages {
            switch OSCAddressSpace.actions(for: message) {
            case .failure(let e):
                if e.reason.isEmpty { return "a message refused without a reason" }
                // The address as logged: the message's own, cut to a log line (OSCText.clip).
                if e.address != OSCText.clip(message.address) { return "a refusal names another address: \(e.address)" }
            case .success(let actions):
                for case .setParam(let key, let v) in actions where !v.isFinite || v < key.spec.min || v > key.spec.max {
                    return "\(key.id) set to \(v), outside \(key.spec.min)…\(key.spec.max)"
                }
            }
        }
        return nil
    }

    @Test func decoderHoldsUnderMutation() throws {
        let report = FuzzRunner.run(Self.target, seed: Self.seed, maxCases: Self.maxCases, seconds: Self.seconds,
                                    saveTo: Self.save?.appendingPathComponent(Self.target.name))
        print("fuzz: \(report)")
        #expect(report.cases > 0)
        for f in report.failures.prefix(5) {
            Issue.record("osc-packet: \(f.reason) — input (base64): \(Data(f.input).base64EncodedString())\(f.file.map { " saved as \($0)" } ?? "")")
        }
    }

    @Test func reproducersStayFixed() {
        let (_, failures) = FuzzRunner.replay(Self.target, folder: Self.corpus)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func theSeedsAreValidPackets() {
        for (i, s) in Self.seeds.enumerated() {
            let d = s.withUnsafeBytes { OSCWire.decode($0) }
            #expect(d.problem == nil && !d.messages.isEmpty, "seed \(i): \(d) \(s)")
        }
    }
}
