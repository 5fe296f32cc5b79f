import AudioReactive
import Foundation
import Storage

/// Writes one line per hop to standard output for `physarum analyze`,
/// batched: lines collect in a byte buffer and go out in one write per
/// `flush` (one per drained batch live, every 64 KiB offline).
///
/// The lines are made by hand, digit by digit, into that buffer: at 375
/// hops a second, `String(format:)` (nine calls a line, each a Foundation
/// format parse with dynamic casts) and the `JSONNode` tree (a few dozen
/// allocations a line) cost a live analysis more than the analysis itself.
/// The text is what they gave, byte for byte: `%10.6f` / `%.2f` for the text
/// lines (printf's exact decimal rounding), and for JSON
/// `JSONNode.rounded` (half away from zero) written as its shortest decimal.
/// Main thread only.
final class FeatureLineWriter {
    let json: Bool
    /// Print lines (off for `--osc` without `--json`).
    let printing: Bool
    /// The OSC feature stream (`--osc`), fed every hop.
    let bridge: OSCBridge?
    private var bytes: [UInt8] = []

    init(json: Bool, print printing: Bool = true, bridge: OSCBridge? = nil) {
        self.json = json
        self.printing = printing
        self.bridge = bridge
        bytes.reserveCapacity(1 << 17)
    }

    func write(_ f: AudioFeatures) {
        bridge?.add(f)
        guard printing else { return }
        if json { Self.appendJSON(f, to: &bytes) } else { Self.appendText(f, to: &bytes) }
        bytes.append(10)
        if bytes.count >= 1 << 16 { flush() }
    }

    /// Writes the buffered lines (one write) and flushes standard output.
    func flush() {
        fflush(nil)  // anything printed through stdio first
        bytes.withUnsafeBytes { writeQuietly($0, to: STDOUT_FILENO) }
        bytes.removeAll(keepingCapacity: true)
    }

    /// One hop as a JSON object (`--json`).
    static func jsonLine(_ f: AudioFeatures) -> String {
        var b: [UInt8] = []
        appendJSON(f, to: &b)
        return String(decoding: b, as: UTF8.self)
    }

    /// One hop as a text line.
    static func textLine(_ f: AudioFeatures) -> String {
        var b: [UInt8] = []
        appendText(f, to: &b)
        return String(decoding: b, as: UTF8.self)
    }

    static func appendJSON(_ f: AudioFeatures, to b: inout [UInt8]) {
        b.append(contentsOf: #"{"t":"#.utf8)
        DecimalText.rounded(f.time, 6, into: &b)
        b.append(contentsOf: #","sources":{"#.utf8)
        for (n, id) in AudioSourceID.allCases.enumerated() {
            let s = f[id]
            if n > 0 { b.append(UInt8(ascii: ",")) }
            b.append(UInt8(ascii: "\""))
            b.append(contentsOf: id.rawValue.utf8)
            b.append(contentsOf: #"":{"level":"#.utf8)
            DecimalText.rounded(Double(s.level), 4, into: &b)
            b.append(contentsOf: #","transient":"#.utf8)
            DecimalText.rounded(Double(s.transient), 4, into: &b)
            b.append(contentsOf: #","gate":"#.utf8)
            DecimalText.rounded(Double(s.gate), 4, into: &b)
            b.append(UInt8(ascii: "}"))
        }
        b.append(contentsOf: #"},"onset":"#.utf8)
        b.append(contentsOf: (f.onset ? "true" : "false").utf8)
        let beat = f.beat
        b.append(contentsOf: #","beat":{"tempo":"#.utf8)
        DecimalText.rounded(Double(beat.tempo), 2, into: &b)
        b.append(contentsOf: #","phase":"#.utf8)
        DecimalText.rounded(Double(beat.phase), 3, into: &b)
        b.append(contentsOf: #","confidence":"#.utf8)
        DecimalText.rounded(Double(beat.confidence), 3, into: &b)
        b.append(contentsOf: #","beat":"#.utf8)
        b.append(contentsOf: (beat.beat ? "true" : "false").utf8)
        b.append(contentsOf: #","bar":"#.utf8)
        b.append(contentsOf: (beat.bar ? "true" : "false").utf8)
        b.append(contentsOf: "}}".utf8)
    }

    static func appendText(_ f: AudioFeatures, to b: inout [UInt8]) {
        DecimalText.fixed(f.time, decimals: 6, width: 10, into: &b)
        for id in AudioSourceID.allCases {
            let s = f[id]
            b.append(contentsOf: "  ".utf8)
            b.append(contentsOf: id.rawValue.utf8)
            b.append(UInt8(ascii: " "))
            DecimalText.fixed(Double(s.level), decimals: 2, into: &b)
            b.append(UInt8(ascii: "/"))
            DecimalText.fixed(Double(s.transient), decimals: 2, into: &b)
            if s.gate < 0.5 { b.append(UInt8(ascii: "-")) }
        }
        if f.onset { b.append(contentsOf: "  ONSET".utf8) }
    }
}

/// Numbers as decimal text into a byte buffer, without Foundation.
enum DecimalText {
    static let powers: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// `v` with exactly `decimals` digits after the point (0…9), right-aligned
    /// in `width` characters: printf's `%{width}.{decimals}f`.
    static func fixed(_ v: Double, decimals: Int, width: Int = 0, into b: inout [UInt8]) {
        // printf rounds the exact binary value, half to even: the product is
        // rounded once more, so where it lands on .5 exactly, its rounding
        // error (the fused x·p − r, exact) says which side the value was on.
        let x = abs(v), p10 = powers[decimals]
        let r = x * p10
        var scaled = r.rounded(.down)
        let frac = r - scaled
        if frac > 0.5 {
            scaled += 1
        } else if frac == 0.5 {
            let err = (-r).addingProduct(x, p10)
            if err > 0 || (err == 0 && scaled.truncatingRemainder(dividingBy: 2) != 0) { scaled += 1 }
        }
        guard v.isFinite, scaled < 1e18 else {
            let s = v.isNaN ? "nan" : v.isInfinite ? (v < 0 ? "-inf" : "inf") : String(format: "%.\(decimals)f", v)
            pad(width - s.utf8.count, &b)
            b.append(contentsOf: s.utf8)
            return
        }
        let k = UInt64(scaled)
        let p = UInt64(powers[decimals])
        let negative = v.sign == .minus
        var digits = InlineArray<24, UInt8>(repeating: 0)
        var n = 0
        var q = k / p
        repeat {
            digits[n] = UInt8(truncatingIfNeeded: q % 10)
            q /= 10
            n += 1
        } while q > 0
        let length = (negative ? 1 : 0) + n + (decimals > 0 ? 1 + decimals : 0)
        pad(width - length, &b)
        if negative { b.append(UInt8(ascii: "-")) }
        while n > 0 {
            n -= 1
            b.append(48 + digits[n])
        }
        if decimals > 0 {
            b.append(UInt8(ascii: "."))
            appendFraction(k % p, decimals: decimals, strip: false, &b)
        }
    }

    /// `JSONNode.rounded(v, decimals)` as `JSONWriter` writes it: the value
    /// rounded half away from zero to `decimals` digits (0…9), in its
    /// shortest decimal form (no trailing zeros; an integer without a point).
    static func rounded(_ v: Double, _ decimals: Int, into b: inout [UInt8]) {
        let p = powers[decimals]
        let k = (v * p).rounded()
        let r = k / p
        // Exponent forms (tiny or huge values) and non-finite input: the writer itself.
        guard r.isFinite, abs(k) < 1e15, r == 0 || abs(r) >= 1e-3 else {
            b.append(contentsOf: JSONWriter.number(r.isFinite ? r : 0).utf8)
            return
        }
        let m = UInt64(abs(k))
        if m == 0 {
            b.append(UInt8(ascii: "0"))
            return
        }
        if k < 0 { b.append(UInt8(ascii: "-")) }
        let pi = UInt64(p)
        var digits = InlineArray<24, UInt8>(repeating: 0)
        var n = 0
        var q = m / pi
        repeat {
            digits[n] = UInt8(truncatingIfNeeded: q % 10)
            q /= 10
            n += 1
        } while q > 0
        while n > 0 {
            n -= 1
            b.append(48 + digits[n])
        }
        let frac = m % pi
        if frac != 0 {
            b.append(UInt8(ascii: "."))
            appendFraction(frac, decimals: decimals, strip: true, &b)
        }
    }

    /// The `decimals` digits of `frac` (< 10^decimals), zero-padded; without
    /// trailing zeros when `strip`.
    private static func appendFraction(_ frac: UInt64, decimals: Int, strip: Bool, _ b: inout [UInt8]) {
        var digits = InlineArray<10, UInt8>(repeating: 0)
        var f = frac
        for i in stride(from: decimals - 1, through: 0, by: -1) {
            digits[i] = UInt8(truncatingIfNeeded: f % 10)
            f /= 10
        }
        var last = decimals
        if strip { while last > 1 && digits[last - 1] == 0 { last -= 1 } }
        for i in 0..<last { b.append(48 + digits[i]) }
    }

    private static func pad(_ count: Int, _ b: inout [UInt8]) {
        if count > 0 { b.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count)) }
    }
}
