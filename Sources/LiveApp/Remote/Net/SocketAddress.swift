import Glibc
import LiveCore

/// An IPv4 or IPv6 socket address (resolved with getaddrinfo).
/// A value type; any thread.
struct SocketAddress: Sendable, CustomStringConvertible {
    fileprivate(set) var storage = sockaddr_storage()
    fileprivate(set) var length: socklen_t = 0

    /// Resolves `host` (a name or a numeric address; nil = any) and `port` to
    /// stream-socket addresses, in getaddrinfo's order. Calls getaddrinfo.
    static func resolve(host: String?, port: Int, passive: Bool) throws(NetError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var res: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &res)
        guard rc == 0 else {
            throw NetError("cannot resolve '\(host ?? "*")': \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(res) }
        var out: [SocketAddress] = []
        var p = res
        while let ai = p {
            if let sa = ai.pointee.ai_addr, ai.pointee.ai_family == AF_INET || ai.pointee.ai_family == AF_INET6 {
                var a = SocketAddress()
                let n = Int(ai.pointee.ai_addrlen)
                withUnsafeMutableBytes(of: &a.storage) { dst in
                    dst.copyMemory(from: UnsafeRawBufferPointer(start: sa, count: min(n, dst.count)))
                }
                a.length = socklen_t(n)
                out.append(a)
            }
            p = ai.pointee.ai_next
        }
        if out.isEmpty { throw NetError("no IPv4 or IPv6 address for '\(host ?? "*")'") }
        return out
    }

    /// The address family (AF_INET or AF_INET6).
    var family: Int32 { Int32(storage.ss_family) }

    /// The port number.
    var port: Int {
        withUnsafeBytes(of: storage) { raw in
            // sin_port and sin6_port sit at the same offset, in network byte order.
            let b = raw.baseAddress!.advanced(by: MemoryLayout<sa_family_t>.size).assumingMemoryBound(to: UInt8.self)
            return Int(b[0]) << 8 | Int(b[1])
        }
    }

    /// Whether the address is a loopback address (127.0.0.0/8, ::1, or ::ffff:127.x.x.x).
    var isLoopback: Bool {
        let b = addressBytes
        if family == AF_INET { return b.first == 127 }
        if b == [UInt8](repeating: 0, count: 15) + [1] { return true }
        let mapped = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF]
        return b.count == 16 && Array(b[0..<12]) == mapped && b[12] == 127
    }

    /// The raw address bytes (4 for IPv4, 16 for IPv6).
    var addressBytes: [UInt8] {
        withUnsafeBytes(of: storage) { raw in
            if family == AF_INET {
                let off = MemoryLayout<sockaddr_in>.offset(of: \sockaddr_in.sin_addr)!
                return Array(raw[off..<(off + 4)])
            }
            let off = MemoryLayout<sockaddr_in6>.offset(of: \sockaddr_in6.sin6_addr)!
            return Array(raw[off..<(off + 16)])
        }
    }

    /// Who a connection comes from, for per-address limits: an IPv4 address
    /// (also when mapped into IPv6), else the IPv6 /64 prefix (one site's
    /// whole subnet, which one attacker usually holds).
    var admissionKey: String {
        let b = addressBytes
        if b.count == 4 { return b.map(String.init).joined(separator: ".") }
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF {
            return b[12..<16].map(String.init).joined(separator: ".")
        }
        return b[0..<8].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// `1.2.3.4:5` or `[::1]:5` (inet_ntop).
    var description: String {
        family == AF_INET6 ? "[\(hostText)]:\(port)" : "\(hostText):\(port)"
    }

    /// The address alone, `1.2.3.4` or `::1` (inet_ntop).
    var hostText: String {
        var buf = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let bytes = addressBytes
        let ok = bytes.withUnsafeBytes { src in inet_ntop(family, src.baseAddress, &buf, socklen_t(buf.count)) } != nil
        return ok ? String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }

    /// Whether this is the wildcard address (0.0.0.0 or ::).
    var isWildcard: Bool { addressBytes.allSatisfy { $0 == 0 } }

    /// The addresses a remote can type to reach a socket bound here, as
    /// `ADDR:PORT`: the address itself, or for a wildcard bind this machine's
    /// interface addresses (getifaddrs) of that family (IPv6: also IPv4, as a
    /// `::` socket takes both), loopback and IPv6 link-local left out; the
    /// bound address when none is found.
    var reachableAddresses: [String] {
        guard isWildcard else { return [description] }
        var out: [String] = []
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [description] }
        defer { freeifaddrs(list) }
        var p = list
        while let ifa = p {
            p = ifa.pointee.ifa_next
            guard let sa = ifa.pointee.ifa_addr else { continue }
            let f = Int32(sa.pointee.sa_family)
            guard f == AF_INET || (f == AF_INET6 && family == AF_INET6) else { continue }
            var a = SocketAddress()
            let n = f == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size
            withUnsafeMutableBytes(of: &a.storage) { dst in dst.copyMemory(from: UnsafeRawBufferPointer(start: sa, count: n)) }
            a.length = socklen_t(n)
            let b = a.addressBytes
            if a.isLoopback || (b.count == 16 && b[0] == 0xFE && b[1] & 0xC0 == 0x80) { continue }
            a.setPort(port)
            if !out.contains(a.description) { out.append(a.description) }
        }
        return out.isEmpty ? [description] : out
    }

    /// Sets the port (sin_port / sin6_port, network byte order).
    private mutating func setPort(_ p: Int) {
        withUnsafeMutableBytes(of: &storage) { raw in
            raw[MemoryLayout<sa_family_t>.size] = UInt8(p >> 8 & 0xFF)
            raw[MemoryLayout<sa_family_t>.size + 1] = UInt8(p & 0xFF)
        }
    }

    /// Runs `body` with the address as a `sockaddr` pointer and its length.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length) }
    }

    /// An address filled in by a C call (accept, getsockname).
    static func from(_ fill: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) -> (Int32, SocketAddress) {
        var a = SocketAddress()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutableBytes(of: &a.storage) { raw in
            fill(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &len)
        }
        a.length = len
        return (rc, a)
    }
}

/// `[ADDR:]PORT` or `HOST:PORT` as typed on the command line.
struct HostPort: Equatable, Sendable, CustomStringConvertible {
    /// The host part (brackets of an IPv6 address removed); nil when only a port was given.
    var host: String?
    var port: Int

    /// Parses `PORT`, `HOST:PORT`, `[IPV6]:PORT`; `requireHost` rejects a bare port.
    static func parse(_ s: String, option: String, requireHost: Bool = false) throws(UsageError) -> HostPort {
        let example = requireHost ? "HOST:PORT (e.g. 192.168.1.20:7777)" : "[ADDR:]PORT (e.g. 7777 or 0.0.0.0:7777)"
        var host: String?
        var portText = s
        if s.hasPrefix("[") {
            guard let close = s.firstIndex(of: "]"), s[s.index(after: close)...].hasPrefix(":") else {
                throw UsageError("\(option) must look like \(example), got '\(s)'")
            }
            host = String(s[s.index(after: s.startIndex)..<close])
            portText = String(s[s.index(close, offsetBy: 2)...])
        } else if let colon = s.lastIndex(of: ":") {
            host = String(s[..<colon])
            portText = String(s[s.index(after: colon)...])
            if host!.contains(":") { throw UsageError("\(option): write an IPv6 address in brackets, e.g. [::1]:7777; got '\(s)'") }
        }
        guard let port = Int(portText), (0...65535).contains(port), host.map({ !$0.isEmpty }) ?? true else {
            throw UsageError("\(option) must look like \(example), got '\(s)'")
        }
        if requireHost && (host == nil || port == 0) { throw UsageError("\(option) must look like \(example), got '\(s)'") }
        return HostPort(host: host, port: port)
    }

    var description: String {
        guard let host else { return String(port) }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// A network failure with the C call's reason.
struct NetError: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ message: String) { description = message }

    /// `what: strerror(errno)`.
    static func errno(_ what: String) -> NetError { NetError("\(what): \(String(cString: strerror(Glibc.errno)))") }
}
