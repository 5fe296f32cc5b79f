import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// liblo's command-line tools (Debian liblo-tools) and raw UDP for the OSC
/// tests: `oscsend` drives the app, `oscdump` receives its feature stream.
enum OSCTools {
    /// Whether oscsend/oscdump are installed (scripts/test installs them).
    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/oscsend") }

    /// `oscsend 127.0.0.1 PORT ADDRESS [TYPES VALUES…]`; throws when it fails.
    static func send(port: Int, _ address: String, _ types: String = "", _ values: String...) throws {
        let args = ["127.0.0.1", String(port), address] + (types.isEmpty ? [] : [types] + values)
        let r = try PhysarumProcess.run(tool: "/usr/bin/oscsend", args)
        if r.status != 0 { throw FixtureError("oscsend \(args.joined(separator: " ")) failed: \(r.stderr)") }
    }

    /// A free UDP port on loopback right now (bound, read back, released).
    static func freeUDPPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: a.sin_port))
    }

    /// Sends raw datagrams to 127.0.0.1:`port` from one socket.
    static func sendRaw(_ packets: [[UInt8]], port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = in_port_t(UInt16(port).bigEndian)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        for p in packets {
            _ = p.withUnsafeBytes { b in
                withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, b.baseAddress, b.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                } }
            }
        }
    }

    /// Datagrams the kernel dropped for the UDP socket bound to `port` (/proc/net/udp's `drops`).
    static func kernelDrops(port: Int) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/net/udp", encoding: .utf8) else { return 0 }
        let hexPort = String(format: ":%04X", port)
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            if f.count > 12, f[1].hasSuffix(hexPort) { return Int(f[f.count - 1]) ?? 0 }
        }
        return 0
    }

    /// `oscdump -L PORT` writing into `file`, up once it has shown a probe;
    /// `stop()` ends it (SIGKILL: oscdump ignores SIGTERM while it waits).
    final class Dump {
        let port: Int
        let file: URL
        private let process = Process()

        init(in dir: URL) throws {
            port = OSCTools.freeUDPPort()
            file = dir.appendingPathComponent("oscdump-\(port).txt")
            FileManager.default.createFile(atPath: file.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/oscdump")
            process.arguments = ["-L", String(port)]
            process.standardOutput = try FileHandle(forWritingTo: file)
            process.standardError = FileHandle.nullDevice
            try process.run()
            let up = poll(seconds: 30) {
                try? OSCTools.send(port: self.port, "/probe")
                return self.text.contains("/probe")
            }
            if !up { stop() }
            try #require(up, "oscdump listens")
        }

        deinit { stop() }

        /// What it received so far, one message per line ("TIMETAG /address types values…"),
        /// whole lines only (oscdump may be writing the last one).
        var text: String {
            let all = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            return all.lastIndex(of: "\n").map { String(all[...$0]) } ?? ""
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        }
    }
}
