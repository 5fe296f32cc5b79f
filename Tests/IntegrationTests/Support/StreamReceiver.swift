import Foundation
import TestSupport

/// A real ffmpeg receiving a video stream (what `ffplay udp://…` or OBS's
/// media source does), decoding every frame to a small grey picture on its
/// standard output; each decoded frame is kept with the moment it arrived
/// here and its mean brightness (0...255). Killed when released.
final class StreamReceiver: @unchecked Sendable {
    struct Frame: Sendable {
        let arrived: ContinuousClock.Instant
        let mean: Double
    }

    static let width = 32, height = 18
    private let process = Process()
    private let pipe = Pipe()
    private let lock = NSLock()
    private var buffer = Data()
    private var received: [Frame] = []
    private let errURL: URL

    /// Starts `ffmpeg -i url` with low-delay decoding.
    init(url: String) throws {
        errURL = FileManager.default.temporaryDirectory.appendingPathComponent("physarum-receiver-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-hide_banner", "-loglevel", "error", "-nostats", "-fflags", "nobuffer", "-flags", "low_delay",
                             "-probesize", "500000", "-analyzeduration", "1000000", "-i", url,
                             "-vf", "scale=\(Self.width):\(Self.height)", "-pix_fmt", "gray", "-fps_mode", "passthrough", "-f", "rawvideo", "-flush_packets", "1", "pipe:1"]
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        let size = Self.width * Self.height
        pipe.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self, !d.isEmpty else { return }
            let now = ContinuousClock.now
            self.lock.lock()
            defer { self.lock.unlock() }
            self.buffer.append(d)
            while self.buffer.count >= size {
                let frame = self.buffer.prefix(size)
                let mean = Double(frame.reduce(0) { $0 + Int($1) }) / Double(size)
                self.received.append(Frame(arrived: now, mean: mean))
                self.buffer.removeFirst(size)
            }
        }
        try process.run()
    }

    deinit { stop() }

    var frames: [Frame] { lock.lock(); defer { lock.unlock() }; return received }
    var count: Int { lock.lock(); defer { lock.unlock() }; return received.count }
    var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        pipe.fileHandleForReading.readabilityHandler = nil
        try? FileManager.default.removeItem(at: errURL)
    }

    /// Whether some socket is bound to UDP `port` here (an SRT listener is up).
    static func udpPortBound(_ port: Int) -> Bool {
        let hex = String(format: ":%04X ", port)
        return ["/proc/net/udp", "/proc/net/udp6"].contains { ((try? String(contentsOfFile: $0, encoding: .utf8)) ?? "").contains(hex) }
    }

    /// A free UDP/TCP port on 127.0.0.1 (bound and released; another program may take it in between, unlikely in a test).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
