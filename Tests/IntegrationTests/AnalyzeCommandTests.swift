import AudioReactive
import Foundation
import Testing
import TestSupport

/// `physarum analyze` and `physarum sources` run as the real binary.
@Suite(.serialized) struct AnalyzeCommandTests {
    static let clickTimes = [0.25, 0.75, 1.25, 1.75]

    /// A click file: 4 clicks 0.5 s apart from 0.25 s, 2 s long.
    static func clickFile() throws -> String {
        let path = makeTempDir("physarum-cli").appendingPathComponent("clicks.wav").path
        var c = Clicks(interval: 0.5, start: 0.25, dBFS: -6)
        try AudioFileWriter.write(c.render(count: 96000), to: path)
        return path
    }

    @Test func helpDescribesTheOptions() throws {
        let r = try PhysarumProcess.run(["analyze", "--help"])
        #expect(r.status == 0)
        for word in ["--file", "--source", "--default", "--json", "last sample", "--gate-high", "--sensitivity"] {
            #expect(r.stdout.contains(word), "help mentions \(word)")
        }
    }

    /// `--json` lines: `t` at the hop's last sample, every source with
    /// level/transient/gate, and one `onset` per click, decided after the
    /// click starts (never back-dated) and within 10 ms.
    @Test func jsonLinesFromAFile() throws {
        let r = try PhysarumProcess.run(["analyze", "--file", try Self.clickFile(), "--json"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let lines = r.stdout.split(separator: "\n")
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
        let a = try PhysarumProcess.run(["analyze", "--file", f, "--json", "--attack", "20"])
        let b = try PhysarumProcess.run(["analyze", "--file", f, "--json", "--attack", "20"])
        #expect(a.status == 0 && a.stdout == b.stdout && !a.stdout.isEmpty)
        let text = try PhysarumProcess.run(["analyze", "--file", f])
        #expect(text.stdout.split(separator: "\n").count == 750)
        #expect(text.stdout.contains("ONSET"))
    }

    @Test func badInputIsOneLineWithTheRightExitCode() throws {
        let missing = makeTempDir("physarum-cli").appendingPathComponent("missing.flac").path
        let r = try PhysarumProcess.run(["analyze", "--file", missing])
        #expect(r.status == 1)
        #expect(r.stderr.contains(missing) && r.stderr.split(separator: "\n").count == 1)
        for args in [["analyze"], ["analyze", "--file", "a", "--default"], ["analyze", "--default", "--attack", "x"],
                     ["analyze", "--default", "--bands", "20,60"], ["analyze", "--synth", "tone:440"],
                     ["analyze", "--default", "--gate-low", "20", "--gate-high", "10"], ["sources", "--bogus"],
                     ["analyze", "--default", "--onset-candidates", "0.9"],
                     ["analyze", "--synth", "silence", "--duration", "1", "--onset-candidates", "2"]] {
            let u = try PhysarumProcess.run(args)
            #expect(u.status == 2, "\(args)")
            #expect(u.stderr.split(separator: "\n").count == 1, "\(args): \(u.stderr)")
        }
    }

    /// With no server: one clear line and exit 1, for `sources` and `analyze --default`.
    @Test func noServerIsOneLineAndExit1() throws {
        let env = ["PULSE_SERVER": "unix:/nonexistent/physarum/native"]
        for args in [["sources"], ["analyze", "--default"], ["analyze", "--source", "x.monitor", "--json"]] {
            let r = try PhysarumProcess.run(args, environment: env)
            #expect(r.status == 1, "\(args)")
            #expect(r.stdout.isEmpty)
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("/nonexistent/physarum/native"))
        }
    }

    @Test func synthSourceNeedsNoServer() throws {
        let r = try PhysarumProcess.run(["analyze", "--synth", "dnb:174", "--duration", "1", "--json"])
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").count == 375)
        #expect(r.stdout.contains("\"onset\":true"))
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PHYSARUM_TEST_SINK"] != nil, "needs the daemon scripts/test starts"))
    func liveSourcesAndAnalysis() throws {
        let sink = ProcessInfo.processInfo.environment["PHYSARUM_TEST_SINK"]!
        let s = try PhysarumProcess.run(["sources"])
        #expect(s.status == 0 && s.stdout.contains("\(sink).monitor") && s.stdout.contains("[monitor]"))
        let a = try PhysarumProcess.run(["analyze", "--source", "\(sink).monitor", "--duration", "0.5", "--json"])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stdout.split(separator: "\n").count >= 187)
        let d = try PhysarumProcess.run(["analyze", "--default", "--duration", "0.2"])
        #expect(d.status == 0)
        let n = try PhysarumProcess.run(["analyze", "--source", "no_such_source", "--duration", "0.2"])
        #expect(n.status == 1 && n.stderr.contains("no PulseAudio source named 'no_such_source'"))
        #expect(n.stderr.split(separator: "\n").count == 1)
    }

    @Test func benchAnalysisScenarioReportsUsPerHop() throws {
        let r = try PhysarumProcess.run(["bench", "--scenario", "analysis", "--repeats", "1", "--json"])
        #expect(r.status == 0)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(obj["scenario"] as? String == "analysis")
        #expect((obj["usPerHop"] as? Double ?? 0) > 0)
        #expect((obj["percentOfCore"] as? Double ?? 0) > 0)
        #expect((obj["cpuUsPerHop"] as? Double ?? 0) > 0)
        #expect(obj["hop"] as? Int == 128)
    }
}
