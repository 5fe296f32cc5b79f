import Glibc

/// A non-blocking TCP socket (listening or connected). Owns its descriptor
/// and closes it in deinit. Used by one network thread at a time
/// (`@unchecked Sendable` only so a thread can be handed one).
final class Socket: @unchecked Sendable {
    let fd: Int32

    init(fd: Int32) { self.fd = fd }
    deinit { Glibc.close(fd) }

    /// Result of a read.
    enum ReadResult: Equatable {
        case data(Int)
        case wouldBlock
        case closed
        case failed(String)
    }

    /// A listening socket bound to `address` (socket, setsockopt SO_REUSEADDR, bind, listen).
    static func listen(_ address: SocketAddress, backlog: Int32 = 128) throws(NetError) -> Socket {
        let fd = Glibc.socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw NetError.errno("socket") }
        let s = Socket(fd: fd)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc = address.withSockaddr { Glibc.bind(fd, $0, $1) }
        guard rc == 0 else { throw NetError.errno("cannot listen on \(address)") }
        guard Glibc.listen(fd, backlog) == 0 else { throw NetError.errno("listen on \(address)") }
        return s
    }

    /// Starts connecting to `address` (non-blocking). Completion shows as
    /// writability; check `pendingError` then.
    static func connect(_ address: SocketAddress) throws(NetError) -> Socket {
        let fd = Glibc.socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw NetError.errno("socket") }
        let s = Socket(fd: fd)
        let rc = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard rc == 0 || Glibc.errno == EINPROGRESS else { throw NetError.errno("cannot connect to \(address)") }
        s.setNoDelay()
        return s
    }

    /// A connection waiting on a listening socket (accept4, non-blocking), or nil when there is none.
    func accept() -> (Socket, SocketAddress)? {
        let (fd, addr) = SocketAddress.from { sa, len in Glibc.accept(self.fd, sa, len) }
        guard fd >= 0 else { return nil }
        let s = Socket(fd: fd)
        Self.makeNonBlocking(fd)
        s.setNoDelay()
        return (s, addr)
    }

    /// The address the socket is bound to (getsockname).
    var localAddress: SocketAddress? {
        let (rc, a) = SocketAddress.from { getsockname(fd, $0, $1) }
        return rc == 0 ? a : nil
    }

    /// The error of a finished non-blocking connect (SO_ERROR), nil when it succeeded.
    var pendingError: String? {
        var err: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 else { return String(cString: strerror(Glibc.errno)) }
        return err == 0 ? nil : String(cString: strerror(err))
    }

    /// Reads what is available into `buffer` (recv).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let n = recv(fd, buffer.baseAddress, buffer.count, 0)
        if n > 0 { return .data(n) }
        if n == 0 { return .closed }
        switch Glibc.errno {
        case EAGAIN, EWOULDBLOCK, EINTR: return .wouldBlock
        default: return .failed(String(cString: strerror(Glibc.errno)))
        }
    }

    /// Writes as much of `bytes` as the socket takes now (send, MSG_NOSIGNAL).
    /// Returns the count written (0 when it would block), or nil on failure.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty else { return 0 }
        let n = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        if n >= 0 { return n }
        switch Glibc.errno {
        case EAGAIN, EWOULDBLOCK, EINTR: return 0
        default: return nil
        }
    }

    /// O_NONBLOCK and FD_CLOEXEC on a descriptor (fcntl).
    static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    private func setNoDelay() {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }
}

/// A descriptor other threads write to so a network thread leaves `poll` at
/// once (a non-blocking pipe). `signal` may be called from any thread.
final class Wakeup: Sendable {
    /// The end to poll for reading.
    let fd: Int32
    private let writeFD: Int32

    init() throws(NetError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw NetError.errno("pipe") }
        Socket.makeNonBlocking(fds[0])
        Socket.makeNonBlocking(fds[1])
        fd = fds[0]
        writeFD = fds[1]
    }
    deinit {
        Glibc.close(fd)
        Glibc.close(writeFD)
    }

    /// Wakes the poller (one byte into the pipe; never blocks — a full pipe already wakes it).
    func signal() {
        var one: UInt8 = 1
        _ = Glibc.write(writeFD, &one, 1)
    }

    /// Clears pending wake-ups.
    func drain() {
        var buf = [UInt8](repeating: 0, count: 256)
        while Glibc.read(fd, &buf, buf.count) > 0 {}
    }
}

/// One poll(2) call over a set of descriptors.
struct PollSet {
    /// Interest in one descriptor.
    struct Entry {
        var fd: Int32
        var read: Bool
        var write: Bool
    }
    /// What poll reported for one descriptor.
    struct Ready {
        var readable: Bool
        var writable: Bool
        /// Hang-up or error.
        var broken: Bool
    }

    /// Waits up to `timeout` seconds (poll); returns one `Ready` per entry, in order.
    static func wait(_ entries: [Entry], timeout: Double) -> [Ready] {
        var fds = entries.map { e in
            pollfd(fd: e.fd, events: Int16((e.read ? POLLIN : 0) | (e.write ? POLLOUT : 0)), revents: 0)
        }
        let ms = Int32(max(0, min(timeout, 60)) * 1000 + 0.999)
        let rc = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), ms) }
        if rc <= 0 { return entries.map { _ in Ready(readable: false, writable: false, broken: false) } }
        return fds.map { f in
            let r = Int32(f.revents)
            return Ready(readable: r & Int32(POLLIN) != 0, writable: r & Int32(POLLOUT) != 0,
                         broken: r & (Int32(POLLERR) | Int32(POLLHUP) | Int32(POLLNVAL)) != 0)
        }
    }
}
