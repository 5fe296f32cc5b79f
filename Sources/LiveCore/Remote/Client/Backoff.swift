import Foundation

/// Reconnection delays: `first`, doubling up to `limit`; `reset` after a
/// connection that worked. Pure.
public struct Backoff: Sendable {
    public let first: Double
    public let limit: Double
    public private(set) var next: Double

    public init(first: Double = 0.25, limit: Double = 5) {
        self.first = first
        self.limit = limit
        next = first
    }

    /// The delay before the next attempt; the one after will be twice as long.
    public mutating func take() -> Double {
        let d = next
        next = min(next * 2, limit)
        return d
    }

    public mutating func reset() { next = first }
}

/// Where a remote stands with its host, as shown in the window.
public enum RemoteStatus: Equatable, Sendable {
    /// Trying to connect (attempt number, from 1).
    case connecting(attempt: Int)
    /// Connected and greeted; the host's state arrives.
    case connected
    /// Lost or failed; retrying after a pause.
    case retrying(reason: String, inSeconds: Double)
    /// The host refused us for good (wrong token, other version) or another
    /// remote took over: no more attempts.
    case stopped(reason: String)

    /// One line for the status notice.
    public func label(host: String) -> String {
        switch self {
        case .connecting(let n): n == 1 ? "Remote: connecting to \(host)…" : "Remote: connecting to \(host)… (attempt \(n))"
        case .connected: "Remote: connected to \(host)"
        case .retrying(let reason, let s): "Remote: \(reason) — retrying in \(s < 1 ? String(format: "%.2f", s) : String(format: "%.0f", s)) s"
        case .stopped(let reason): "Remote: \(reason) — not reconnecting"
        }
    }
}
