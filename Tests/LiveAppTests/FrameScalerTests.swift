import Testing
@testable import LiveApp

/// `FrameScaler`: frames the governor rendered smaller are scaled to cover
/// the recording's frame (the recording itself is tested with ffmpeg in
/// IntegrationTests' RecordingCutTests).
@Suite struct FrameScalerTests {
    @Test func theScalerCoversTheFrameAndKeepsColours() {
        var s = FrameScaler(width: 8, height: 4)
        // A 4x2 source: left half red, right half blue; scaled ×2 the halves stay halves.
        var src = [UInt8](repeating: 0, count: 4 * 2 * 4)
        for y in 0..<2 { for x in 0..<4 { src[(y * 4 + x) * 4 + (x < 2 ? 0 : 2)] = 255; src[(y * 4 + x) * 4 + 3] = 255 } }
        var dst = [UInt8](repeating: 7, count: 8 * 4 * 4)
        src.withUnsafeBytes { sp in dst.withUnsafeMutableBytes { s.scale(sp, width: 4, height: 2, into: $0) } }
        #expect(dst[0] == 255 && dst[2] == 0 && dst[3] == 255, "the left edge is red")
        #expect(dst[7 * 4 + 2] == 255 && dst[7 * 4] == 0, "the right edge is blue")
        #expect(!dst.contains(7), "every pixel written")
    }
}
