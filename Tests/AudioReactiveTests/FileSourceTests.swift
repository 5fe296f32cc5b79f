import CSndfile
import Foundation
import Testing
@testable import AudioReactive

@Suite(.serialized) struct FileSourceTests {
    static func tempPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("physarum-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    func readAll(_ path: String) throws -> (FileSource, [Float]) {
        let f = try FileSource(path: path)
        var out: [Float] = []
        var buf = [Float](repeating: 0, count: 1000)
        while true {
            let r = try f.read(into: &buf)
            out += buf[0..<r.count]
            if r.isEnd { break }
        }
        return (f, out)
    }

    /// A float WAV file analysed through `FileSource` gives exactly the
    /// features of the same samples analysed directly.
    @Test func wavFileAnalysisEqualsSampleAnalysis() throws {
        var g = Groove(seed: 9)
        let x = g.render(count: 48000)
        let path = Self.tempPath("groove.wav")
        try AudioFileWriter.write(x, to: path, format: .wavFloat)
        let (file, back) = try readAll(path)
        #expect(back == x)
        #expect(file.sampleRate == 48000 && file.channels == 1 && file.frames == 48000)
        let direct = Analysis(x).features
        var viaFile: [AudioFeatures] = []
        try Analyzer().run(try FileSource(path: path)) { f, _ in viaFile.append(f) }
        #expect(viaFile.count == direct.count)
        #expect(zip(direct, viaFile).allSatisfy { a, b in a.time == b.time && a.onset == b.onset
            && AudioSourceID.allCases.allSatisfy { a[$0] == b[$0] } })
    }

    @Test(arguments: [AudioFileFormat.wav16, .flac, .ogg]) func otherFormatsDecode(format: AudioFileFormat) throws {
        let x = Signals.take(Tone(frequency: 1000, dBFS: -6), seconds: 0.5)
        let path = Self.tempPath("tone.\(format.rawValue)")
        try AudioFileWriter.write(x, to: path, format: format)
        let (_, back) = try readAll(path)
        #expect(abs(back.count - x.count) < 2048)
        #expect(abs(Signals.rms(back) - Signals.rms(x)) < 0.05 * Signals.rms(x))
        let a = Analysis(back, keepMeters: true)
        #expect(abs(a.meters[a.meters.count / 2][.mid].dbfs - -6) < 1)
    }

    @Test func stereoIsAveragedAndOtherRatesKeepTheirClock() throws {
        let path = Self.tempPath("stereo44.wav")
        var info = SF_INFO()
        info.samplerate = 44100
        info.channels = 2
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
        let h = try #require(sf_open(path, Int32(SFM_WRITE), &info))
        let frames = 44100
        var data = [Float](repeating: 0, count: 2 * frames)
        for i in 0..<frames { data[2 * i] = 0.5; data[2 * i + 1] = -0.1 }
        _ = data.withUnsafeBufferPointer { sf_writef_float(h, $0.baseAddress, Int64(frames)) }
        sf_close(h)
        let (file, back) = try readAll(path)
        #expect(file.channels == 2 && file.sampleRate == 44100)
        #expect(back.count == frames && back.allSatisfy { abs($0 - 0.2) < 1e-6 })
        let analyzer = Analyzer(layout: .standard(sampleRate: 44100))
        var last = 0.0
        try analyzer.run(try FileSource(path: path)) { f, _ in last = f.time }
        #expect(analyzer.layout.hop == 128)
        #expect(abs(last - Double(frames / 128 * 128 - 1) / 44100) < 1e-9)
    }

    @Test func unreadableFilesGiveOneLineNamingThePath() throws {
        let missing = Self.tempPath("nope.wav")
        #expect(throws: AudioSourceError.self) { try FileSource(path: missing) }
        do { _ = try FileSource(path: missing) } catch {
            #expect(error.description.contains(missing) && !error.description.contains("\n"))
        }
        let garbage = Self.tempPath("garbage.wav")
        try Data("this is not audio at all, just text pretending".utf8).write(to: URL(fileURLWithPath: garbage))
        do { _ = try FileSource(path: garbage); Issue.record("garbage opened") } catch {
            #expect(error.description.contains(garbage))
        }
        #expect(try String(contentsOfFile: garbage, encoding: .utf8).hasPrefix("this is not audio"), "the file is untouched")
    }
}
