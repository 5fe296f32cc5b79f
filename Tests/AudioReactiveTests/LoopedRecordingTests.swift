import Foundation
import Testing
import AudioReactive

/// `--play`'s recording: the file's samples, over and over, at its rate; a
/// file too long to hold is refused with its name and length.
@Suite struct LoopedRecordingTests {
    @Test func aRecordingPlaysItsSamplesOverAndOver() throws {
        var g = Groove(seed: 4)
        let x = g.render(count: 4_410)
        let path = FileSourceTests.tempPath("loop-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try AudioFileWriter.write(x, sampleRate: 44_100, to: path, format: .wavFloat)
        var r = try LoopedRecording(path: path)
        #expect(r.sampleRate == 44_100)
        let n = x.count
        let played: [Float] = r.render(count: 3 * n + 7)
        let first: [Float] = Array(played[0..<n]), second: [Float] = Array(played[n..<(2 * n)])
        let tail: [Float] = Array(played[(3 * n)...]), head: [Float] = Array(x[0..<7])
        #expect(first == x, "the first pass is the file")
        #expect(second == x, "then it starts again")
        #expect(tail == head)
    }

    @Test func aFileLongerThanTheLimitIsRefusedByName() throws {
        let path = FileSourceTests.tempPath("long-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try AudioFileWriter.write([Float](repeating: 0.1, count: 96_000), to: path, format: .wav16)
        #expect {
            _ = try LoopedRecording(path: path, maxSeconds: 1)
        } throws: { error in
            "\(error)".contains(path) && "\(error)".contains("2 s long")
        }
    }
}
