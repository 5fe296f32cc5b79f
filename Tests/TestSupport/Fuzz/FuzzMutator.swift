import Engine
import Foundation
import Storage

/// Deterministic, structure-aware mutations of valid documents: the same
/// seed gives the same cases on every machine. A case starts from one of the
/// valid seed documents and gets, at random:
///
/// - a JSON-tree mutation (parsed with `StrictJSON`, changed, written back):
///   a value of the wrong type, a huge / tiny / negative / non-integer
///   number, a long string, an invisible or control character in a string,
///   deep nesting, a huge array, a member dropped, an unknown member, a
///   duplicate key;
/// - then zero to three byte mutations: a bit flipped, a byte set, bytes
///   inserted or deleted, truncation, a span repeated, invalid UTF-8, number
///   words JSON does not have (`1e999`, `NaN`), a byte-order mark, a splice
///   with another seed.
///
/// Frame streams (the remote protocol) get length games on top: lengths of
/// 0, just over the limit, 2³²−1, a length that lies about its payload,
/// frames split at random boundaries.
public struct FuzzMutator {
    private var rng: SeededRandom

    public init(seed: UInt64) { rng = SeededRandom(seed: seed) }

    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int.random(in: 0..<n, using: &rng) }
    private mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    private mutating func pick<T>(_ a: [T]) -> T { a[below(a.count)] }
    mutating func pickSeed(_ seeds: [[UInt8]]) -> [UInt8] { pick(seeds) }

    /// One mutated document from `seeds` (valid documents of one format).
    public mutating func document(from seeds: [[UInt8]]) -> [UInt8] {
        var bytes = pick(seeds)
        if chance(0.7), let root = try? StrictJSON.parse(bytes: bytes, limit: 1 << 24) {
            let changed = mutateTree(root, depth: 0)
            bytes = Array((chance(0.5) ? JSONWriter.compact(changed) : JSONWriter.pretty(changed)).utf8)
        }
        for _ in 0..<below(4) { bytes = mutateBytes(bytes, seeds: seeds) }
        return bytes
    }

    /// A stream of frames: mutated documents of `seeds`, framed with honest
    /// or lying lengths, sometimes raw garbage, up to `maxFrames`.
    public mutating func frameStream(from seeds: [[UInt8]], limit: Int, maxFrames: Int = 6) -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<(1 + below(maxFrames)) {
            let payload = chance(0.2) ? pick(seeds) : document(from: seeds)
            switch below(10) {
            case 0: out += Self.length(0)
            case 1: out += Self.length(limit + 1) + payload
            case 2: out += Self.length(Int(UInt32.max)) + payload
            case 3: out += Self.length(payload.count + 1 + below(64)) + payload  // claims more than follows
            case 4: out += Self.length(max(0, payload.count - 1 - below(8))) + payload  // claims less
            case 5: out += mutateBytes(Self.length(payload.count) + payload, seeds: seeds)
            default: out += Self.length(payload.count) + payload
            }
        }
        return out
    }

    /// Random cut points for feeding `count` bytes in pieces.
    public mutating func chunks(_ count: Int) -> [Int] {
        var cuts: [Int] = []
        var at = 0
        while at < count {
            let step = chance(0.3) ? 1 + below(3) : 1 + below(max(1, count / 3))
            at = min(count, at + step)
            cuts.append(at)
        }
        return cuts
    }

    static func length(_ n: Int) -> [UInt8] {
        let v = UInt32(truncatingIfNeeded: n)
        return [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    // MARK: tree mutations

    private static let numbers: [Double] = [0, -0.0, -1, 1e308, -1e308, 1.7976931348623157e308, Double.leastNonzeroMagnitude, 1e-300,
                                            9_007_199_254_740_994, 4_294_967_296, -2_147_483_649, 0.5, 1e9, -7.25]
    private static let strings = ["", " ", "\u{0}", "a\u{0}b", "\u{FEFF}name", "\u{200B}", "\u{202E}evil", "\u{7F}",
                                  "#zzzzzz", "#ff00ff", "species.*.moveSpeed", "global.agents", "user:1", "user:99999",
                                  "../../etc/passwd", "🦠‍", "\u{1F9A0}", "\\", "\"", "\n"]

    private mutating func mutateTree(_ node: JSONNode, depth: Int) -> JSONNode {
        // Go down into a child most of the time, so deep fields are reached.
        switch node.value {
        case .object(var o) where !o.members.isEmpty && depth < 12 && chance(0.75):
            let i = below(o.members.count)
            switch below(8) {
            case 0: o.members.remove(at: i)
            case 1: o.members.append(JSONMember(key: "fuzz\(below(100))", value: randomValue(depth: depth)))
            case 2: o.members.append(o.members[i])  // a duplicate key
            case 3: o.members[i].key = pick(Self.strings + o.keys)
            default: o.members[i].value = mutateTree(o.members[i].value, depth: depth + 1)
            }
            return JSONNode(.object(o))
        case .array(var a) where !a.isEmpty && depth < 12 && chance(0.75):
            let i = below(a.count)
            switch below(6) {
            case 0: a.remove(at: i)
            case 1: a.append(contentsOf: Array(repeating: a[i], count: 1 + below(chance(0.1) ? 5000 : 40)))
            case 2: a.insert(randomValue(depth: depth), at: below(a.count + 1))
            default: a[i] = mutateTree(a[i], depth: depth + 1)
            }
            return JSONNode(.array(a))
        default:
            return replacement(for: node, depth: depth)
        }
    }

    private mutating func replacement(for node: JSONNode, depth: Int) -> JSONNode {
        switch below(6) {
        case 0:
            if case .number(let d) = node.value { return .number(pick([d * 10, -d, d + 0.5, d * 1e6, d.nextUp])) }
            return .number(pick(Self.numbers))
        case 1:
            if case .string(let s) = node.value {
                return .string(pick([s + pick(Self.strings), pick(Self.strings) + s, String(repeating: s.isEmpty ? "x" : s, count: 1 + below(2000))]))
            }
            return .string(pick(Self.strings))
        case 2:
            var n = node
            for _ in 0..<(1 + below(100)) { n = .array([n]) }  // deep nesting
            return n
        case 3:
            return .string(String(repeating: pick(["a", "é", "\u{0}", "😀"]), count: pick([64, 65, 101, 257, 4097, 70_000])))
        default:
            return randomValue(depth: depth)
        }
    }

    private mutating func randomValue(depth: Int) -> JSONNode {
        switch below(depth > 6 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(chance(0.5))
        case 2: return .number(pick(Self.numbers))
        case 3: return .string(pick(Self.strings))
        case 4: return .array((0..<below(4)).map { _ in randomValue(depth: depth + 1) })
        default: return .object((0..<below(4)).map { _ in (pick(["format", "name", "params", "type", "x"]), randomValue(depth: depth + 1)) })
        }
    }

    // MARK: byte mutations

    private static let words: [[UInt8]] = ["1e999", "-1e999", "NaN", "Infinity", "-0", "00", "1.", ".5", "0x10", "true",
                                           "null", "\"\\u0000\"", "\"\\ud800\"", "\"\\uDFFF\"", "//", "/*", ",", "}", "]", "{", "["]
        .map { Array($0.utf8) }
    private static let badUTF8: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                             [0xE2, 0x82], [0xEF, 0xBB, 0xBF], [0x00], [0x07]]

    mutating func mutateBytes(_ input: [UInt8], seeds: [[UInt8]]) -> [UInt8] {
        var b = input
        let at = below(b.count + 1)
        switch below(11) {
        case 0 where !b.isEmpty: b[min(at, b.count - 1)] ^= UInt8(1) << UInt8(below(8))
        case 1 where !b.isEmpty: b[min(at, b.count - 1)] = UInt8(truncatingIfNeeded: below(256))
        case 2: b.insert(contentsOf: (0..<(1 + below(8))).map { _ in UInt8(truncatingIfNeeded: below(256)) }, at: at)
        case 3 where !b.isEmpty: b.removeSubrange(at..<min(b.count, at + 1 + below(16)))
        case 4: b = Array(b.prefix(at))
        case 5 where !b.isEmpty:
            let end = min(b.count, at + 1 + below(64))
            let span = Array(b[min(at, b.count - 1)..<end])
            b.insert(contentsOf: Array([[UInt8]](repeating: span, count: 1 + below(chance(0.05) ? 10_000 : 8)).joined()), at: at)
        case 6: b.insert(contentsOf: pick(Self.badUTF8), at: at)
        case 7: b.insert(contentsOf: pick(Self.words), at: at)
        case 8: b = [0xEF, 0xBB, 0xBF] + b
        case 9:
            let other = pick(seeds)
            b = Array(b.prefix(at)) + Array(other.suffix(max(0, other.count - below(other.count + 1))))
        default:
            if let colon = b.indices.filter({ b[$0] == UInt8(ascii: ":") }).randomElement(using: &rng) {
                b.insert(contentsOf: pick(Self.words), at: colon + 1)
            }
        }
        return b
    }
}
