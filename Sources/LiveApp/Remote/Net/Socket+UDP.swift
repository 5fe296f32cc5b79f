import Glibc

extension Socket {
    /// A non-blocking UDP socket bound to `address` (socket, bind), for OSC
    /// in. It asks the kernel to count the datagrams it drops for this
    /// socket (SO_RXQ_OVFL: a full receive buffer in a flood); each
    /// `receiveDatagram` reads that count.
    static func udp(bind address: SocketAddress) throws(NetError) -> Socket {
        let fd = Glibc.socket(address.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw NetError.errno("socket") }
        let s = Socket(fd: fd)
        var size: Int32 = 1 << 20  // a burst of messages waits in the kernel, not dropped
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &on, socklen_t(MemoryLayout<Int32>.size))
        let rc = address.withSockaddr { Glibc.bind(fd, $0, $1) }
        guard rc == 0 else { throw NetError.errno("cannot listen for OSC on UDP \(address)") }
        return s
    }

    /// One datagram into `buffer` (recvmsg): its length and the kernel's
    /// count of datagrams dropped on this socket so far (SO_RXQ_OVFL; nil
    /// when the kernel sent none with it), or nil when none is waiting. A
    /// datagram longer than the buffer is cut (and then fails to decode).
    func receiveDatagram(into buffer: UnsafeMutableRawBufferPointer) -> (length: Int, kernelDropped: Int?)? {
        // Room for one cmsghdr and a 4-byte counter, 8-byte aligned.
        var control = [UInt64](repeating: 0, count: 8)
        return control.withUnsafeMutableBytes { controlBytes -> (Int, Int?)? in
            var iov = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
            return withUnsafeMutablePointer(to: &iov) { iovp -> (Int, Int?)? in
                var msg = msghdr()
                msg.msg_iov = iovp
                msg.msg_iovlen = 1
                msg.msg_control = controlBytes.baseAddress
                msg.msg_controllen = controlBytes.count
                let n = Glibc.recvmsg(fd, &msg, Int32(MSG_TRUNC))
                guard n >= 0 else { return nil }
                return (min(n, buffer.count), Self.droppedCount(controlBytes, length: Int(msg.msg_controllen)))
            }
        }
    }

    /// The SO_RXQ_OVFL counter in a control buffer: walks the cmsghdr list
    /// (CMSG_FIRSTHDR/CMSG_NXTHDR by hand: the macros do not import).
    private static func droppedCount(_ control: UnsafeMutableRawBufferPointer, length: Int) -> Int? {
        let header = MemoryLayout<cmsghdr>.size
        var at = 0
        while at + header <= length {
            let h = control.load(fromByteOffset: at, as: cmsghdr.self)
            let len = Int(h.cmsg_len)
            guard len >= header else { return nil }
            if h.cmsg_level == SOL_SOCKET && h.cmsg_type == Int32(SO_RXQ_OVFL) && at + header + 4 <= length {
                return Int(control.loadUnaligned(fromByteOffset: at + header, as: UInt32.self))
            }
            at += (len + 7) & ~7
        }
        return nil
    }
}
