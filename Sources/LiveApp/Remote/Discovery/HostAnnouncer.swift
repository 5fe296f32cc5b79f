import CAvahi
import Foundation
import LiveCore
import Synchronization

/// Announces a listening host on the local network as a DNS-SD service
/// (`_physarum._tcp`, TXT `v=1 token=yes|no`) through the avahi-daemon, so
/// `physarum remote` finds it. On a name collision (another host on the
/// network has the name) it takes Avahi's alternative name ("… #2").
/// Without a running avahi-daemon it does nothing but say why in `status`.
///
/// Thread safety: the Avahi client and entry group are touched only inside
/// Avahi's callbacks, which run on Avahi's own poll thread (or, once, on the
/// creating thread inside `avahi_client_new` before that thread starts);
/// `status` is read from any thread through a Mutex; `deinit` stops the
/// poll thread before freeing anything.
final class HostAnnouncer: @unchecked Sendable {
    let port: Int
    /// The host listens on IPv4 only: announce IPv4 records only (else a
    /// remote could pick an IPv6 address that refuses it).
    let ipv4Only: Bool
    private let txt: [String]
    private var name: String
    private let state = Mutex(HostStatus.Announcement.pending)
    private let problemReported = Mutex(false)
    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var group: OpaquePointer?

    /// Where the announcement stands (any thread).
    var status: HostStatus.Announcement { state.withLock { $0 } }

    /// Why announcing failed, the first time this is asked after it failed; then nil.
    func takeProblem() -> String? {
        guard case .unavailable(let reason) = status else { return nil }
        return problemReported.withLock { done in
            defer { done = true }
            return done ? nil : reason
        }
    }

    /// Starts announcing `port` under "Physarum Live on HOSTNAME" (avahi_client_new, threaded poll).
    init(port: Int, tokenRequired: Bool, ipv4Only: Bool) {
        self.port = port
        self.ipv4Only = ipv4Only
        txt = Discovery.txt(tokenRequired: tokenRequired)
        name = "Physarum Live on \(ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "this machine")"
        guard let p = avahi_threaded_poll_new() else {
            state.withLock { $0 = .unavailable(reason: "Avahi could not start its thread") }
            return
        }
        poll = p
        var error: Int32 = 0
        let me = Unmanaged.passUnretained(self).toOpaque()
        client = avahi_client_new(avahi_threaded_poll_get(p), AvahiClientFlags(rawValue: 0), { c, s, userdata in
            guard let userdata else { return }
            Unmanaged<HostAnnouncer>.fromOpaque(userdata).takeUnretainedValue().clientChanged(c, s)
        }, me, &error)
        guard client != nil else {
            state.withLock { $0 = .unavailable(reason: Self.reason(error)) }
            return
        }
        avahi_threaded_poll_start(p)
    }

    deinit { withdraw() }

    /// Takes the announcement off the network and stops Avahi's thread (once;
    /// before the listener closes). Main thread.
    func withdraw() {
        if let poll { avahi_threaded_poll_stop(poll) }
        if let client { avahi_client_free(client) }  // frees the entry group too
        if let poll { avahi_threaded_poll_free(poll) }
        poll = nil
        client = nil
        group = nil
    }

    private static func reason(_ error: Int32) -> String { DiscoveryError.avahi(error).description }

    // MARK: Avahi's thread

    private func clientChanged(_ c: OpaquePointer?, _ s: AvahiClientState) {
        switch s {
        case AVAHI_CLIENT_S_RUNNING:
            register(c)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The machine's own name changes: withdraw; re-added once running.
            if let group { avahi_entry_group_reset(group) }
            state.withLock { $0 = .pending }
        case AVAHI_CLIENT_FAILURE:
            state.withLock { $0 = .unavailable(reason: Self.reason(avahi_client_errno(c))) }
        default:
            break
        }
    }

    private func register(_ c: OpaquePointer?) {
        if group == nil {
            let me = Unmanaged.passUnretained(self).toOpaque()
            group = avahi_entry_group_new(c, { g, s, userdata in
                guard let userdata else { return }
                Unmanaged<HostAnnouncer>.fromOpaque(userdata).takeUnretainedValue().groupChanged(g, s)
            }, me)
        }
        guard let group else {
            state.withLock { $0 = .unavailable(reason: Self.reason(avahi_client_errno(c))) }
            return
        }
        guard avahi_entry_group_is_empty(group) != 0 else { return }
        let rc = cavahi_add_service(group, ipv4Only ? cavahi_proto_inet() : cavahi_proto_unspec(), name, Discovery.serviceType, UInt16(port), txt[0], txt[1])
        if rc == AVAHI_ERR_COLLISION {
            rename()
            register(c)
            return
        }
        if rc < 0 || avahi_entry_group_commit(group) < 0 {
            state.withLock { $0 = .unavailable(reason: Self.reason(rc < 0 ? rc : avahi_client_errno(c))) }
        }
    }

    private func groupChanged(_ g: OpaquePointer?, _ s: AvahiEntryGroupState) {
        switch s {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            let n = name
            state.withLock { $0 = .announced(name: n) }
        case AVAHI_ENTRY_GROUP_COLLISION:
            rename()
            if let g { avahi_entry_group_reset(g) }
            register(avahi_entry_group_get_client(g))
        case AVAHI_ENTRY_GROUP_FAILURE:
            state.withLock { $0 = .unavailable(reason: Self.reason(avahi_client_errno(avahi_entry_group_get_client(g)))) }
        default:
            break
        }
    }

    /// Avahi's next name for a taken one ("X" → "X #2" → "X #3").
    private func rename() {
        guard let alt = avahi_alternative_service_name(name) else { return }
        name = String(cString: alt)
        avahi_free(alt)
    }
}
