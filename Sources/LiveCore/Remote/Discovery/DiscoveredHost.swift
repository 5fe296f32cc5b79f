import Foundation

/// Hosts found on the local network through DNS-SD (`_physarum._tcp`), as
/// `physarum remote` lists them. Pure values: the Avahi browser in LiveApp
/// feeds `HostDirectory` what it resolves; tests feed it by hand.
public enum Discovery {
    /// The DNS-SD service type a host announces.
    public static let serviceType = "_physarum._tcp"
    /// TXT keys: the protocol version, and whether the host needs a token.
    public static let versionKey = "v"
    public static let tokenKey = "token"

    /// The TXT strings a host announces.
    public static func txt(tokenRequired: Bool) -> [String] {
        ["\(versionKey)=\(RemoteProtocol.version)", "\(tokenKey)=\(tokenRequired ? "yes" : "no")"]
    }
}

/// One announced host with the address a remote should use.
public struct DiscoveredHost: Equatable, Sendable {
    /// The service name (unique on the network), e.g. "Physarum Live on studio".
    public var name: String
    /// The machine's mDNS name, e.g. "studio.local".
    public var hostName: String
    /// A numeric address (IPv6 without brackets) and the port.
    public var address: String
    public var port: Int
    /// The host said it needs a token (TXT `token=yes`).
    public var tokenRequired: Bool
    /// The protocol version it announced (nil when missing).
    public var version: Int?

    /// A value with these members.
    public init(name: String, hostName: String, address: String, port: Int, tokenRequired: Bool, version: Int?) {
        self.name = name
        self.hostName = hostName
        self.address = address
        self.port = port
        self.tokenRequired = tokenRequired
        self.version = version
    }

    /// `ADDR:PORT` to connect to (`[v6]:PORT` for IPv6).
    public var target: String { address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)" }

    /// How good the address is for connecting: routable IPv4 first, then
    /// global IPv6, then loopback (the host runs on this machine); IPv6
    /// link-local cannot be used without its interface and ranks last.
    var addressRank: Int {
        let a = address.lowercased()
        if a.hasPrefix("fe80:") { return 0 }
        if a == "::1" || a.hasPrefix("127.") { return 1 }
        return a.contains(":") ? 2 : 3
    }

    /// One line for `physarum remote --browse`: name, target, host name and token, tab-separated.
    public var browseLine: String {
        "\(name)\t\(target)\t\(hostName)\t\(tokenRequired ? "token" : "no-token")"
    }
}

/// The hosts seen so far: one entry per service name (a host is reported
/// once per interface and address family), keeping its best address; a
/// service that goes away is removed.
public struct HostDirectory: Equatable, Sendable {
    public private(set) var hosts: [DiscoveredHost] = []

    public init() {}

    /// A resolved service (any interface or family).
    public mutating func add(_ h: DiscoveredHost) {
        guard h.addressRank > 0 || !hosts.contains(where: { $0.name == h.name }) else { return }
        if let i = hosts.firstIndex(where: { $0.name == h.name }) {
            if h.addressRank > hosts[i].addressRank { hosts[i] = h }
        } else {
            hosts.append(h)
        }
    }

    /// A service withdrawn by its host.
    public mutating func remove(name: String) { hosts.removeAll { $0.name == name } }

    /// Sorted by name, for listing.
    public var sorted: [DiscoveredHost] { hosts.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending } }

    /// The host a typed answer picks: its number in `sorted` (1-based) or its
    /// exact name; nil for anything else.
    public func choose(_ answer: String) -> DiscoveredHost? {
        let list = sorted
        let t = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        if let n = Int(t), (1...list.count).contains(n) { return list[n - 1] }
        return list.first { $0.name == t }
    }
}
