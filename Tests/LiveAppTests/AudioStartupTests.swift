import AudioReactive
import Foundation
import Testing
@testable import LiveCore
@testable import LiveApp
import TestSupport

/// Which audio config the live window starts with (`--config`, session, default).
@Suite struct AudioStartupTests {
    func store(_ dir: URL) -> AudioConfigStore {
        AudioConfigStore(userDirectory: dir.appendingPathComponent("user"), shippedDirectory: dir.appendingPathComponent("shipped"))
    }

    @Test func configFileShippedNameSessionAndDefault() throws {
        let dir = makeTempDir("audio-start")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("shipped"), withIntermediateDirectories: true)
        var club = AudioConfig(name: "Club")
        club.routes = [Route(source: .bass, target: .parameter(.bloom), depth: 0.7)]
        let clubURL = dir.appendingPathComponent("shipped/club.json")
        try Data(club.jsonText.utf8).write(to: clubURL)
        var session = Session()
        var edited = AudioConfig(name: "Edited")
        edited.reactivity = 2
        session.audio = edited
        session.audioConfigPath = "/somewhere/edited.json"

        var o = LiveOptions()
        var r = LiveStartup.startingAudioConfig(options: o, session: nil, store: store(dir))
        #expect(r.config == .builtInDefault && r.file == nil && r.notice == nil)
        r = LiveStartup.startingAudioConfig(options: o, session: session, store: store(dir))
        #expect(r.config == edited && r.file?.path == "/somewhere/edited.json")
        o.config = clubURL.path
        r = LiveStartup.startingAudioConfig(options: o, session: session, store: store(dir))
        #expect(r.config == club && r.file == clubURL)
        o.config = "club"
        r = LiveStartup.startingAudioConfig(options: o, session: nil, store: store(dir))
        #expect(r.config == club && r.file?.lastPathComponent == "club.json")
        // A bad file: the session's config stays, the notice names the file, line and path.
        let bad = dir.appendingPathComponent("bad.json")
        try Data("{\"format\": 1, \"name\": \"B\", \"gain\": 99}".utf8).write(to: bad)
        o.config = bad.path
        r = LiveStartup.startingAudioConfig(options: o, session: session, store: store(dir))
        #expect(r.config == edited)
        #expect(r.notice?.contains(bad.path + ":1:") == true && r.notice?.contains("gain") == true, "\(r.notice ?? "")")
    }

    @Test func savingOverAShippedConfigIsRefused() throws {
        let dir = makeTempDir("audio-start")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("shipped"), withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("shipped/club.json")
        let text = AudioConfig(name: "Club").jsonText
        try Data(text.utf8).write(to: url)
        let worker = FileWorker<AppAction>(name: "test.audio")
        defer { worker.shutdown(timeout: 5) }
        let io = AudioIO(store: store(dir), files: worker, listSources: { [] })
        defer { io.shutdown() }
        #expect(io.perform(.overwrite(.builtInDefault, url)).isEmpty)
        #expect(poll(seconds: 10) { worker.isIdle })
        let replies = worker.drainReplies()
        guard case .notice(let n, _)? = replies.first else { Issue.record("expected a notice: \(replies)"); return }
        #expect(n.contains("shipped config") && n.contains(url.path))
        #expect(try String(contentsOf: url, encoding: .utf8) == text)
    }
}
