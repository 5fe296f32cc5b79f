/// The shared secret a host requires in `hello` when it listens beyond
/// loopback: 128 random bits as 32 lower-case hex digits.
public enum RemoteToken {
    /// A fresh token from the system's cryptographic random source (getrandom on Linux).
    public static func generate() -> String {
        var g = SystemRandomNumberGenerator()
        let hi = g.next(), lo = g.next()
        return hex(hi) + hex(lo)
    }

    /// Whether `given` equals `expected`, in time that depends only on the
    /// lengths (no early exit at the first differing byte).
    public static func matches(_ given: String?, expected: String) -> Bool {
        let a = Array((given ?? "").utf8), b = Array(expected.utf8)
        var diff = UInt8(a.count == b.count ? 0 : 1)
        let n = max(a.count, b.count)
        for i in 0..<n {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            diff |= x ^ y
        }
        return diff == 0 && given != nil && !b.isEmpty
    }

    /// Whether `s` is a usable token: 16…256 printable ASCII characters.
    public static func isWellFormed(_ s: String) -> Bool {
        (16...256).contains(s.utf8.count) && s.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    private static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
