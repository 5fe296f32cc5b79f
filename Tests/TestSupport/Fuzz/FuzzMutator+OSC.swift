/// OSC packets (OSC 1.0: a padded address, a padded `,tags` string, big-endian
/// arguments; bundles of size-prefixed elements): mutations that know the
/// layout, on top of the byte mutations every case may get.
extension FuzzMutator {
    /// One mutated packet from `seeds` (valid OSC packets).
    public mutating func oscPacket(from seeds: [[UInt8]]) -> [UInt8] {
        var p = pickSeed(seeds)
        switch below(9) {
        case 0:  // a type tag changed to another, unknown or unsupported one
            if let i = tagStart(p), i + 1 < p.count { p[i + 1 + below(max(1, tagCount(p, i)))] = Array("ifdsSTFNIbhtcmr[]?\u{0}".utf8)[below(19)] }
        case 1:  // an argument's bytes cut or extended
            p = below(2) == 0 ? Array(p.prefix(max(0, p.count - 4 * (1 + below(3))))) : p + [UInt8](repeating: 0xFF, count: 4 * (1 + below(3)))
        case 2:  // a string without its terminator: every padding zero replaced
            p = p.map { $0 == 0 ? 0x41 : $0 }
        case 3:  // wrapped in a bundle, maybe deeper than allowed, maybe lying about the size
            for _ in 0..<(1 + below(6)) {
                let size = below(4) == 0 ? [0xFF, 0xFF, 0xFF, 0xF0] : Self.be32(p.count + (below(5) == 0 ? 4 : 0))
                p = Array("#bundle\u{0}".utf8) + [0, 0, 0, 0, 0, 0, 0, 1] + size + p
            }
        case 4:  // two messages in one bundle, one of them a splice
            let q = pickSeed(seeds)
            p = Array("#bundle\u{0}".utf8) + [0, 0, 0, 0, 0, 0, 0, 1] + Self.be32(p.count) + p + Self.be32(q.count) + q
        case 5:  // a blob or string length word set to something absurd
            if p.count >= 8 { let at = (below(p.count / 4)) * 4; p.replaceSubrange(at..<(at + 4), with: Self.be32([0, 1, 0x7FFF_FFFF, 0xFFFF_FFFF][below(4)])) }
        case 6:  // not a multiple of four
            p += [UInt8](repeating: 0, count: 1 + below(3))
        case 7:  // a long address or many arguments
            p = Self.message("/physarum/" + String(repeating: "x/", count: below(2000)), String(repeating: "i", count: below(300)), nil)
        default:
            break
        }
        for _ in 0..<below(3) { p = mutateBytes(p, seeds: seeds) }
        // A UDP datagram carries at most 65 507 bytes (and OSC in reads into 64 KiB): larger cases cannot arrive.
        return p.count > 65_507 ? Array(p.prefix(65_507)) : p
    }

    /// A message with `tags` and `arguments` (nil: zero-filled ones of the right sizes).
    public static func message(_ address: String, _ tags: String, _ arguments: [UInt8]?) -> [UInt8] {
        func padded(_ s: String) -> [UInt8] {
            var b = Array(s.utf8) + [0]
            while b.count % 4 != 0 { b.append(0) }
            return b
        }
        let sizes = tags.map { "dht".contains($0) ? 8 : "TFNI".contains($0) ? 0 : 4 }
        return padded(address) + padded("," + tags) + (arguments ?? [UInt8](repeating: 0, count: sizes.reduce(0, +)))
    }

    static func be32(_ n: Int) -> [UInt8] { [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }

    private func tagStart(_ p: [UInt8]) -> Int? { p.firstIndex(of: UInt8(ascii: ",")) }

    private func tagCount(_ p: [UInt8], _ i: Int) -> Int { p[(i + 1)...].prefix { $0 != 0 }.count }
}
