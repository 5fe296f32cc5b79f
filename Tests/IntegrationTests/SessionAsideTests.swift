import Foundation
import LiveCore
import Storage
import Testing
import TestSupport

/// A session file that fails to load is never overwritten: it is moved to a
/// name no other file has, and when that cannot be done autosave stays off
/// and the user is told, as an error.
@Suite(.serialized) struct SessionAsideTests {
    static func files(_ dir: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] {
            out[name] = FileManager.default.contents(atPath: dir.appendingPathComponent(name).path)
        }
        return out
    }

    /// The reproduction: every `session.broken-<now…now+60>.json` name is
    /// taken, the session is truncated JSON. The app starts, keeps every file
    /// byte for byte, and puts the broken session under a fresh name.
    @Test func takenAsideNamesAreNeverReplaced() throws {
        let home = try WindowTestHome("session-aside")
        let state = home.file("physarum")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let now = Int(Date().timeIntervalSince1970)
        for t in now...(now + 60) {
            try Data("older broken session \(t)\n".utf8).write(to: state.appendingPathComponent("session.broken-\(t).json"))
        }
        let broken = Data(#"{"format":1,"#.utf8)
        try broken.write(to: state.appendingPathComponent("session.json"))
        let before = Self.files(state)
        let app = try AppProcess(["--no-audio", "--agents", "2000", "--size", "320x200", "--field", "320x200", "--quit-after", "3"],
                                 environment: home.environment())
        defer { app.stop() }
        #expect(app.wait(seconds: 90) == 0, "\(app.stderr)")
        let after = Self.files(state)
        for (name, bytes) in before where name != "session.json" {
            #expect(after[name] == bytes, "\(name) is untouched")
        }
        let asides = after.filter { before[$0.key] == nil && $0.key.hasPrefix("session.broken-") }
        #expect(asides.count == 1 && asides.first?.value == broken, "the broken session is kept under a new name: \(asides.keys)")
        if let name = asides.first?.key {
            #expect(app.stderr.contains("kept as \(name)"), "the notice names the file it really is in: \(app.stderr)")
        }
        #expect(after["session.json"] != broken, "a fresh session was saved")
    }

    /// When the broken file cannot be moved (here: it is a directory, which
    /// link(2) refuses), the app says so as an error and saves no session.
    @Test func aFailedMoveStopsAutosaveWithAnError() throws {
        let home = try WindowTestHome("session-stuck")
        let state = home.file("physarum")
        let session = state.appendingPathComponent("session.json")
        try FileManager.default.createDirectory(at: session, withIntermediateDirectories: true)
        try Data("inside\n".utf8).write(to: session.appendingPathComponent("keep.txt"))
        let app = try AppProcess(["--no-audio", "--agents", "2000", "--size", "320x200", "--field", "320x200", "--quit-after", "3"],
                                 environment: home.environment())
        defer { app.stop() }
        #expect(app.wait(seconds: 90) == 0, "\(app.stderr)")
        #expect(app.stderr.contains("could not be moved aside"), "\(app.stderr)")
        #expect(app.stderr.contains("autosave is off"), "\(app.stderr)")
        // Besides the state folder's lock (session.lock), nothing was written.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: state.path))?.filter { $0 != "session.lock" } == ["session.json"],
                "nothing else was written")
        #expect(FileManager.default.contents(atPath: session.appendingPathComponent("keep.txt").path) == Data("inside\n".utf8))
    }

    @Test func loadReportsAStuckFileSoAutosaveStaysOff() throws {
        let dir = makeTempDir("session-load")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("session.json")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let r = Session.load(from: url)
        #expect(r.session == nil && r.keepAutosaveOff)
        #expect(r.notice?.contains(url.path) == true, "\(r.notice ?? "")")
        try FileManager.default.removeItem(at: url)
        try Data("[]".utf8).write(to: url)
        let moved = Session.load(from: url)
        #expect(moved.session == nil && !moved.keepAutosaveOff)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
