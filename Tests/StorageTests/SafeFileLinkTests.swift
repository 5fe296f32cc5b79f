import Foundation
import Storage
import Testing

/// Atomic writes through symbolic links: the file a link points to is
/// replaced and the link stays; a loop writes nothing.
@Suite struct SafeFileLinkTests {
    @Test func aLinkIsWrittenThroughAndALoopIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("safefile-links-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("real"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("real/session.json")
        try Data("old".utf8).write(to: target)
        let link = dir.appendingPathComponent("session.json")
        // A relative link through a second link: session.json → hop → real/session.json.
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("hop").path, withDestinationPath: "real/session.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "hop")
        try SafeFile.writeAtomically(Data("new".utf8), to: link)
        #expect(FileManager.default.contents(atPath: target.path) == Data("new".utf8), "the target has the new text")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == "hop", "the link is still a link")
        // A link to a file not made yet: the write makes it.
        let dangling = dir.appendingPathComponent("later.json")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "real/later.json")
        try SafeFile.writeAtomically(Data("made".utf8), to: dangling)
        #expect(FileManager.default.contents(atPath: dir.appendingPathComponent("real/later.json").path) == Data("made".utf8))
        // A loop: an error naming the file, nothing written, the link left alone.
        let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.json")
        try FileManager.default.createSymbolicLink(atPath: a.path, withDestinationPath: "b.json")
        try FileManager.default.createSymbolicLink(atPath: b.path, withDestinationPath: "a.json")
        do {
            try SafeFile.writeAtomically(Data("x".utf8), to: a)
            Issue.record("a loop must be refused")
        } catch {
            #expect(error.path == a.path && error.reason.contains("symbolic link loop"), "\(error)")
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: a.path)) == "b.json")
        #expect(SafeFile.entryExists(a) && !FileManager.default.fileExists(atPath: a.path), "lstat sees the loop that stat does not")
    }
}
