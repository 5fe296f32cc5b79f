import Foundation
import TestSupport

/// The virtual X display for window tests: the one scripts/test started
/// (PHYSARUM_TEST_DISPLAY), else a private Xvfb started on first use and
/// stopped at exit.
enum TestDisplay {
    nonisolated(unsafe) private static var started: (display: String, process: Process)?
    private static let lock = NSLock()

    /// The DISPLAY value to use, or nil when no Xvfb is available.
    static var display: String? {
        if let d = ProcessInfo.processInfo.environment["PHYSARUM_TEST_DISPLAY"], !d.isEmpty { return d }
        lock.lock(); defer { lock.unlock() }
        if let s = started { return s.display }
        guard let (display, process) = PrivateDisplay.launchXvfb(numbers: 140..<180, width: 1280, height: 720) else { return nil }
        started = (display, process)
        atexit { TestDisplay.stopStarted() }
        return display
    }

    private static func stopStarted() {
        if let p = started?.process { kill(p.processIdentifier, SIGKILL) }  // see PrivateDisplay.deinit
    }
}

/// A screenshot of the whole X screen via `xwd -root` (x11-apps), decoded.
struct ScreenShot {
    let width: Int
    let height: Int
    /// RGB bytes, row-major.
    let rgb: [UInt8]

    static func take(display: String) throws -> ScreenShot {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/xwd")
        p.arguments = ["-root", "-silent", "-display", display]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return try decodeXWD(data)
    }

    /// Decodes a ZPixmap XWD (24/32 bits per pixel, as Xvfb writes).
    static func decodeXWD(_ d: Data) throws -> ScreenShot {
        let b = [UInt8](d)
        func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        guard b.count > 100 else { throw XWDError("short xwd") }
        let headerSize = u32(0), width = u32(16), height = u32(20)
        let byteOrder = u32(28), bitsPerPixel = u32(44), bytesPerLine = u32(48), ncolors = u32(76)
        guard bitsPerPixel == 32 || bitsPerPixel == 24 else { throw XWDError("unsupported xwd depth \(bitsPerPixel)") }
        let start = headerSize + ncolors * 12
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let bpp = bitsPerPixel / 8
        for y in 0..<height {
            for x in 0..<width {
                let o = start + y * bytesPerLine + x * bpp
                guard o + 2 < b.count else { throw XWDError("truncated xwd") }
                // LSBFirst (0): bytes B, G, R, (pad).
                let (r, g, bl) = byteOrder == 0 ? (b[o + 2], b[o + 1], b[o]) : (b[o + bpp - 3], b[o + bpp - 2], b[o + bpp - 1])
                let i = (y * width + x) * 3
                rgb[i] = r; rgb[i + 1] = g; rgb[i + 2] = bl
            }
        }
        return ScreenShot(width: width, height: height, rgb: rgb)
    }

    /// Fraction of pixels in the rectangle that differ (any channel by > 8) from `other`.
    func fractionDiffering(from other: ScreenShot, x0: Int, y0: Int, x1: Int, y1: Int) -> Double {
        var n = 0, diff = 0
        for y in y0..<min(y1, height) {
            for x in x0..<min(x1, width) {
                let i = (y * width + x) * 3
                n += 1
                if abs(Int(rgb[i]) - Int(other.rgb[i])) > 8 || abs(Int(rgb[i + 1]) - Int(other.rgb[i + 1])) > 8
                    || abs(Int(rgb[i + 2]) - Int(other.rgb[i + 2])) > 8 { diff += 1 }
            }
        }
        return n == 0 ? 0 : Double(diff) / Double(n)
    }
}

struct XWDError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// A private Xvfb for one test, so that other window tests running at the
/// same time (they share PHYSARUM_TEST_DISPLAY) cannot take its pointer and
/// key presses. Stopped by its PID when released.
final class PrivateDisplay {
    let display: String
    private let process: Process

    /// Starts `Xvfb :N` on the first free N in 180..<220; nil without Xvfb.
    init?(width: Int = 1280, height: Int = 720) {
        guard let (display, process) = Self.launchXvfb(numbers: 180..<220, width: width, height: height) else { return nil }
        self.display = display
        self.process = process
    }

    /// Starts `Xvfb :N` on the first free N in `numbers` and waits until it
    /// takes connections; nil without Xvfb or a free number.
    static func launchXvfb(numbers: Range<Int>, width: Int, height: Int) -> (display: String, process: Process)? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else { return nil }
        for n in numbers where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)")
            && !FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock") {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
            // -r: no key autorepeat, so a key xdotool taps stays one press even when
            // the machine is so busy that its release comes late (the keyboard walk).
            p.arguments = [":\(n)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset", "-r"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { continue }
            // Ready when its socket takes connections (the file appears before
            // listen()). -noreset: by default Xvfb resets when its last client
            // leaves — this probe's connection — and a client that connects
            // during the reset is refused ("no display").
            if poll(seconds: 20, { accepts("/tmp/.X11-unix/X\(n)") || !p.isRunning }), p.isRunning {
                return (":\(n)", p)
            }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }  // another Xvfb took the number first
            p.waitUntilExit()
        }
        return nil
    }

    /// Whether a Unix socket at `path` accepts a connection.
    private static func accepts(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var a = sockaddr_un()
        a.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: a.sun_path) else { return false }
        withUnsafeMutableBytes(of: &a.sun_path) { buf in
            for (i, b) in bytes.enumerated() { buf[i] = b }
        }
        return withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// SIGKILL: Xvfb inherits the test thread's blocked signals, so SIGTERM
    /// would wait forever. Its lock and socket files are removed after it.
    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let n = display.dropFirst()
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(n)")
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(n)-lock")
    }
}
