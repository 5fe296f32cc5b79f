import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Checks that a path is a v4l2loopback device that takes frames (a video
/// *output* device), so `--v4l2` fails with a clear reason instead of
/// ffmpeg's. Asks the kernel with `VIDIOC_QUERYCAP` (plain `ioctl`; the
/// 104-byte `struct v4l2_capability` is read by offset, no C module needed).
enum V4L2Device {
    /// `_IOR('V', 0, struct v4l2_capability)`.
    static let queryCap: UInt = 0x8068_5600
    static let capVideoOutput: UInt32 = 0x0000_0002
    static let capDeviceCaps: UInt32 = 0x8000_0000

    /// What the kernel says about the device.
    struct Capability: Equatable {
        var driver: String
        var card: String
        /// The device node's own capabilities (`device_caps` when reported, else `capabilities`).
        var caps: UInt32
        var isLoopback: Bool { driver == "v4l2 loopback" || card.lowercased().contains("loopback") }
        var takesFrames: Bool { caps & V4L2Device.capVideoOutput != 0 }
    }

    /// Nil when `path` is a v4l2loopback output device; else why it cannot be used, in one line.
    static func problem(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else {
            return "\(path): \(String(cString: strerror(errno))) (load the module: modprobe v4l2loopback devices=1 exclusive_caps=1)"
        }
        guard st.st_mode & S_IFMT == S_IFCHR else { return "\(path) is not a device (expected /dev/videoN of v4l2loopback)" }
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return "\(path): cannot open it (\(String(cString: strerror(errno))))" }
        defer { close(fd) }
        guard let cap = query(fd) else { return "\(path) is not a video4linux device (VIDIOC_QUERYCAP failed)" }
        guard cap.isLoopback else { return "\(path) is a \(cap.driver) device (\(cap.card)), not a v4l2loopback device" }
        guard cap.takesFrames else {
            return "\(path) is a v4l2loopback device that does not take frames now (another program writes to it, "
                + "or it was made with exclusive_caps and is open for reading)"
        }
        return nil
    }

    private static func query(_ fd: Int32) -> Capability? {
        var raw = [UInt8](repeating: 0, count: 104)
        let rc = raw.withUnsafeMutableBytes { ioctl(fd, queryCap, $0.baseAddress!) }
        guard rc == 0 else { return nil }
        func text(_ range: Range<Int>) -> String {
            String(decoding: raw[range].prefix { $0 != 0 }, as: UTF8.self)
        }
        func u32(_ at: Int) -> UInt32 {
            UInt32(raw[at]) | UInt32(raw[at + 1]) << 8 | UInt32(raw[at + 2]) << 16 | UInt32(raw[at + 3]) << 24
        }
        let caps = u32(84), deviceCaps = u32(88)
        return Capability(driver: text(0..<16), card: text(16..<48), caps: caps & capDeviceCaps != 0 ? deviceCaps : caps)
    }
}
