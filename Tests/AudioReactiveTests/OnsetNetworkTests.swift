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
        #expect(w.layers.first?.inputs == OnsetNetworkInput.perBand * w.bands + OnsetNetworkInput.detectorCount)
        let (again, lines) = try Self.report(Self.shippedBytes())
        #expect(again == w && lines.isEmpty)
    }

    @Test func aDamagedFileIsRefusedWithOneLineNamingItAndWhy() throws {
        let good = try Self.shippedBytes()
        let body = Self.headerEnd(good)
        var flipped = good
        flipped[body + 100] ^= 0x40
        let head = String(decoding: good[..<body], as: UTF8.self)
        let inputs = OnsetNetworkInput.perBand * OnsetNetworkInput.defaultBands + OnsetNetworkInput.detectorCount
        let header = Array(head.replacingOccurrences(of: "\"in\":\(inputs),", with: "\"in\":\(inputs + 1),").utf8) + Array(good[body...])
        let otherInputs = Array(head.replacingOccurrences(of: "\"detector\":", with: "\"detector\":1").utf8) + Array(good[body...])
        let candidates = Array(head.replacingOccurrences(of: "\"threshold\":", with: "\"candidates\":1.5,\"threshold\":").utf8)
            + Array(good[body...])
        let firstFormat = Array(head.replacingOccurrences(of: "physarum-onset-network 2", with: "physarum-onset-network 1").utf8)
            + Array(good[body...])
        let cases: [(String, [UInt8], String)] = [
            ("one flipped bit", flipped, "checksum mismatch"),
            ("truncated", Array(good.dropLast(6)), "truncated"),
            ("not a weights file", Array("{\"hello\": 1}\n".utf8), "not an onset network file"),
            ("a header whose shapes do not chain", header, "layer 0 takes \(inputs + 1) inputs"),
            ("a file for other inputs", otherInputs, "made for other inputs"),
            ("a candidate sensitivity over 1", candidates, "out of range"),
            ("the first format (the spectrum alone)", firstFormat, "not an onset network file"),
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
    /// (live capture delivers arbitrary fragments).
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
    }

    /// The network only takes away: every onset with it is one the DSP detector (at the weights'
    /// candidate sensitivity) fired too.
    @Test func theNetworkOnlyVetoesTheDSPDetectorsOnsets() throws {
        let w = try #require(OnsetNetworkWeights.shipped)
        let (dry, _) = DrumPattern.house(bpm: 126).render(bars: 8, seed: 5)
        let x = Signals.withNoise(Signals.mastered(dry), .pink, rmsDBFS: -40)
        let dsp = Set(Analysis(x, network: nil, candidates: w.candidates).onsetTimes)
        let kept = Analysis(x, network: w).onsetTimes
        #expect(!kept.isEmpty && kept.allSatisfy { dsp.contains($0) }, "\(kept.filter { !dsp.contains($0) })")
        print("onset network on a house groove in quiet room noise: \(dsp.count) DSP onsets, \(kept.count) kept")
    }

    /// A weights file naming a candidate sensitivity makes the `full` detector
    /// that sensitive (more candidates for the network to judge); the band
    /// detectors, whose transients drive routes, keep the user's sensitivity.
    @Test func aCandidateSensitivityMovesOnlyTheFullDetector() throws {
        let good = try Self.shippedBytes()
        let body = Self.headerEnd(good)
        var head = String(decoding: good[..<body], as: UTF8.self)
        head = head.replacingOccurrences(of: "\"threshold\":", with: "\"candidates\":1,\"threshold\":")
        let (named, lines) = try Self.report(Array(head.utf8) + Array(good[body...]))
        let w = try #require(named, "\(lines)")
        #expect(w.candidates == 1)
        let (dry, _) = DrumPattern.drumAndBass(bpm: 174).render(bars: 4, seed: 9)
        let x = Signals.withNoise(Signals.bandLimited(Signals.mastered(dry), highPass: 150, lowPass: 7000), .pink, rmsDBFS: -24)
        let user = Analysis(x, network: nil)
        let eager = Analysis(x, network: nil, candidates: w.candidates)
        #expect(eager.onsetTimes.count > user.onsetTimes.count, "\(eager.onsetTimes.count) against \(user.onsetTimes.count)")
        for band in [AudioSourceID.bass, .mid, .presence] {
            #expect(eager.onsetTimes(band) == user.onsetTimes(band), "\(band)")
        }
    }

    /// What the network hears on a hop is what training saw: the input the
    /// analysis writes without weights (`physarum analyze --onset-input`, what
    /// scripts/onset-train learns from) equals the one it feeds the network
    /// (the DSP detector's state does not depend on the network's vetoes; the
    /// `full` detector runs at the weights' candidate sensitivity in both).
    @Test func theNetworkHearsWhatTrainingSaw() throws {
        let w = try #require(OnsetNetworkWeights.shipped)
        let (dry, _) = DrumPattern.drumAndBass(bpm: 174).render(bars: 4, seed: 3)
        let x = Signals.withNoise(Signals.mastered(dry), .pink, rmsDBFS: -45)
        func inputs(_ network: OnsetNetworkWeights?) -> ([Float], Int, Int) {
            let analyzer = Analyzer(layout: .standard(sampleRate: Signals.rate), network: network, candidates: w.candidates)
            var values: [Float] = [], rows = 0, hops = 0
            analyzer.onsetInputSink = { v in values.append(contentsOf: v); rows += 1 }
            analyzer.process(x) { _ in hops += 1 }
            return (values, rows, hops)
        }
        let (bare, rows, hops) = inputs(nil)
        let (fed, _, _) = inputs(w)
        #expect(rows == hops && bare.count == hops * (OnsetNetworkInput.perBand * w.bands + OnsetNetworkInput.detectorCount))
        let first = bare.indices.first { $0 < fed.count && bare[$0] != fed[$0] }
        let width = OnsetNetworkInput.perBand * w.bands + OnsetNetworkInput.detectorCount
        #expect(bare.count == fed.count && first == nil,
                "hop \((first ?? 0) / width), input \((first ?? 0) % width): \(first.map { bare[$0] } ?? 0) written, \(first.map { fed[$0] } ?? 0) fed")
    }
}
