import Foundation
import Testing

/// `physarum config …` through the real executable.
@Suite struct ConfigCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `physarum` (PHYSARUM_BIN, else the newer release or debug build in the checkout).
    static var binary: String? {
        if let b = ProcessInfo.processInfo.environment["PHYSARUM_BIN"], FileManager.default.isExecutableFile(atPath: b) { return b }
        // The newer of the two builds (the one just made by `swift build`).
        let builds = ["release", "debug"].map { root.appendingPathComponent(".build/\($0)/physarum").path }
            .filter { FileManager.default.isExecutableFile(atPath: $0) }
        func modified(_ p: String) -> Date {
            ((try? FileManager.default.attributesOfItem(atPath: p))?[.modificationDate] as? Date) ?? .distantPast
        }
        return builds.max { modified($0) < modified($1) }
    }

    /// Runs physarum with `args`; returns exit code, stdout, stderr.
    func run(_ args: [String], env: [String: String] = [:]) throws -> (Int32, String, String) {
        let bin = try #require(Self.binary, "build physarum first")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bin)
        p.arguments = args
        p.currentDirectoryURL = Self.root
        p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test func validateAcceptsTheShippedConfigs() throws {
        let files = ["default", "microphone", "ambient", "club"].map { "configs/audio/\($0).json" }
        let (code, out, err) = try run(["config", "validate"] + files)
        #expect(code == 0, "\(err)")
        #expect(out.split(separator: "\n").count == 4 && out.contains("configs/audio/club.json: valid"))
    }

    @Test func validateListsEveryErrorAndExitsOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("physarum-validate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.json")
        try Data("""
        {"format": 1, "name": "Bad",
         "routes": [{"source": "bas", "target": "global.agents", "depth": 1},
                    {"source": "bass", "target": "foo.bar", "depth": 9}]}
        """.utf8).write(to: bad)
        let (code, out, err) = try run(["config", "validate", "configs/audio/default.json", bad.path])
        #expect(code == 1)
        #expect(out.contains("default.json: valid"))
        let lines = err.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(bad.path):2:24: routes[0].source: unknown source 'bas' (expected one of: sub, bass, lowMid, mid, highMid, presence, brilliance, full, beat, bar, phase)",
            "\(bad.path):2:41: routes[0].target: 'global.agents' cannot be a route target: changing it respawns agents",
            "\(bad.path):3:42: routes[1].target: unknown parameter id 'foo.bar'",
            "\(bad.path):3:62: routes[1].depth: must be within -2…2, got 9",
        ])
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try run(["config", "validate"]).0 == 2)
        #expect(try run(["config", "bogus"]).0 == 2)
        let (code, out, _) = try run(["config", "--help"])
        #expect(code == 0 && out.contains("physarum config validate FILE"))
    }

    @Test func listShowsShippedAndUserConfigs() throws {
        let xdg = FileManager.default.temporaryDirectory.appendingPathComponent("physarum-xdg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: xdg) }
        let user = xdg.appendingPathComponent("physarum/audio")
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        try Data(#"{"format": 1, "name": "Mine", "routes": []}"#.utf8).write(to: user.appendingPathComponent("mine.json"))
        try Data("{".utf8).write(to: user.appendingPathComponent("broken.json"))
        let (code, out, _) = try run(["config", "list", "--json"], env: ["XDG_CONFIG_HOME": xdg.path])
        #expect(code == 0)
        let lines = out.split(separator: "\n")
        #expect(lines.filter { $0.contains(#""origin":"shipped""#) }.count >= 4)
        #expect(lines.contains { $0.contains(#""name":"Mine""#) && $0.contains(#""valid":true"#) })
        #expect(lines.contains { $0.contains(#""name":"broken""#) && $0.contains(#""valid":false"#) })
    }

    @Test func schemaCommandPrintsThePublishedSchema() throws {
        let (code, out, _) = try run(["config", "schema"])
        #expect(code == 0)
        #expect(out == (try String(contentsOf: Self.root.appendingPathComponent("docs/audio-config.schema.json"), encoding: .utf8)))
    }
}
