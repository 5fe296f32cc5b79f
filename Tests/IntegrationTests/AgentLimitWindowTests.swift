import Foundation
import Testing
import TestSupport

/// A preset file asking for 128 000 000 agents: the real window runs the
/// CPU engine's limit (or what the free memory holds), says so, and takes no
/// more memory than a preset asking for the limit itself — the count is held
/// before anything is allocated (it used to reach a 4.6 GB peak and run
/// 15 M agents). `render --agents 128000000` is refused before allocating.
@Suite(.serialized) struct AgentLimitWindowTests {
    /// Peak and current resident memory of a process in KiB (/proc/PID/status).
    static func memory(_ pid: Int32) -> (peak: Int, now: Int)? {
        guard let s = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            s.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
        }
        guard let peak = field("VmHWM"), let now = field("VmRSS") else { return nil }
        return (peak, now)
    }

    struct Run {
        var peakKiB: Int
        var agents: Int
        var limit: Int
        var stderr: String
    }

    static func run(_ home: WindowTestHome, preset: URL) throws -> Run {
        let stats = home.file("stats-\(preset.lastPathComponent).jsonl")
        let app = try AppProcess(["--no-session", "--no-audio", "--no-midi", "--no-governor", "--backend", "cpu", "--size", "320x200",
                                  "--field", "320x200", "--preset", preset.path, "--stats", stats.path], environment: home.environment())
        defer { app.stop() }
        var line: [String: Any] = [:]
        let up = poll(seconds: 180) {
            line = AudioSourceSwitchTests.statsLines(stats).last ?? [:]
            return (line["frames"] as? Int ?? 0) >= 3
        }
        try #require(up, "the window runs: \(app.stderr)")
        let mem = try #require(Self.memory(app.pid))
        let limit = ((line["engine"] as? [String: Any])?["agentLimit"] as? Int) ?? -1
        return Run(peakKiB: mem.peak, agents: line["agents"] as? Int ?? -1, limit: limit, stderr: app.stderr)
    }

    @Test func aPresetAskingForGigabytesRunsAtTheLimitWithoutTheMemory() throws {
        let home = try WindowTestHome("agent-limit")
        func preset(_ name: String, _ agents: Int) throws -> URL {
            let url = home.file("\(name).json")
            try #"{"format":1,"name":"\#(name)","tags":[],"params":{"global.agents":\#(agents)}}"#.write(to: url, atomically: true, encoding: .utf8)
            return url
        }
        let huge = try Self.run(home, preset: try preset("huge", 128_000_000))
        #expect(huge.limit > 0 && huge.agents == huge.limit, "runs at the limit: \(huge.agents) agents, limit \(huge.limit)")
        #expect(huge.stderr.contains("128 000 000 agents asked for; running "), "a notice names the limit: \(huge.stderr)")
        let atLimit = try Self.run(home, preset: try preset("at-limit", huge.limit))
        #expect(atLimit.agents == huge.limit)
        #expect(!atLimit.stderr.contains("agents asked for"))
        let growthMB = Double(huge.peakKiB - atLimit.peakKiB) / 1024
        print("agent limit: 128 M preset peak \(huge.peakKiB / 1024) MB, preset at the limit (\(huge.limit)) \(atLimit.peakKiB / 1024) MB, "
              + "growth \(String(format: "%.1f", growthMB)) MB")
        #expect(growthMB < 50, "held before allocation: peak \(huge.peakKiB / 1024) MB vs \(atLimit.peakKiB / 1024) MB")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs /usr/bin/time (Debian: time)"))
    func renderRefusesAnAgentCountOverTheLimitBeforeAllocating() throws {
        let dir = makeTempDir("agent-limit-render")
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = try AppProcess(["-f", "maxrss %M", AppProcess.binary, "render", "--preset", "aurora", "--agents", "128000000",
                                "--size", "64x64", "--out", dir.appendingPathComponent("x.png").path], binary: "/usr/bin/time")
        let status = p.wait(seconds: 60)
        if status == nil { p.stop() }
        let lines = p.stderr.split(separator: "\n")
        #expect(status == 2, "a usage error: \(p.stderr)")
        #expect(p.stderr.contains("--agents 128000000: over the most this machine runs, "), "\(p.stderr)")
        let kb = lines.first { $0.hasPrefix("maxrss ") }.flatMap { Int($0.dropFirst(7)) } ?? Int.max
        #expect(kb < 100 * 1024, "refused before allocating: peak \(kb / 1024) MB")
    }
}
