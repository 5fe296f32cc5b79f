import AudioReactive
import Foundation
import Testing

/// Runs the real `physarum` binary ($PHYSARUM_BIN, or the one built next to the tests).
enum Physarum {
    static var binary: String {
        if let b = ProcessInfo.processInfo.environment["PHYSARUM_BIN"] { return b }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("physarum").path
    }

    struct Result { var status: Int32; var out: String; var err: String }

    static func run(_ args: [String], env extra: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in extra { env[k] = v }
        p.environment = env
        let out = Pipe()
        let errPath = tempPath("stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: errPath, contents: nil)
        let errFile = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        p.standardOutput = out
        p.standardError = errFile
        try p.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile() // to the end before waiting
        p.waitUntilExit()
        try errFile.close()
        let errData = FileManager.default.contents(atPath: errPath) ?? Data()
        try? FileManager.default.removeItem(atPath: errPath)
        return Result(status: p.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                      err: String(decoding: errData, as: UTF8.self))
    }

    static func tempPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("physarum-cli-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }
}

@Suite(.serialized) struct AnalyzeCommandTests {
    static let clickTimes = [0.25, 0.75, 1.25, 1.75]

    /// A click file: 4 clicks 0.5 s apart from 0.25 s, 2 s long.
    static func clickFile() throws -> String {
        let path = Physarum.tempPath("clicks.wav")
        var c = Clicks(interval: 0.5, start: 0.25, dBFS: -6)
        try AudioFileWriter.write(c.render(count: 96000), to: path)
        return path
    }

    @Test func helpDescribesTheOptions() throws {
        let r = try Physarum.run(["analyze", "--help"])
        #expect(r.status == 0)
        for word in ["--file", "--source", "--default", "--json", "last sample", "--gate-high", "--sensitivity"] {
            #expect(r.out.contains(word), "help mentions \(word)")
        }
    }

    /// `--json` lines: `t` at the hop's last sample, every source with
    /// level/transient/gate, and one `onset` per click, decided after the
    /// click starts (never back-dated) and within 10 ms.
    @Test func jsonLinesFromAFile() throws {
        let r = try Physarum.run(["analyze", "--file", try Self.clickFile(), "--json"])
        #expect(r.status == 0)
        #expect(r.err.isEmpty)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 96000 / 128)
        var onsets: [Double] = []
        for (k, line) in lines.enumerated() {
            let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let t = try #require(obj["t"] as? Double)
            #expect(abs(t - Double((k + 1) * 128 - 1) / 48000) < 1e-6)
            let sources = try #require(obj["sources"] as? [String: Any])
            #expect(Set(sources.keys) == Set(AudioSourceID.allCases.map(\.rawValue)))
            for case let s as [String: Any] in sources.values {
                for field in ["level", "transient", "gate"] {
                    let v = try #require(s[field] as? Double)
                    #expect(v >= 0 && v <= 1)
                }
            }
            if try #require(obj["onset"] as? Bool) { onsets.append(t) }
        }
        #expect(onsets.count == Self.clickTimes.count)
        for (o, c) in zip(onsets, Self.clickTimes) {
            #expect(o >= c && o - c <= 0.010, "click at \(c) s decided at \(o) s")
        }
    }

    @Test func sameFileSameOutputByteForByte() throws {
        let f = try Self.clickFile()
        let a = try Physarum.run(["analyze", "--file", f, "--json", "--attack", "20"])
        let b = try Physarum.run(["analyze", "--file", f, "--json", "--attack", "20"])
        #expect(a.status == 0 && a.out == b.out && !a.out.isEmpty)
        let text = try Physarum.run(["analyze", "--file", f])
        #expect(text.out.split(separator: "\n").count == 750)
        #expect(text.out.contains("ONSET"))
    }

    @Test func badInputIsOneLineWithTheRightExitCode() throws {
        let missing = Physarum.tempPath("missing.flac")
        let r = try Physarum.run(["analyze", "--file", missing])
        #expect(r.status == 1)
        #expect(r.err.contains(missing) && r.err.split(separator: "\n").count == 1)
        for args in [["analyze"], ["analyze", "--file", "a", "--default"], ["analyze", "--default", "--attack", "x"],
                     ["analyze", "--default", "--bands", "20,60"], ["analyze", "--synth", "tone:440"],
                     ["analyze", "--default", "--gate-low", "20", "--gate-high", "10"], ["sources", "--bogus"]] {
            let u = try Physarum.run(args)
            #expect(u.status == 2, "\(args)")
            #expect(u.err.split(separator: "\n").count == 1, "\(args): \(u.err)")
        }
    }

    /// With no server: one clear line and exit 1, for `sources` and `analyze --default`.
    @Test func noServerIsOneLineAndExit1() throws {
        let env = ["PULSE_SERVER": "unix:/nonexistent/physarum/native"]
        for args in [["sources"], ["analyze", "--default"], ["analyze", "--source", "x.monitor", "--json"]] {
            let r = try Physarum.run(args, env: env)
            #expect(r.status == 1, "\(args)")
            #expect(r.out.isEmpty)
            let lines = r.err.split(separator: "\n")
            #expect(lines.count == 1, "\(args): \(r.err)")
            #expect(r.err.contains("/nonexistent/physarum/native"))
        }
    }

    @Test func synthSourceNeedsNoServer() throws {
        let r = try Physarum.run(["analyze", "--synth", "dnb:174", "--duration", "1", "--json"])
        #expect(r.status == 0)
        #expect(r.out.split(separator: "\n").count == 375)
        #expect(r.out.contains("\"onset\":true"))
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PHYSARUM_TEST_SINK"] != nil, "needs the daemon scripts/test starts"))
    func liveSourcesAndAnalysis() throws {
        let sink = ProcessInfo.processInfo.environment["PHYSARUM_TEST_SINK"]!
        let s = try Physarum.run(["sources"])
        #expect(s.status == 0 && s.out.contains("\(sink).monitor") && s.out.contains("[monitor]"))
        let a = try Physarum.run(["analyze", "--source", "\(sink).monitor", "--duration", "0.5", "--json"])
        #expect(a.status == 0, "\(a.err)")
        #expect(a.out.split(separator: "\n").count >= 187)
        let d = try Physarum.run(["analyze", "--default", "--duration", "0.2"])
        #expect(d.status == 0)
        let n = try Physarum.run(["analyze", "--source", "no_such_source", "--duration", "0.2"])
        #expect(n.status == 1 && n.err.contains("no PulseAudio source named 'no_such_source'"))
        #expect(n.err.split(separator: "\n").count == 1)
    }

    @Test func benchAnalysisScenarioReportsUsPerHop() throws {
        let r = try Physarum.run(["bench", "--scenario", "analysis", "--repeats", "1", "--json"])
        #expect(r.status == 0)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(obj["scenario"] as? String == "analysis")
        #expect((obj["usPerHop"] as? Double ?? 0) > 0)
        #expect((obj["percentOfCore"] as? Double ?? 0) > 0)
        #expect((obj["cpuUsPerHop"] as? Double ?? 0) > 0)
        #expect(obj["hop"] as? Int == 128)
    }
}
