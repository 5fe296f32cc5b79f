import AudioReactive
import Foundation
import Storage
import Testing
@testable import LiveApp

/// `physarum analyze`'s lines are written digit by digit; they must read
/// exactly as printf and the JSON writer wrote them before.
@Suite struct FeatureLineWriterTests {
    /// Values a hop line carries: sample-clock times (k / 48000, full of exact
    /// decimal ties at 6 digits), levels in 0…1, negatives, large numbers.
    static var values: [Double] {
        var v: [Double] = [0, -0.0, 1, 0.5, 0.125, 0.375, 0.005, 0.015, 0.025, 0.115, 2.675, -0.004, -1.5, 123456.789, 99.995]
        for k in stride(from: 0, to: 48000 * 3, by: 37) { v.append(Double(k) / 48000) }
        var x: UInt64 = 99
        for _ in 0..<2000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            v.append(Double(x >> 11) / Double(1 << 53) * 2 - 0.5)
        }
        return v
    }

    @Test func fixedDecimalsReadAsPrintf() {
        var mismatches: [String] = []
        for v in Self.values {
            for (d, w) in [(6, 10), (2, 0), (4, 0)] {
                var b: [UInt8] = []
                DecimalText.fixed(v, decimals: d, width: w, into: &b)
                let ours = String(decoding: b, as: UTF8.self)
                let printf = String(format: "%\(w > 0 ? String(w) : "").\(d)f", v)
                if ours != printf { mismatches.append("\(v) %\(w).\(d)f: \(ours) vs \(printf)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func jsonNumbersReadAsTheWriter() {
        var mismatches: [String] = []
        for v in Self.values {
            for d in [2, 3, 4, 6] {
                var b: [UInt8] = []
                DecimalText.rounded(v, d, into: &b)
                let ours = String(decoding: b, as: UTF8.self)
                let writer = JSONNode.rounded(v, d).text
                if ours != writer { mismatches.append("\(v) to \(d): \(ours) vs \(writer)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
