import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The set list in the real window, driven from outside as a VJ's
/// controller or tablet would (OSC on loopback) and read from
/// `--state-file`: started, held, resumed, skipped, backed up and stopped,
/// a cue of one bar handing over by itself; and a broken `setlist.json`
/// reported with file, line and reason and left as it was.
@Suite(.serialized) struct SetListWindowTests {
    static func write(_ text: String, in fx: RemoteFixture) throws -> URL {
        let dir = fx.dir.appendingPathComponent("physarum")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("setlist.json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test(.enabled(if: OSCTools.available, "oscsend is needed (liblo-tools; scripts/test installs it)"))
    func goHoldSkipBackAndStopMoveTheListInTheWindow() throws {
        let fx = try RemoteFixture()
        _ = try Self.write("""
        {"format": 1, "name": "Booth", "cues": [
          {"preset": "alpha", "bars": 64, "transition": "cut"},
          {"preset": "beta", "bars": 64, "transition": "fade", "beats": 1},
          {"preset": "gamma", "bars": 1, "transition": "cut"},
          {"preset": "alpha", "bars": 64, "transition": "morph", "beats": 2}
        ]}
        """, in: fx)
        let w = try OSCControlTests.open(fx, extra: ["--demo", "--preset", "beta", "--state-interval", "0.1"])
        defer { w.app.stop() }
        var list: [String: Any]? { w.json?["setList"] as? [String: Any] }
        var transport: String? { list?["transport"] as? String }
        var current: Int? { (list?["current"] as? [String: Any])?["index"] as? Int }
        var next: Int? { (list?["next"] as? [String: Any])?["index"] as? Int }
        var preset: String? { w.json?["preset"] as? String }
        func expectSoon(_ what: String, _ cond: () -> Bool) {
            let ok = poll(seconds: 30, cond)
            #expect(ok, "\(what): \(String(describing: list)), preset \(String(describing: preset)); \(w.app.stderr.suffix(1500))")
        }
        expectSoon("the list is read at start") { list?["cues"] as? Int == 4 && transport == "stopped" && list?["name"] as? String == "Booth" }
        // A locked tempo: 240 BPM, one bar a second.
        try OSCTools.send(port: w.port, "/physarum/tempo", "f", "240")

        try OSCTools.send(port: w.port, "/physarum/setlist/go")
        expectSoon("go plays cue 1 now") { transport == "playing" && current == 1 && next == 2 && preset == "alpha" }
        #expect(poll(seconds: 30) { (list?["barsLeft"] as? NSNumber).map { $0.doubleValue > 50 } == true }, "bars left shown: \(String(describing: list))")

        try OSCTools.send(port: w.port, "/physarum/setlist/hold")
        expectSoon("hold") { transport == "held" && current == 1 }
        try OSCTools.send(port: w.port, "/physarum/setlist/go")
        expectSoon("go resumes a held list") { transport == "playing" && current == 1 }

        try OSCTools.send(port: w.port, "/physarum/setlist/skip")
        expectSoon("skip brings cue 2 on the next downbeat") { current == 2 && preset == "beta" }
        try OSCTools.send(port: w.port, "/physarum/setlist/skip")
        // Cue 3 is one bar long: cue 4 follows by itself a bar later.
        expectSoon("cue 3, then cue 4 after its one bar") { current == 4 && next == nil }
        try OSCTools.send(port: w.port, "/physarum/setlist/back")
        expectSoon("back") { current == 3 && preset == "gamma" }
        try OSCTools.send(port: w.port, "/physarum/setlist/stop")
        expectSoon("stop") { transport == "stopped" && current == nil }
        w.app.signal(SIGTERM)
        #expect(w.app.wait(seconds: 30) == 0)
    }

    @Test func aBrokenFileIsReportedWithLineAndReasonAndLeftAsItWas() throws {
        let fx = try RemoteFixture()
        let broken = """
        {"format": 1, "cues": [
          {"preset": "alpha", "bars": 4},
          {"preset": "beta", "bars": 2.5}
        ]}
        """
        let url = try Self.write(broken, in: fx)
        let before = try Data(contentsOf: url)
        let w = try OSCControlTests.open(fx, extra: ["--preset", "alpha", "--state-interval", "0.1"])
        defer { w.app.stop() }
        let line = "\(url.path):3:"
        #expect(poll(seconds: 30) { w.app.stderr.contains(line) && w.app.stderr.contains("cues[1].bars") },
                "stderr names the file, line and field: \(w.app.stderr.suffix(1500))")
        #expect(poll(seconds: 30) { ((w.json?["setList"] as? [String: Any])?["problem"] as? String)?.contains(line) == true },
                "the state file's setList.problem")
        try OSCTools.send(port: w.port, "/physarum/setlist/go")  // an empty list in memory: nothing to play, no write
        w.app.signal(SIGTERM)
        #expect(w.app.wait(seconds: 30) == 0)
        #expect(try Data(contentsOf: url) == before, "the broken file is left as it was")
    }
}
