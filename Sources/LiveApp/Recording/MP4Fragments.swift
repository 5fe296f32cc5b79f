import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads how much of a fragmented MP4 (`+frag_keyframe+empty_moov`) is
/// playable: the samples of every movie fragment (`moof`) whose media data
/// (`mdat`) is complete in the file. A recording cut by a full disk, a crash
/// or `kill -9` keeps exactly these. Reads box headers and the small `moof`
/// boxes only (pread), never the media. Stateless; any thread.
enum MP4Fragments {
    /// Video samples (frames) in complete fragments; nil when the file cannot be read.
    static func keptSamples(path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        let size = Int(st.st_size)
        var offset = 0, kept = 0, pending = 0
        while offset + 8 <= size {
            guard let (type, length, header) = boxHeader(fd, at: offset, fileSize: size) else { break }
            guard length >= header, offset + length <= size else { break }  // cut inside this box
            if type == "moof", length <= 1 << 24, let body = read(fd, at: offset + header, count: length - header) {
                pending = samples(inMoof: body)
            } else if type == "mdat" {
                kept += pending
                pending = 0
            }
            offset += length
        }
        return kept
    }

    /// (type, length, header length) of the box at `offset`; length 0 means "to the end of the file".
    private static func boxHeader(_ fd: Int32, at offset: Int, fileSize: Int) -> (String, Int, Int)? {
        guard let h = read(fd, at: offset, count: 8) else { return nil }
        let size32 = Int(h[0]) << 24 | Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3])
        let type = String(decoding: h[4..<8], as: UTF8.self)
        if size32 == 1 {
            guard let l = read(fd, at: offset + 8, count: 8) else { return nil }
            return (type, l.reduce(0) { $0 << 8 | Int($1) }, 16)
        }
        return (type, size32 == 0 ? fileSize - offset : size32, 8)
    }

    /// The sample counts of every `trun` in the `traf`s of a `moof` body.
    static func samples(inMoof body: [UInt8]) -> Int {
        var total = 0
        forEachBox(body[...]) { type, content in
            guard type == "traf" else { return }
            forEachBox(content) { t, run in
                guard t == "trun", run.count >= 8 else { return }
                let b = Array(run)[4..<8]  // after version and flags
                total += b.reduce(0) { $0 << 8 | Int($1) }
            }
        }
        return total
    }

    private static func forEachBox(_ bytes: ArraySlice<UInt8>, _ body: (String, ArraySlice<UInt8>) -> Void) {
        let b = Array(bytes)
        var i = 0
        while i + 8 <= b.count {
            let n = b[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard n >= 8, i + n <= b.count else { return }
            body(String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self), b[(i + 8)..<(i + n)])
            i += n
        }
    }

    private static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var buf = [UInt8](repeating: 0, count: count)
        let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        return n == count ? buf : nil
    }
}
