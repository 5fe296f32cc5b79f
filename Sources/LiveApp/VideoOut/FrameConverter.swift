/// Pixel layouts a video output may hand on (what PipeWire and v4l2 consumers ask for).
enum VideoPixelFormat: String, Sendable, CaseIterable {
    /// 4 bytes a pixel, in memory order.
    case bgrx = "BGRx", rgbx = "RGBx", bgra = "BGRA", rgba = "RGBA"
    /// Packed 4:2:2 YUV (Y0 U Y1 V), BT.709 limited range.
    case yuy2 = "YUY2"

    /// Bytes of one row of `width` pixels (rows of YUY2 rounded up to 4 bytes, as GStreamer lays them out).
    func stride(width: Int) -> Int {
        self == .yuy2 ? (width * 2 + 3) / 4 * 4 : width * 4
    }
}

/// Turns the app's RGBA frames into an output's size and pixel format. A
/// frame of another size (the governor rendered smaller, the window was
/// resized) is scaled to cover the output (centred, the overflow cropped,
/// nearest pixel); a frame of the output's size is converted pixel for pixel.
/// Not thread-safe: one output's thread. The source-size maps are rebuilt
/// only when the source size changes.
struct FrameConverter {
    let width: Int
    let height: Int
    let format: VideoPixelFormat
    private var sourceSize = (width: 0, height: 0)
    /// For each output column / row, the source column / row.
    private var columns: [Int] = []
    private var rows: [Int] = []

    init(width: Int, height: Int, format: VideoPixelFormat) {
        precondition(width > 0 && height > 0)
        self.width = width
        self.height = height
        self.format = format
    }

    /// Bytes of one output frame.
    var frameBytes: Int { format.stride(width: width) * height }

    /// Writes `source` (RGBA, `sourceWidth × sourceHeight`, rows of
    /// `sourceWidth × 4`) into `dst` as one frame with rows of `stride` bytes.
    mutating func convert(_ source: UnsafeRawBufferPointer, sourceWidth: Int, sourceHeight: Int,
                          into dst: UnsafeMutableRawPointer, stride: Int) {
        precondition(source.count >= sourceWidth * sourceHeight * 4 && stride >= format.stride(width: width))
        if sourceSize != (sourceWidth, sourceHeight) { buildMaps(sourceWidth, sourceHeight) }
        let src = source.baseAddress!.assumingMemoryBound(to: UInt32.self)
        let same = sourceWidth == width && sourceHeight == height
        for y in 0..<height {
            let srow = src + rows[y] * sourceWidth
            let drow = dst + y * stride
            switch format {
            case .rgba, .rgbx:
                let d = drow.assumingMemoryBound(to: UInt32.self)
                if same {
                    d.update(from: srow, count: width)
                } else {
                    for x in 0..<width { d[x] = srow[columns[x]] }
                }
            case .bgra, .bgrx:
                let d = drow.assumingMemoryBound(to: UInt32.self)
                // RGBA in memory is 0xAABBGGRR little-endian; BGRA is 0xAARRGGBB: swap bytes 0 and 2.
                if same {
                    for x in 0..<width { d[x] = Self.swapRB(srow[x]) }
                } else {
                    for x in 0..<width { d[x] = Self.swapRB(srow[columns[x]]) }
                }
            case .yuy2:
                let d = drow.assumingMemoryBound(to: UInt8.self)
                var x = 0
                while x < width {
                    let p0 = srow[columns[x]]
                    let p1 = srow[columns[min(x + 1, width - 1)]]
                    let (y0, u0, v0) = Self.yuv(p0)
                    let (y1, u1, v1) = Self.yuv(p1)
                    d[x * 2] = y0
                    d[x * 2 + 1] = UInt8((Int(u0) + Int(u1) + 1) / 2)
                    if x + 1 < width { d[x * 2 + 2] = y1 }
                    d[x * 2 + 3] = UInt8((Int(v0) + Int(v1) + 1) / 2)
                    x += 2
                }
            }
        }
    }

    @inline(__always)
    static func swapRB(_ v: UInt32) -> UInt32 {
        (v & 0xFF00_FF00) | ((v & 0xFF) << 16) | ((v >> 16) & 0xFF)
    }

    /// BT.709, limited range (16–235 luma, 16–240 chroma), in 8.8 fixed point.
    @inline(__always)
    static func yuv(_ rgba: UInt32) -> (UInt8, UInt8, UInt8) {
        let r = Int(rgba & 0xFF), g = Int((rgba >> 8) & 0xFF), b = Int((rgba >> 16) & 0xFF)
        let y = 16 + ((47 * r + 157 * g + 16 * b + 128) >> 8)
        let u = 128 + ((-26 * r - 87 * g + 112 * b + 128) >> 8)
        let v = 128 + ((112 * r - 102 * g - 10 * b + 128) >> 8)
        return (UInt8(clamping: y), UInt8(clamping: u), UInt8(clamping: v))
    }

    /// The inverse of `yuv` (for tests and checks), to RGB bytes.
    static func rgb(y: Int, u: Int, v: Int) -> (Int, Int, Int) {
        let c = Double(y - 16) * 255 / 219, d = Double(u - 128) * 255 / 224, e = Double(v - 128) * 255 / 224
        let r = c + 1.5748 * e, g = c - 0.1873 * d - 0.4681 * e, b = c + 1.8556 * d
        return (Int(r.rounded()), Int(g.rounded()), Int(b.rounded()))
    }

    /// Cover scaling: the source scaled by the larger of the two ratios, centred.
    private mutating func buildMaps(_ sw: Int, _ sh: Int) {
        sourceSize = (sw, sh)
        let scale = max(Double(width) / Double(sw), Double(height) / Double(sh))
        let x0 = (Double(sw) - Double(width) / scale) / 2, y0 = (Double(sh) - Double(height) / scale) / 2
        columns = (0..<width).map { min(sw - 1, max(0, Int(x0 + (Double($0) + 0.5) / scale))) }
        rows = (0..<height).map { min(sh - 1, max(0, Int(y0 + (Double($0) + 0.5) / scale))) }
    }
}
