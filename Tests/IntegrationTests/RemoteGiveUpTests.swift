import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `physarum remote HOST:PORT` with nobody listening there: it gives up
/// after a few tries with one line (exit 1); `--wait` keeps trying.
@Suite struct RemoteGiveUpTests {
    /// A TCP port on loopback with nobody listening (bound, read back, released).
    static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: a.sin_port))
    }

    @Test func noHostGivesUpWithOneLine() throws {
        let fx = try RemoteFixture()
        let port = Self.closedPort()
        let app = try AppProcess(["remote", "127.0.0.1:\(port)", "--headless"], environment: fx.env)
        defer { app.stop() }
        let code = app.wait(seconds: 120)
        #expect(code == 1, "exit 1 when the host is never reached: \(String(describing: code))")
        let lines = app.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(app.stderr)")
        #expect(lines.first?.contains("cannot reach 127.0.0.1:\(port) after 5 tries") == true, "\(app.stderr)")
        #expect(lines.first?.contains("--wait") == true, "says how to keep trying")
    }

    @Test func waitKeepsTrying() throws {
        let fx = try RemoteFixture()
        let port = Self.closedPort()
        // --quit-after ends it: by then the default would have given up (5 tries take about 4 s).
        let app = try AppProcess(["remote", "127.0.0.1:\(port)", "--headless", "--wait", "--quit-after", "10"], environment: fx.env)
        defer { app.stop() }
        #expect(app.wait(seconds: 120) == 0, "it was still trying when --quit-after ended it: \(app.stderr)")
        #expect(!app.stderr.contains("cannot reach"), "\(app.stderr)")
        #expect(app.stderr.split(separator: "\n").count <= 3, "no line per try: \(app.stderr)")
    }
}
