import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on a folder for the life of this process: an flock(2)
/// on a lock file inside it, which holds the owner's PID. The kernel drops
/// the lock when the process ends (crash and `kill -9` included), so a stale
/// file never locks anyone out. The descriptor is close-on-exec, so child
/// processes (ffmpeg) do not keep the lock alive.
///
/// Thread safety: immutable after `acquire`; the lock is released in deinit.
public final class FolderLock: Sendable {
    /// The lock file.
    public let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Why the lock was not taken.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// Another process holds it (its PID, when the file says).
        case held(pid: Int32?)
        /// The lock file could not be made or locked (the reason).
        case failed(String)

        public var description: String {
            switch self {
            case .held(let pid): pid.map { "held by process \($0)" } ?? "held by another process"
            case .failed(let why): why
            }
        }
    }

    /// Takes the lock on `folder` (created when missing) through the file
    /// `name` in it; never waits.
    public static func acquire(_ folder: URL, name: String) -> Result<FolderLock, Refusal> {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return .failure(.failed("cannot create \(folder.path): \(error.localizedDescription)"))
        }
        let path = folder.appendingPathComponent(name).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return .failure(.failed("\(path): cannot open: \(String(cString: strerror(errno)))")) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let why = String(cString: strerror(errno))
            defer { close(fd) }
            guard busy else { return .failure(.failed("\(path): cannot lock: \(why)")) }
            var buf = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &buf, buf.count, 0)
            let pid = n > 0 ? Int32(String(decoding: buf[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
            return .failure(.held(pid: pid))
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return .success(FolderLock(path: path, fd: fd))
    }
}
