import AudioReactive
import Engine
import Foundation
import LiveCore
import Storage
import Testing
import TestSupport
@testable import LiveApp

/// Files a clumsy or hostile user may hand the app: a sparse 5 GB file and a
/// FIFO under every name a loader reads (preset, presets folder, audio config,
/// session, library, audio file). Each is refused with one line naming the
/// file, before a byte is read (a FIFO would block the read or the open
/// forever; the 5 GB file would be read whole into memory).
@Suite(.serialized) struct HostileFileTests {
    /// A folder holding `big.*` (5 GB, sparse: no disk used) and `pipe.*` (FIFOs).
    final class Files {
        let dir = makeTempDir("hostile-files")
        func big(_ name: String) throws -> String {
            let path = dir.appendingPathComponent(name).path
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            try #require(fd >= 0)
            defer { close(fd) }
            try #require(ftruncate(fd, 5 << 30) == 0, "a sparse 5 GB file")
            return path
        }
        func fifo(_ name: String) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try #require(mkfifo(path, 0o644) == 0)
            return path
        }
        deinit { try? FileManager.default.removeItem(at: dir) }
    }

    @Test func presetFolderSkipsHugeFilesAndFIFOs() throws {
        let f = Files()
        _ = try f.big("big.json")
        _ = try f.fifo("pipe.json")
        let catalog = PresetCatalog.load(directory: f.dir.path)
        #expect(catalog.presets.isEmpty)
        let lines = catalog.problems.map(\.description).sorted()
        #expect(lines == ["big.json: file is 5368709120 bytes, over the limit of 262144 bytes",
                          "pipe.json: not a regular file"])
    }

    @Test func presetFileLoaderRefusesBoth() throws {
        let f = Files()
        for path in [try f.big("big.json"), try f.fifo("pipe.json")] {
            #expect(throws: PresetLoadError.self) { try Preset.load(path: path) }
        }
    }

    @Test func audioConfigSessionAndAudioFileRefuseBoth() throws {
        let f = Files()
        for path in [try f.big("big.json"), try f.fifo("pipe.json")] {
            let url = URL(fileURLWithPath: path)
            do {
                _ = try AudioConfig.load(contentsOf: url)
                Issue.record("\(path) must be refused")
            } catch {
                #expect(error.description.hasPrefix(path + ": "), "FILE: reason — got \(error)")
                #expect(!error.description.contains("\n"))
            }
            #expect(throws: AudioSourceError.self) { try FileSource(path: path) }
        }
        let big = try f.big("session-big.json"), pipe = try f.fifo("session-pipe.json")
        for path in [big, pipe] {
            let r = Session.load(from: URL(fileURLWithPath: path))
            #expect(r.session == nil)
            #expect(r.notice?.contains(path) == true, "the notice names the file: \(r.notice ?? "none")")
        }
    }

    /// The command-line loaders, through the real binary: each exits 1 (or 2)
    /// with one line naming the file, within a deadline (a FIFO used to block forever).
    @Test func commandsRefuseBothWithOneLine() throws {
        let f = Files()
        let bigJSON = try f.big("big.json"), pipeJSON = try f.fifo("pipe.json")
        let bigWAV = try f.big("big.wav"), pipeWAV = try f.fifo("pipe.wav")
        let out = f.dir.appendingPathComponent("out").path
        let runs: [([String], String)] = [
            (["render", "--preset", bigJSON, "--out", out, "--frames", "1"], "\(bigJSON): file is 5368709120 bytes, over the limit"),
            (["render", "--preset", pipeJSON, "--out", out, "--frames", "1"], "\(pipeJSON): not a regular file"),
            (["render", "--preset", "neon-veins", "--audio", pipeWAV, "--out", out, "--size", "64x36"], "\(pipeWAV)': not a regular file"),
            (["analyze", "--file", pipeWAV], "\(pipeWAV)': not a regular file"),
            (["config", "validate", bigJSON], "\(bigJSON): file is 5368709120 bytes, over the limit"),
            (["config", "validate", pipeJSON], "\(pipeJSON): not a regular file"),
            // A whole-file problem reads FILE: reason, like the size limit.
            (["config", "validate", f.dir.path], "\(f.dir.path): not a regular file"),
            // A remote script is read through the same reader (it used to be read whole into memory).
            (["remote", "127.0.0.1:9", "--headless", "--script", bigJSON], "\(bigJSON): file is 5368709120 bytes, over the limit"),
            (["remote", "127.0.0.1:9", "--headless", "--script", pipeJSON], "\(pipeJSON): not a regular file"),
        ]
        _ = bigWAV
        for (args, expected) in runs {
            let p = try AppProcess(args)
            let status = p.wait(seconds: 60)
            if status == nil { p.stop() }
            #expect(status == 1 || status == 2, "\(args): exit \(status.map(String.init) ?? "none (hung)")")
            let lines = p.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.contains(expected) == true, "\(args): \(p.stderr)")
        }
    }

    /// The live window with every file it reads at start replaced: it opens,
    /// says what it skipped, one line each, and quits by itself.
    @Test func liveWindowStartsPastEveryBadFile() throws {
        let display = try #require(TestDisplay.display, "Xvfb is needed (scripts/test installs it)")
        let f = Files()
        let home = f.dir.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("physarum"), withIntermediateDirectories: true)
        let session = home.appendingPathComponent("physarum/session.json").path
        try #require(mkfifo(session, 0o644) == 0)
        let library = home.appendingPathComponent("physarum/library.json").path
        let fd = open(library, O_WRONLY | O_CREAT, 0o644)
        try #require(fd >= 0 && ftruncate(fd, 5 << 30) == 0)
        close(fd)
        let bigJSON = try f.big("big.json"), pipeJSON = try f.fifo("pipe.json")
        let env: [String: String?] = ["DISPLAY": display, "XDG_STATE_HOME": home.path, "XDG_CONFIG_HOME": home.path,
                                      "XDG_DATA_HOME": home.path]
        let app = try AppProcess(["--no-audio", "--agents", "2000", "--size", "320x200", "--field", "320x200",
                                  "--preset", bigJSON, "--config", pipeJSON, "--quit-after", "2"], environment: env)
        defer { app.stop() }
        #expect(app.wait(seconds: 90) == 0, "it runs and quits by itself: \(app.stderr)")
        let err = app.stderr
        #expect(err.contains("\(bigJSON): file is 5368709120 bytes, over the limit"), "\(err)")
        #expect(err.contains("\(pipeJSON): not a regular file"), "\(err)")
        #expect(err.contains("\(session): not a regular file"), "\(err)")
        #expect(err.contains("library.json: file is 5368709120 bytes"), "\(err)")
        // The library file that failed to load is kept as it was.
        #expect((try? FileManager.default.attributesOfItem(atPath: library)[.size] as? Int) == 5 << 30)
    }
}
