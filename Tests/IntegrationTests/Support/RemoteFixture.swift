import Foundation
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Real `physarum host --headless` and `physarum remote --headless` processes
/// for the remote-control tests: a private presets folder, state files, the
/// port the OS chose (read back from the host's state file).
final class RemoteFixture {
    let dir: URL
    var env: [String: String?]

    init() throws {
        dir = makeTempDir("remote")
        let presets = dir.appendingPathComponent("configs/presets")
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        for (i, name) in ["alpha", "beta", "gamma"].enumerated() {
            let json = #"{"format":1,"name":"\#(name)","tags":[],"params":{"global.agents":5000,"global.exposure":\#(1 + Double(i) * 0.5),"render.blendMode":"\#(i == 1 ? "paint" : "additive")"}}"#
            try json.write(to: presets.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8)
        }
        env = ["PHYSARUM_CONFIG_DIR": dir.appendingPathComponent("configs").path, "XDG_STATE_HOME": dir.path,
               "XDG_CONFIG_HOME": dir.path, "XDG_DATA_HOME": dir.path, "DISPLAY": nil]
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    func file(_ name: String) -> URL { dir.appendingPathComponent(name) }

    /// A headless host on `address` (port 0: the OS chooses) with a small field at 30 fps.
    func startHost(_ name: String = "host", address: String = "127.0.0.1:0", extra: [String] = []) throws -> HostProcess {
        let state = file("\(name)-state.json"), stats = file("\(name)-stats.jsonl")
        let p = try AppProcess(["host", "--listen", address, "--headless", "--field", "256x144", "--agents", "5000",
                                "--fps", "30", "--threads", "1", "--state-file", state.path, "--stats", stats.path] + extra,
                               environment: env)
        let host = HostProcess(process: p, stateFile: state, statsFile: stats)
        guard poll(seconds: 30, { host.port != nil }) else {
            p.stop()
            throw FixtureError("the host did not start: \(p.stderr)")
        }
        return host
    }

    /// A headless scripted remote.
    func startRemote(_ name: String, port: Int, script: [String], extra: [String] = []) throws -> (AppProcess, URL) {
        let scriptFile = file("\(name).jsonl"), state = file("\(name)-state.json")
        try script.joined(separator: "\n").write(to: scriptFile, atomically: true, encoding: .utf8)
        let p = try AppProcess(["remote", "127.0.0.1:\(port)", "--headless", "--script", scriptFile.path,
                                "--state-file", state.path] + extra, environment: env)
        return (p, state)
    }
}

/// A running headless host and what it reports.
struct HostProcess {
    let process: AppProcess
    let stateFile: URL
    let statsFile: URL

    var state: [String: Any]? { readJSON(stateFile) }
    var port: Int? { (state?["listen"] as? String)?.split(separator: ":").last.flatMap { Int($0) } }
    var remoteConnected: Bool { (state?["remote"] as? [String: Any])?["connected"] as? Bool ?? false }
    var connects: Int { (state?["remote"] as? [String: Any])?["connects"] as? Int ?? -1 }

    /// Every stats line so far, parsed.
    var statsLines: [[String: Any]] {
        guard let text = try? String(contentsOf: statsFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// (t, frames) of every stats line so far.
    var frameLog: [(t: Double, frames: Int)] {
        statsLines.compactMap { o in
            guard let t = o["t"] as? Double, let f = o["frames"] as? Int else { return nil }
            return (t, f)
        }
    }

    /// VmRSS of the process in KiB (/proc/PID/status).
    var rssKiB: Int? {
        guard let s = try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}

/// A JSON object file, or nil while it is missing or half-written.
func readJSON(_ url: URL) -> [String: Any]? {
    guard let d = try? Data(contentsOf: url) else { return nil }
    return try? JSONSerialization.jsonObject(with: d) as? [String: Any]
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// A plain blocking TCP client on 127.0.0.1 for raw protocol tests (the
/// test's own socket code, independent of the app's).
final class RawClient: @unchecked Sendable {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = in_port_t(UInt16(port).bigEndian)
        a.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let rc = withUnsafePointer(to: &a) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if rc != 0 {
            close(fd)
            throw FixtureError("connect: \(String(cString: strerror(errno)))")
        }
        var tv = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends all bytes (blocking); false when the peer closed.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + off, bytes.count - off, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            off += n
        }
        return true
    }

    /// One frame as JSON text, with its 4-byte length.
    func sendFrame(_ json: String) {
        let b = Array(json.utf8)
        let n = UInt32(b.count)
        send([UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + b)
    }

    /// Reads what arrives within `seconds`; `closed` tells whether the host closed the connection.
    func receive(seconds: Double) -> (bytes: [UInt8], closed: Bool) {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let n = recv(fd, &buf, buf.count, 0)
            if n > 0 { out += buf[0..<n] } else if n == 0 { return (out, true) } else if errno != EAGAIN && errno != EWOULDBLOCK { return (out, true) }
        }
        return (out, false)
    }

    /// Waits until the host closes the connection (or `seconds` pass); returns whether it did.
    func waitClosed(seconds: Double) -> Bool { receive(seconds: seconds).closed }
}

/// The JSON objects of a byte stream of frames.
func frames(_ bytes: [UInt8]) -> [[String: Any]] {
    var out: [[String: Any]] = []
    var i = 0
    while i + 4 <= bytes.count {
        let n = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        guard i + 4 + n <= bytes.count else { break }
        if let o = try? JSONSerialization.jsonObject(with: Data(bytes[(i + 4)..<(i + 4 + n)])) as? [String: Any] { out.append(o) }
        i += 4 + n
    }
    return out
}
