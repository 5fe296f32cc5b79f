import Foundation
import LiveCore
import Storage
import Testing

/// Session and MIDI bindings files that are symbolic links: a loop is
/// reported (it used to be taken for "no file", silently), a link to a file
/// not made yet is quietly "none yet", and saves write through the link.
@Suite struct LinkedStateFileTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linked-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func loop(_ dir: URL, _ name: String) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: name + ".other")
        try FileManager.default.createSymbolicLink(atPath: url.path + ".other", withDestinationPath: name)
        return url
    }

    @Test func aSessionLinkLoopIsReportedAndMovedAside() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.loop(dir, "session.json")
        let r = Session.load(from: url)
        #expect(r.session == nil)
        let notice = try #require(r.notice, "a notice, not silence")
        #expect(notice.contains(url.path) && notice.contains("symbolic links"), "\(notice)")
        #expect(!r.keepAutosaveOff && !SafeFile.entryExists(url), "the loop is moved aside, so autosave can write a fresh file")
    }

    @Test func aSymlinkedSessionIsWrittenThroughToItsTarget() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("synced/session.json")
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("session.json")
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target.path)
        #expect(Session.load(from: url).notice == nil, "a link to a file not made yet is no session yet")
        var s = Session()
        s.presetID = "neon-veins"
        let saver = SessionAutosaver(url: url)
        saver.saveNow(s)
        #expect(saver.takeError() == nil)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) == target.path, "still a link")
        #expect(Session.load(from: target).session?.presetID == "neon-veins", "the target holds the session")
        s.presetID = "ember"
        saver.saveNow(s)
        #expect(Session.load(from: url).session?.presetID == "ember", "read back through the link: not stale")
    }

    @Test func aBindingsLinkLoopIsReported() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.loop(dir, "midi-bindings.json")
        let r = MidiBindingsFile.load(from: url)
        #expect(r.bindings.isEmpty)
        #expect(r.problem?.contains(url.path) == true && r.problem?.contains("symbolic links") == true, "\(r.problem ?? "none")")
        #expect(throws: (any Error).self) { try MidiBindingsFile.save([], to: url) }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) == "midi-bindings.json.other", "left as it was")
    }
}
