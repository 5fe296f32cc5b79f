/// Where agents start when the simulation is seeded.
public enum SpawnPattern: String, Sendable, Codable, CaseIterable {
    /// Uniformly scattered over the field.
    case random
    /// Uniform inside a centred disc.
    case disc
    /// On a thin centred ring, heading inward.
    case ring
    /// Packed at the centre, heading outward.
    case centerBurst
    /// Along a spiral arm per species.
    case spiral
    /// One pie sector per species.
    case sectors
    /// A few tight clusters scattered over the field.
    case clusters
}

/// How species colours combine with the background.
public enum BlendMode: String, Sendable, Codable, CaseIterable {
    /// Trails emit light over the background.
    case additive
    /// Trails are ink on paper (subtractive).
    case paint
}

/// An sRGB colour written as `"#rrggbb"`.
public struct RGBColor: Sendable, Hashable, Codable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r; self.g = g; self.b = b
    }

    /// Parses `#rrggbb` (case-insensitive); nil otherwise.
    public init?(hex: String) {
        let u = Array(hex.utf8)
        guard u.count == 7, u[0] == UInt8(ascii: "#") else { return nil }
        func nib(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 65...70: c - 55
            case 97...102: c - 87
            default: nil
            }
        }
        var v = [UInt8]()
        for i in stride(from: 1, to: 7, by: 2) {
            guard let h = nib(u[i]), let l = nib(u[i + 1]) else { return nil }
            v.append(h << 4 | l)
        }
        self.init(r: v[0], g: v[1], b: v[2])
    }

    /// `#rrggbb` in lower case.
    public var hex: String {
        let d = Array("0123456789abcdef")
        return "#" + String([d[Int(r >> 4)], d[Int(r & 15)], d[Int(g >> 4)], d[Int(g & 15)], d[Int(b >> 4)], d[Int(b & 15)]])
    }

    public var description: String { hex }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let s = try c.decode(String.self)
        guard let v = RGBColor(hex: s) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected a colour like \"#ff8800\", got \"\(s)\"")
        }
        self = v
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(hex)
    }
}
