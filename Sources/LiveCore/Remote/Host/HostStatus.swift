/// What a host tells the person at its window about remote control: where a
/// remote reaches it, whether it needs the token (and the token itself once
/// asked for: key K), which remote is connected, and whether the host is
/// announced on the local network. A value the shell fills in each frame; the
/// words are made here so the window, the state file and speech say the same.
public struct HostStatus: Equatable, Sendable {
    /// Addresses a remote can type, `ADDR:PORT` (the bound address, or this
    /// machine's network addresses when bound to every interface).
    public var addresses: [String]
    /// Bound to 127.0.0.0/8 or ::1: only this machine can connect.
    public var loopbackOnly: Bool
    /// The token a remote must send, when one is required.
    public var token: String?
    /// The connected remote's address, if one is connected.
    public var remotePeer: String?
    /// The DNS-SD name the host is announced under, or why it is not announced
    /// (nil: announcing is not attempted, e.g. bound to loopback).
    public var announcement: Announcement?

    /// Where the host stands with DNS-SD (Avahi).
    public enum Announcement: Equatable, Sendable {
        case pending
        case announced(name: String)
        case unavailable(reason: String)
    }

    /// A value with these members.
    public init(addresses: [String], loopbackOnly: Bool, token: String?, remotePeer: String?, announcement: Announcement?) {
        self.addresses = addresses
        self.loopbackOnly = loopbackOnly
        self.token = token
        self.remotePeer = remotePeer
        self.announcement = announcement
    }

    /// The lines the window shows, in order; the token only when `showToken`.
    public func lines(showToken: Bool) -> [String] {
        var out = ["Remote control on " + (addresses.isEmpty ? "?" : addresses.joined(separator: ", "))
                   + (loopbackOnly ? " (this machine only)" : "")]
        if let token {
            out.append(showToken ? "Token: \(token)  (K hides it)" : "Token needed (K shows it)")
        } else {
            out.append("No token needed")
        }
        if let announcement {
            switch announcement {
            case .pending: out.append("Announcing on the local network…")
            case .announced(let name): out.append("Found on the local network as \"\(name)\"")
            case .unavailable(let reason): out.append("Not announced on the network: \(reason)")
            }
        }
        out.append(remotePeer.map { "Remote connected from \($0)" } ?? "No remote connected")
        return out
    }
}
