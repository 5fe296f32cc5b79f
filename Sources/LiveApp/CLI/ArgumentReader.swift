/// A tiny reader for `--flag`, `--option VALUE` and `--option=VALUE` arguments.
/// Subcommands pull what they know; `finish()` rejects whatever is left.
struct ArgumentReader {
    private var args: [String]

    init(_ args: [String]) {
        // Split `--name=value` into two arguments.
        self.args = args.flatMap { a -> [String] in
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                return [String(a[..<eq]), String(a[a.index(after: eq)...])]
            }
            return [a]
        }
    }

    /// True (and consumed) when `name` is present.
    mutating func flag(_ name: String) -> Bool {
        guard let i = args.firstIndex(of: name) else { return false }
        args.remove(at: i)
        return true
    }

    /// The value after `name`, or nil when absent; given more than once, the
    /// last one wins. Throws when the value is missing (another option, such
    /// as `--preset --no-ui`, is not taken as a value).
    mutating func string(_ name: String) throws -> String? {
        try strings(name).last
    }

    /// All values of a repeatable option, in order.
    mutating func strings(_ name: String) throws -> [String] {
        var out: [String] = []
        while let i = args.firstIndex(of: name) {
            guard i + 1 < args.count, !Self.isOption(args[i + 1]) else {
                throw UsageError("\(name) needs a value" + (i + 1 < args.count ? " (got the option '\(args[i + 1])')" : ""))
            }
            out.append(args[i + 1])
            args.removeSubrange(i...(i + 1))
        }
        return out
    }

    /// `--name` (never a value); `-` and negative numbers are values.
    static func isOption(_ a: String) -> Bool { a.hasPrefix("--") && a.count > 2 }

    /// An integer option within `range`.
    mutating func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let s = try string(name) else { return nil }
        guard let v = Int(s.replacingOccurrences(of: "_", with: "")), range.contains(v) else {
            throw UsageError("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(s)'")
        }
        return v
    }

    /// A floating-point option within `range` (finite).
    mutating func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let s = try string(name) else { return nil }
        guard let v = Double(s), v.isFinite, range.contains(v) else {
            throw UsageError("\(name) must be a number in \(range.lowerBound)...\(range.upperBound), got '\(s)'")
        }
        return v
    }

    /// A `WxH` size option.
    mutating func size(_ name: String, max: Int = 8192) throws -> (width: Int, height: Int)? {
        guard let s = try string(name) else { return nil }
        let parts = s.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (16...max).contains(w), (16...max).contains(h)
        else { throw UsageError("\(name) must look like 1280x720 (each side 16...\(max)), got '\(s)'") }
        return (w, h)
    }

    /// Positional arguments left (anything not starting with `-`), consumed.
    mutating func positionals() -> [String] {
        let p = args.filter { !$0.hasPrefix("-") || $0 == "-" }
        args.removeAll { !$0.hasPrefix("-") || $0 == "-" }
        return p
    }

    /// The arguments nobody consumed yet (to hand on to another parser).
    var remaining: [String] { args }

    /// Throws a usage error naming the first argument nobody consumed.
    func finish() throws {
        if let a = args.first { throw UsageError("unknown argument '\(a)'") }
    }
}
