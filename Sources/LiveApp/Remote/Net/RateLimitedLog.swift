/// Log lines to stderr, at most `perSecond` a second; the rest are counted and
/// summarised ("… N more"), so a flood of bad frames cannot flood the log.
/// Owned by one network thread.
struct RateLimitedLog {
    let prefix: String
    let perSecond: Int
    private var windowStart = -Double.infinity
    private var inWindow = 0
    private var suppressed = 0

    init(prefix: String, perSecond: Int = 5) {
        self.prefix = prefix
        self.perSecond = perSecond
    }

    /// Longest line logged: longer ones are cut and say how long they were
    /// (text from the network must not flood the log).
    static let maxLine = 300

    static func capped(_ line: String) -> String {
        line.count <= maxLine ? line : "\(line.prefix(maxLine))… (\(line.utf8.count) bytes)"
    }

    /// Logs `line` at time `now` (seconds) unless the budget of this second is spent.
    mutating func log(_ line: String, now: Double) {
        if now - windowStart >= 1 {
            if suppressed > 0 { printError("\(prefix): … \(suppressed) more like that in the last second") }
            windowStart = now
            inWindow = 0
            suppressed = 0
        }
        if inWindow < perSecond {
            inWindow += 1
            printError("\(prefix): \(Self.capped(line))")
        } else {
            suppressed += 1
        }
    }
}
