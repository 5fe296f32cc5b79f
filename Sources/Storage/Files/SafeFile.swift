import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file-system failure while reading or writing a user file, with the path
/// and the system's reason (`description` is the reason alone; messages
/// for the user say "FILE: reason").
public struct FileError: Error, Sendable, CustomStringConvertible {
    /// The file concerned.
    public let path: String
    /// What went wrong, in plain words.
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { reason }

    /// `what` followed by the system's words for the current `errno`.
    public static func errno(_ path: String, _ what: String) -> FileError {
        FileError(path: path, reason: "\(what): \(String(cString: strerror(Glibc.errno)))")
    }
}

/// The one way the app reads and writes user files (presets, configs,
/// sessions, the library, bindings, images): reads open without blocking, take
/// regular files only and check the size before reading a byte; writes are
/// atomic. Stateless; safe from any thread (each call uses its own descriptors).
public enum SafeFile {
    /// Throws unless `url` names a regular file (not a FIFO, device or
    /// directory), without opening it: for files a C library opens itself
    /// (audio files through libsndfile), where opening a FIFO would block.
    public static func requireRegularFile(_ url: URL) throws(FileError) {
        var st = stat()
        guard stat(url.path, &st) == 0 else { throw .errno(url.path, "cannot open") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw FileError(path: url.path, reason: "not a regular file") }
    }

    /// Reads a regular file of at most `limit` bytes; larger files are refused
    /// without reading them.
    public static func read(_ url: URL, limit: Int) throws(FileError) -> Data {
        let path = url.path
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)  // a FIFO must not block the open
        guard fd >= 0 else { throw .errno(path, "cannot open") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .errno(path, "cannot stat") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw FileError(path: path, reason: "not a regular file") }
        let size = Int(st.st_size)
        guard size <= limit else {
            throw FileError(path: path, reason: "file is \(size) bytes, over the limit of \(limit) bytes")
        }
        var out = Data(capacity: size)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while out.count <= limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if Glibc.errno == EINTR { continue }
                throw .errno(path, "cannot read")
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        guard out.count <= limit else {
            throw FileError(path: path, reason: "file grew over the limit of \(limit) bytes while being read")
        }
        return out
    }

    /// Writes `data` to `url` atomically: a temporary file in the same
    /// directory is written, flushed to disk (fsync) and renamed over the
    /// target, then the directory is flushed. Readers see either the old file
    /// or the new one, never a partial one. On failure the temporary file is
    /// removed and the target is untouched. When `url` is a symbolic link,
    /// the file it points to is written (the link stays a link); a link loop
    /// is an error and nothing is written.
    public static func writeAtomically(_ data: Data, to url: URL) throws(FileError) {
        try writeAtomically(data, to: resolveLinks(url), crashAfter: nil)
    }

    /// Whether `url` names a directory entry of any kind (a broken or looping
    /// symbolic link included), without following it.
    public static func entryExists(_ url: URL) -> Bool {
        var st = stat()
        return lstat(url.path, &st) == 0
    }

    /// The file `url` finally names after following symbolic links (up to
    /// 40, relative ones from their own folder); `url` itself when it is not
    /// a link. The last one may not exist yet (a write creates it). Throws
    /// for a loop.
    public static func resolveLinks(_ url: URL) throws(FileError) -> URL {
        var path = url.path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return URL(fileURLWithPath: path) }
            var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(path, &buf, buf.count - 1)
            guard n > 0 else { throw .errno(url.path, "cannot read the symbolic link") }
            let text = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            path = text.hasPrefix("/") ? text : (path as NSString).deletingLastPathComponent + "/" + text
        }
        throw FileError(path: url.path, reason: "a symbolic link loop (more than 40 links): not written")
    }

    /// Test seam: with `crashAfter` set, stops after writing that many bytes of
    /// the temporary file and returns without cleaning up or renaming — what a
    /// crash or power cut midway through a save leaves behind.
    static func writeAtomically(_ data: Data, to url: URL, crashAfter: Int?) throws(FileError) {
        let dir = url.deletingLastPathComponent().path
        let temp = dir + "/" + temporaryName(for: url.lastPathComponent)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .errno(url.path, "cannot create a temporary file in \(dir)") }
        var ok = false
        defer {
            if !ok && crashAfter == nil { unlink(temp) }
        }
        let count = min(data.count, crashAfter ?? data.count)
        var written = 0
        let writeError: FileError? = data.withUnsafeBytes { raw -> FileError? in
            while written < count {
                let n = write(fd, raw.baseAddress! + written, count - written)
                if n < 0 {
                    if Glibc.errno == EINTR { continue }
                    return .errno(url.path, "cannot write")
                }
                written += n
            }
            return nil
        }
        if crashAfter != nil {
            close(fd)
            return
        }
        if let writeError {
            close(fd)
            throw writeError
        }
        guard fsync(fd) == 0 else {
            let e = FileError.errno(url.path, "cannot flush to disk")
            close(fd)
            throw e
        }
        guard close(fd) == 0 else { throw .errno(url.path, "cannot close") }
        guard rename(temp, url.path) == 0 else { throw .errno(url.path, "cannot replace") }
        ok = true
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
    }

    /// Moves `url` to the first free name of `name(0)`, `name(1)`, … (up to
    /// `attempts`) in the same directory, never replacing an existing file: the
    /// new name is claimed with link(2), which fails when it exists, and only
    /// then the old name is removed. Throws when no name was free or the file
    /// cannot be moved; the file then stays where it was.
    public static func moveAside(_ url: URL, attempts: Int = 1000, name: (Int) -> String) throws(FileError) -> URL {
        let dir = url.deletingLastPathComponent()
        for n in 0..<attempts {
            let target = dir.appendingPathComponent(name(n))
            if link(url.path, target.path) == 0 {
                guard unlink(url.path) == 0 else {
                    let e = FileError.errno(url.path, "cannot move aside")
                    unlink(target.path)
                    throw e
                }
                return target
            }
            guard Glibc.errno == EEXIST else { throw .errno(url.path, "cannot move aside to \(target.lastPathComponent)") }
        }
        throw FileError(path: url.path, reason: "cannot move aside: \(name(0)) and the next \(attempts - 1) names are taken")
    }

    /// A hidden, unique temporary name next to `name`: `.name.tmp-PID-RANDOM`.
    static func temporaryName(for name: String) -> String {
        ".\(name).tmp-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
    }

    /// Whether a directory entry is a temporary file of an unfinished save.
    public static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.contains(".tmp-")
    }
}
