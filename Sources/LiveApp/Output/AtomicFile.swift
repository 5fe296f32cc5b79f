import Foundation

/// Whole-file writes that never leave a half-written file behind: the bytes go
/// to a temporary file in the same directory, are flushed to disk (fsync) and
/// then renamed over the destination.
enum AtomicFile {
    /// An I/O failure naming the file and the system's reason.
    struct WriteError: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `bytes` to `path` atomically.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let tmp = (dir.isEmpty ? "." : dir) + "/.\(name).tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw WriteError(description: "cannot create \(tmp): \(String(cString: strerror(errno)))") }
        var written = 0
        let ok: Bool = bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += n
            }
            return true
        }
        let err = errno
        guard ok, fsync(fd) == 0 else {
            close(fd)
            unlink(tmp)
            throw WriteError(description: "cannot write \(path): \(String(cString: strerror(ok ? errno : err)))")
        }
        close(fd)
        guard rename(tmp, path) == 0 else {
            let e = String(cString: strerror(errno))
            unlink(tmp)
            throw WriteError(description: "cannot rename \(tmp) to \(path): \(e)")
        }
    }
}
