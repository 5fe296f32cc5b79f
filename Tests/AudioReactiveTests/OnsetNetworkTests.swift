import Foundation
import Storage
import TestSupport
import Testing
@testable import AudioReactive

/// The onset network's weights file (read strictly: a damaged file is one
/// clear line and the DSP detector carries on) and the network's determinism.
@Suite(.serialized) struct OnsetNetworkTests {
    static var shippedPath: String? {
        ConfigDirectory.locate().path.map { ($0 as NSString).appendingPathComponent(OnsetNetworkWeights.shippedPath) }
    }

    static func shippedBytes() throws -> [UInt8] {
        let path = try #require(shippedPath)
        return [UInt8](try #require(FileManager.default.contents(atPath: path)))
    }

    /// Writes `bytes` to a temporary file and tries to load it; returns the one reported line (nil: loaded).
    static func report(_ bytes: [UInt8]) throws -> (OnsetNetworkWeights?, [String]) {
        let path = NSTemporaryDirectory() + "onset-network-\(UUID().uuidString).weights"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var lines: [String] = []
        let w = OnsetNetworkWeights.loadReporting(path: path) { lines.append($0) }
        return (w, lines)
    }

    static func headerEnd(_ b: [UInt8]) -> Int {
        let first = b.firstIndex(of: 10)!
        return b[(first + 1)...].firstIndex(of: 10)! + 1
    }

    @Test func theShippedWeightsLoad() throws {
        let w = try #require(OnsetNetworkWeights.shipped, "configs/\(OnsetNetworkWeights.shippedPath) should load")
        #expect(w.layers.first?.inputs == 2 * w.bands)
        let (again, lines) = try Self.report(Self.shippedBytes())
        #expect(again == w && lines.isEmpty)
    }

    @Test func aDamagedFileIsRefusedWithOneLineNamingItAndWhy() throws {
        let good = try Self.shippedBytes()
        let body = Self.headerEnd(good)
        var flipped = good
        flipped[body + 100] ^= 0x40
        var header = good
        let text = String(decoding: good[..<body], as: UTF8.self).replacingOccurrences(of: "\"in\":80", with: "\"in\":81")
        header = Array(text.utf8) + Array(good[body...])
        let cases: [(String, [UInt8], String)] = [
            ("one flipped bit", flipped, "checksum mismatch"),
            ("truncated", Array(good.dropLast(6)), "truncated"),
            ("not a weights file", Array("{\"hello\": 1}\n".utf8), "not an onset network file"),
            ("a header whose shapes do not chain", header, "layer 0 takes 81 inputs"),
            ("empty", [], "not an onset network file"),
        ]
        for (what, bytes, reason) in cases {
            let (w, lines) = try Self.report(bytes)
            #expect(w == nil, "\(what) was accepted")
            #expect(lines.count == 1, "\(what): \(lines)")
            let line = lines.first ?? ""
            #expect(line.contains(".weights: ") && line.contains(reason) && line.contains("DSP detector alone")
                    && !line.contains("\n"), "\(what): \(line)")
        }
    }

    /// The analysis with a refused file (no network) still hears a drum track.
    @Test func withoutTheNetworkTheDSPDetectorStillFindsTheOnsets() throws {
        let (w, _) = try Self.report(Array(try Self.shippedBytes().dropLast(1)))
        #expect(w == nil)
        let (dry, hits) = DrumPattern.house(bpm: 128).render(bars: 8, seed: 7)
        let a = Analysis(Signals.mastered(dry), network: w)
        let s = OnsetScoring.score(truth: OnsetScoring.onsetTimes(of: hits), detections: a.onsetTimes)
        #expect(s.fMeasure >= 0.95, "\(s)")
    }

    /// Same samples → the same onsets and transients, whatever the chunking
    /// (live capture delivers arbitrary fragments); and the network moves the
    /// result where the DSP alone misses (else it would be dead weight here).
    @Test func theNetworkIsDeterministicAndIndependentOfChunking() throws {
        let w = try #require(OnsetNetworkWeights.shipped)
        let (dry, _) = DrumPattern.drumAndBass(bpm: 174).render(bars: 6, seed: 11)
        let x = Signals.withNoise(Signals.bandLimited(Signals.mastered(dry), highPass: 150, lowPass: 7000), .pink, rmsDBFS: -35)
        func run(chunks: [Int]) -> [AudioFeatures] {
            let analyzer = Analyzer(layout: .standard(sampleRate: Signals.rate), network: w)
            var out: [AudioFeatures] = []
            var i = 0, c = 0
            while i < x.count {
                let n = min(chunks[c % chunks.count], x.count - i)
                analyzer.process(Array(x[i..<(i + n)])) { out.append($0) }
                i += n
                c += 1
            }
            return out
        }
        let a = run(chunks: [4096])
        let b = run(chunks: [1, 127, 480, 7, 2000])
        #expect(a.count == b.count)
        #expect(zip(a, b).allSatisfy { $0.onset == $1.onset && $0.time == $1.time
            && $0[.full].transient == $1[.full].transient && $0[.full].level == $1[.full].level })
        let withNet = a.filter(\.onset).count
        let dspOnly = Analysis(x, network: nil).onsetTimes.count
        #expect(withNet != dspOnly, "the network changed nothing on a drum track in room noise")
    }
}
