import Glibc

extension Socket {
    /// A non-blocking UDP socket bound to `address` (socket, bind), for OSC in.
    static func udp(bind address: SocketAddress) throws(NetError) -> Socket {
        let fd = Glibc.socket(address.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw NetError.errno("socket") }
        let s = Socket(fd: fd)
        var size: Int32 = 1 << 20  // a burst of messages waits in the kernel, not dropped
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let rc = address.withSockaddr { Glibc.bind(fd, $0, $1) }
        guard rc == 0 else { throw NetError.errno("cannot listen for OSC on UDP \(address)") }
        return s
    }

    /// One datagram into `buffer` (recv): its length, nil when none is waiting.
    /// A datagram longer than the buffer is cut (and then fails to decode).
    func receiveDatagram(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let n = Glibc.recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC))
        return n >= 0 ? min(n, buffer.count) : nil
    }
}
