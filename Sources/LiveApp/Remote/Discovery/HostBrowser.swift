import CAvahi
import Foundation
import LiveCore

/// A failure to look for hosts (no avahi-daemon, no D-Bus), in words.
struct DiscoveryError: Error, CustomStringConvertible {
    let description: String

    /// "the Avahi daemon is not running" for the usual failure, else Avahi's words (avahi_strerror).
    static func avahi(_ code: Int32) -> DiscoveryError {
        let text = String(cString: avahi_strerror(code))
        return DiscoveryError(description: code == AVAHI_ERR_NO_DAEMON ? "the Avahi daemon is not running (\(text))" : "Avahi: \(text)")
    }
}

/// Looks for announced hosts (`_physarum._tcp`) on the local network for a
/// while and returns what it resolved (Avahi service browser and resolvers
/// on a simple poll loop run on the calling thread). For `physarum remote`.
///
/// Thread safety: one call runs entirely on the calling thread; Avahi's
/// callbacks run inside `avahi_simple_poll_iterate` on that thread.
final class HostBrowser {
    private var directory = HostDirectory()
    private var pendingResolvers = 0
    private var failure: String?
    private var client: OpaquePointer?

    /// Browses for `seconds`, then returns the hosts found.
    /// Throws when the avahi-daemon cannot be reached.
    static func browse(seconds: Double) throws(DiscoveryError) -> HostDirectory {
        let b = HostBrowser()
        return try b.run(seconds: seconds)
    }

    private func run(seconds: Double) throws(DiscoveryError) -> HostDirectory {
        guard let poll = avahi_simple_poll_new() else { throw DiscoveryError(description: "Avahi: out of memory") }
        defer { avahi_simple_poll_free(poll) }
        var error: Int32 = 0
        let me = Unmanaged.passUnretained(self).toOpaque()
        client = avahi_client_new(avahi_simple_poll_get(poll), AvahiClientFlags(rawValue: 0), { c, s, userdata in
            guard let userdata, s == AVAHI_CLIENT_FAILURE else { return }
            Unmanaged<HostBrowser>.fromOpaque(userdata).takeUnretainedValue().failure = String(cString: avahi_strerror(avahi_client_errno(c)))
        }, me, &error)
        guard let client else { throw DiscoveryError.avahi(error) }
        defer { avahi_client_free(client) }  // frees the browser and resolvers too
        let browser = avahi_service_browser_new(client, cavahi_if_unspec(), cavahi_proto_unspec(), Discovery.serviceType, nil,
                                                AvahiLookupFlags(rawValue: 0), { _, interface, proto, event, name, type, domain, _, userdata in
            guard let userdata else { return }
            Unmanaged<HostBrowser>.fromOpaque(userdata).takeUnretainedValue().browsed(interface, proto, event, name, type, domain)
        }, me)
        guard browser != nil else { throw DiscoveryError.avahi(avahi_client_errno(client)) }
        let deadline = Date().addingTimeInterval(seconds)
        while failure == nil {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { break }
            if avahi_simple_poll_iterate(poll, Int32(min(left, 0.25) * 1000)) != 0 { break }
        }
        if let failure { throw DiscoveryError(description: "Avahi: \(failure)") }
        return directory
    }

    private func browsed(_ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiBrowserEvent,
                         _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?) {
        switch event {
        case AVAHI_BROWSER_NEW:
            let me = Unmanaged.passUnretained(self).toOpaque()
            // The address in the family the service was found in (a host announces only the families it listens on).
            let r = avahi_service_resolver_new(client, interface, proto, name, type, domain, proto,
                                               AvahiLookupFlags(rawValue: 0), { r, _, _, event, name, _, _, hostName, address, port, txt, _, userdata in
                if let userdata {
                    Unmanaged<HostBrowser>.fromOpaque(userdata).takeUnretainedValue()
                        .resolved(event, name, hostName, address, port, txt)
                }
                avahi_service_resolver_free(r)
            }, me)
            if r != nil { pendingResolvers += 1 }
        case AVAHI_BROWSER_REMOVE:
            if let name { directory.remove(name: String(cString: name)) }
        case AVAHI_BROWSER_FAILURE:
            failure = String(cString: avahi_strerror(avahi_client_errno(client)))
        default:
            break
        }
    }

    private func resolved(_ event: AvahiResolverEvent, _ name: UnsafePointer<CChar>?, _ hostName: UnsafePointer<CChar>?,
                          _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16, _ txt: UnsafeMutablePointer<AvahiStringList>?) {
        pendingResolvers -= 1
        guard event == AVAHI_RESOLVER_FOUND, let name, let address else { return }
        var buf = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        avahi_address_snprint(&buf, buf.count, address)
        let text = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        directory.add(DiscoveredHost(name: String(cString: name), hostName: hostName.map { String(cString: $0) } ?? "",
                                     address: text, port: Int(port),
                                     tokenRequired: Self.txtValue(txt, Discovery.tokenKey) == "yes",
                                     version: Self.txtValue(txt, Discovery.versionKey).flatMap { Int($0) }))
    }

    private static func txtValue(_ list: UnsafeMutablePointer<AvahiStringList>?, _ key: String) -> String? {
        var out = [CChar](repeating: 0, count: 256)
        guard cavahi_txt_value(list, key, &out, out.count) == 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
