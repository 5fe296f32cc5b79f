import Foundation
import Testing
import TestSupport

/// `physarum analyze --osc`: the feature stream received by liblo's real
/// `oscdump`, frame by frame, against `analyze --json` on the same audio.
@Suite(.serialized) struct AnalyzeOSCTests {
    /// One received frame: index, time, onset flag.
    struct Frame { var index: Int; var time: Double; var onset: Bool? }

    /// Parses oscdump lines ("TIMETAG /address types values…") into frames.
    static func frames(_ text: String) -> [Frame] {
        var out: [Frame] = []
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ")
            guard f.count >= 3 else { continue }
            if f[1] == "/physarum/frame", f.count >= 5, let i = Int(f[3]), let t = Double(f[4]) {
                out.append(Frame(index: i, time: t, onset: nil))
            } else if f[1] == "/physarum/onset", f.count >= 4, !out.isEmpty {
                out[out.count - 1].onset = f[3] == "1"
            }
        }
        return out
    }

    @Test func theStreamHasEveryFrameAtTheRateAndTheOnsetsOfAnalyze() throws {
        try #require(OSCTools.available, "oscdump is needed (liblo-tools; scripts/test installs it)")
        let dir = makeTempDir("analyze-osc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let signal = ["--synth", "drums:120", "--duration", "3"]
        // The reference: analyze's own onsets, hop by hop.
        let ref = try PhysarumProcess.run(["analyze"] + signal + ["--json"])
        try #require(ref.status == 0, "\(ref.stderr)")
        let onsetTimes: [Double] = ref.stdout.split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], o["onset"] as? Bool == true else { return nil }
            return (o["t"] as? NSNumber)?.doubleValue
        }
        try #require(onsetTimes.count >= 4, "the drum pattern has hits")
        // The receiver: oscdump on a free port.
        let dump = try OSCTools.Dump(in: dir)
        let run = try PhysarumProcess.run(["analyze"] + signal + ["--osc", "127.0.0.1:\(dump.port)", "--osc-rate", "60"])
        try #require(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty, "--osc alone prints no lines")
        var got: [Frame] = []
        #expect(poll(seconds: 30) {
            got = Self.frames(dump.text)
            return got.count >= 181
        }, "every frame arrives: \(got.count)")
        // The expected rate: frames 0…180 of 3 s at 60 a second, each at N ÷ 60 on the sample clock.
        #expect(got.map(\.index) == Array(0...180))
        #expect(got.allSatisfy { abs($0.time - Double($0.index) / 60) < 1e-5 })
        #expect(got.allSatisfy { $0.onset != nil }, "every frame carries its onset flag")
        // Its onsets are analyze's: frame N holds the hops in ((N−1)/60, N/60].
        let expected = Set(onsetTimes.map { Int(($0 * 60 - 1e-9).rounded(.up)) })
        let sent = Set(got.filter { $0.onset == true }.map(\.index))
        #expect(sent == expected, "OSC onset frames \(sent.sorted()) vs analyze \(expected.sorted())")
    }
}
