extension RemoteProtocol {
    /// Bytes per second read from one connection at most (a token bucket), so
    /// a flood costs the machine a bounded amount of work.
    public static let readRate = 16.0 * 1024 * 1024
    /// Bytes a connection may send in one burst.
    public static let readBurst = 1.0 * 1024 * 1024
    /// Frames per second handled from one connection at most (a remote
    /// editor sends about 20), so floods of tiny frames are bounded too.
    public static let frameRate = 1000.0
    /// A peer that does not read what the host sends is dropped past this backlog (bytes).
    public static let maxOutbox = 1 << 20
    /// Events the frame loop's queue holds (parameter changes merge).
    public static let inboxCapacity = 256

    /// docs/remote-protocol.md's "Limits and outcomes" table, made from the
    /// constants above (a test keeps the page equal to it).
    public static var limitsTable: String {
        let rows: [(String, String)] = [
            ("length over \(size(preHelloLimit)) before a valid `hello`, over \(size(frameLimit)) after",
             "connection closed at once (the body is not read)"),
            ("length 0", "frame skipped (logged)"),
            ("a frame whose first byte cannot start a JSON object", "skipped without buffering it (logged)"),
            ("invalid JSON, not an object, missing/wrong fields",
             "skipped (logged); from the remote, an `error` `bad-message` at most once a second"),
            ("unknown `type`", "skipped (a newer peer)"),
            ("first message not `hello`", "`error` `hello-first`, closed"),
            ("`hello` with another `version`", "`error` `version`, closed"),
            ("`hello` with the right token", "checked when it arrives and admitted at once, whatever else its address sent"),
            ("`hello` without the required token or with a wrong one",
             "`error` `unauthorized`, closed; the current remote stays. From the \(ordinal(freeTokenFailures + 1)) failure "
                + "of one address on (forgotten after \(duration(forgetFailuresAfter)) without one), the answer waits "
                + "\(duration(firstRefusalDelay)), doubling up to \(duration(maxRefusalDelay)) (pinged every "
                + "\(duration(pingInterval)) meanwhile)"),
            ("no `hello` within \(duration(helloTimeout))", "`error` `hello-timeout`, closed"),
            ("a \(ordinal(maxPendingPerAddress + 1)) connection from one address waiting for `hello` (or its answer), "
                + "or a \(ordinal(maxPending + 1)) in all",
             "it waits; the address's (or the fullest address's) longest-waiting connection makes room — one whose wrong "
                + "token is only waiting for its answer first (answered now), else `error` `busy`"),
            ("more than \(size(Int(readRate))) a second, or \(Int(frameRate)) frames a second, from one connection",
             "read no faster (token buckets; bursts of \(size(Int(readBurst))))"),
            ("a peer that does not read what the host sends", "dropped once \(size(maxOutbox)) waits for it"),
            ("a remote silent for \(duration(silenceLimit))", "closed; the host resumes cycling"),
            ("more than \(inboxCapacity) events waiting for the frame loop", "the excess is dropped (parameter changes merge)"),
            ("`jumpTo` an unknown preset", "`error` `rejected`; nothing changes"),
        ]
        return (["| input | outcome |", "| --- | --- |"] + rows.map { "| \($0.0) | \($0.1) |" }).joined(separator: "\n")
    }

    private static func size(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : bytes % 1024 == 0 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }

    private static func duration(_ s: Double) -> String {
        if s >= 60, s.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(s / 60)) minutes" }
        return s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }

    private static func ordinal(_ n: Int) -> String {
        let suffix = (11...13).contains(n % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }
}
