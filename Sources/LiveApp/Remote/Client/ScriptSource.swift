import Foundation
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// Splits a byte stream into lines (`\n`, a trailing `\r` removed), refusing
/// a line longer than `limit` bytes instead of growing without bound. Pure;
/// one owner.
struct LineSplitter {
    /// The longest line accepted, in bytes.
    let limit: Int
    private var partial: [UInt8] = []
    /// Set once a line went over the limit; nothing more is split after it.
    private(set) var overlong = false

    init(limit: Int) { self.limit = limit }

    /// The complete lines in `bytes` (with what was left over from before).
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var out: [String] = []
        guard !overlong else { return out }
        var start = 0
        for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "\n") {
            guard partial.count + (i - start) <= limit else {
                overlong = true
                partial = []
                return out
            }
            partial.append(contentsOf: bytes[start..<i])
            out.append(Self.text(partial))
            partial.removeAll(keepingCapacity: true)
            start = i + 1
        }
        if partial.count + (bytes.count - start) > limit {
            overlong = true
            partial = []
            return out
        }
        partial.append(contentsOf: bytes[start...])
        return out
    }

    /// The last line when the stream ended without a newline (nil when there is none).
    mutating func finish() -> String? {
        guard !overlong, !partial.isEmpty else { return nil }
        defer { partial = [] }
        return Self.text(partial)
    }

    private static func text(_ bytes: [UInt8]) -> String {
        var b = bytes[...]
        if b.last == UInt8(ascii: "\r") { b = b.dropLast() }
        return String(decoding: b, as: UTF8.self)
    }
}

/// The lines of a script: a whole file (read through `SafeFile`: regular
/// files of at most `fileLimit` bytes, checked before a byte is read), or
/// standard input read by a background thread as lines arrive (so a pipe can
/// drive a live remote). Memory stays bounded either way: standard input is
/// read no further ahead than `maxPending` lines, and no line may be longer
/// than `lineLimit` bytes. Thread-safe.
final class ScriptSource: @unchecked Sendable {
    /// The largest script file read (about 200 000 steps).
    static let fileLimit = 16 << 20
    /// The longest line (a step is one JSON object on one line).
    static let lineLimit = 1 << 20
    /// Lines of standard input read ahead of the script at most.
    static let maxPending = 4096

    private let condition = NSCondition()
    private var lines: [String] = []
    private var position = 0
    private var ended = false
    /// Why reading stopped early (a line over the limit, a read error).
    private var failure: String?
    let name: String

    /// Reads `path` (`-` = standard input). Throws a usage error naming the
    /// file when it cannot be read, is not a regular file, or is too large.
    init(path: String) throws(UsageError) {
        name = path == "-" ? "stdin" : path
        if path == "-" {
            let t = Thread { [self] in readStandardInput() }
            t.name = "physarum.script-stdin"
            t.start()
            return
        }
        let data: Data
        do {
            data = try SafeFile.read(URL(fileURLWithPath: path), limit: Self.fileLimit)
        } catch {
            // Too large to read whole: standard input streams any length.
            let tooLarge = error.reason.hasPrefix("file is")
            throw UsageError("--script \(error.path): \(error.reason)" + (tooLarge ? " (stream it instead: --script - < FILE)" : ""))
        }
        var splitter = LineSplitter(limit: Self.lineLimit)
        lines = data.withUnsafeBytes { splitter.feed($0) }
        if splitter.overlong {
            failure = "\(name):\(lines.count + 1): line is over \(Self.lineLimit) bytes"
        } else if let last = splitter.finish() {
            lines.append(last)
        }
        ended = true
    }

    /// The next line if one is there; `.end` after the last one; `.failed`
    /// (once every line before it was taken) when the input broke off.
    func next() -> Line {
        condition.lock()
        defer { condition.unlock() }
        if position < lines.count {
            position += 1
            let line = lines[position - 1]
            if position > 1024, position * 2 > lines.count {  // drop what was taken
                lines.removeFirst(position)
                position = 0
            }
            condition.signal()
            return .line(line)
        }
        if let failure { return .failed(failure) }
        return ended ? .end : .pending
    }

    enum Line: Equatable {
        case line(String)
        case pending
        case end
        case failed(String)
    }

    /// The reader thread: chunks of standard input into lines, waiting while
    /// `maxPending` lines are unread.
    private func readStandardInput() {
        var splitter = LineSplitter(limit: Self.lineLimit)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var lineCount = 0
        var stop: String?
        while stop == nil {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                stop = "\(name): cannot read: \(String(cString: strerror(errno)))"
                break
            }
            if n == 0 { break }
            let new = chunk.withUnsafeBytes { splitter.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            lineCount += new.count
            if splitter.overlong { stop = "\(name):\(lineCount + 1): line is over \(Self.lineLimit) bytes" }
            append(new)
        }
        if stop == nil, let last = splitter.finish() { append([last]) }
        condition.lock()
        failure = stop
        ended = true
        condition.unlock()
    }

    private func append(_ new: [String]) {
        guard !new.isEmpty else { return }
        condition.lock()
        while lines.count - position >= Self.maxPending { condition.wait() }
        lines += new
        condition.unlock()
    }
}
