import Foundation
import Storage
import Testing

@Suite struct SafeFileMoveAsideTests {
    @Test func takesTheFirstFreeNameAndReplacesNothing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("moveaside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.json")
        try Data("broken".utf8).write(to: file)
        for n in 0..<3 { try Data("old \(n)".utf8).write(to: dir.appendingPathComponent("a.aside-\(n)")) }
        let moved = try SafeFile.moveAside(file) { "a.aside-\($0)" }
        #expect(moved.lastPathComponent == "a.aside-3")
        #expect(FileManager.default.contents(atPath: moved.path) == Data("broken".utf8))
        for n in 0..<3 { #expect(FileManager.default.contents(atPath: dir.appendingPathComponent("a.aside-\(n)").path) == Data("old \(n)".utf8)) }
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // Every name taken: it stays where it is.
        try Data("again".utf8).write(to: file)
        #expect(throws: FileError.self) { try SafeFile.moveAside(file, attempts: 4) { "a.aside-\($0)" } }
        #expect(FileManager.default.contents(atPath: file.path) == Data("again".utf8))
    }
}
