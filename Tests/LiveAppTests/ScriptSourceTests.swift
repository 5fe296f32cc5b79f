import Foundation
import Testing
import TestSupport
@testable import LiveApp

/// `physarum remote --script`'s reader: lines split with a bounded line
/// length, files read through the safe reader (type and size checked first).
@Suite struct ScriptSourceTests {
    private func split(_ chunks: [String], limit: Int = 16) -> (lines: [String], overlong: Bool, last: String?) {
        var s = LineSplitter(limit: limit)
        var out: [String] = []
        for c in chunks { out += Array(c.utf8).withUnsafeBytes { s.feed($0) } }
        let over = s.overlong
        return (out, over, s.finish())
    }

    @Test func linesAcrossChunksWithCRLFAndNoFinalNewline() {
        let r = split(["{\"wait\":", "0}\r\n\n# c", "omment\n{\"quit\":true}"])
        #expect(r.lines == ["{\"wait\":0}", "", "# comment"])
        #expect(!r.overlong)
        #expect(r.last == "{\"quit\":true}")
    }

    @Test func aLineOverTheLimitStopsTheSplitWithoutGrowing() {
        let r = split(["short\n", String(repeating: "x", count: 10), String(repeating: "y", count: 10), "\nnext\n"])
        #expect(r.lines == ["short"])
        #expect(r.overlong)
        #expect(r.last == nil)
        // Exactly at the limit is fine.
        let ok = split([String(repeating: "z", count: 16) + "\n"])
        #expect(ok.lines == [String(repeating: "z", count: 16)] && !ok.overlong)
    }

    @Test func aFileIsReadLineByLineAndAnOverlongLineIsReportedAfterTheOthers() throws {
        let dir = makeTempDir("script-source")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s.jsonl")
        try "{\"wait\":0}\n{\"quit\":true}".write(to: file, atomically: true, encoding: .utf8)
        let s = try ScriptSource(path: file.path)
        #expect(s.next() == .line("{\"wait\":0}"))
        #expect(s.next() == .line("{\"quit\":true}"))
        #expect(s.next() == .end)

        let long = dir.appendingPathComponent("long.jsonl")
        try ("{\"wait\":0}\n" + String(repeating: " ", count: ScriptSource.lineLimit + 1) + "\n").write(to: long, atomically: true, encoding: .utf8)
        let l = try ScriptSource(path: long.path)
        #expect(l.next() == .line("{\"wait\":0}"))
        #expect(l.next() == .failed("\(long.path):2: line is over \(ScriptSource.lineLimit) bytes"))
    }

    @Test func aLargeFileOrAFIFOIsRefusedBeforeReading() throws {
        let dir = makeTempDir("script-source")
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.jsonl").path
        let fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0 && ftruncate(fd, 1 << 30) == 0)
        close(fd)
        let pipe = dir.appendingPathComponent("pipe.jsonl").path
        try #require(mkfifo(pipe, 0o644) == 0)
        for (path, why) in [(big, "file is 1073741824 bytes, over the limit of \(ScriptSource.fileLimit) bytes (stream it instead: --script - < FILE)"),
                            (pipe, "not a regular file")] {
            do {
                _ = try ScriptSource(path: path)
                Issue.record("\(path) must be refused")
            } catch {
                #expect(error.description == "--script \(path): \(why)")
            }
        }
    }
}
