import Engine
/// Library thumbnails: a small picture of the output when a preset is saved.
public enum Thumbnail {
    /// Thumbnail size (16:9).
    public static let width = 160
    public static let height = 90

    /// Scales an RGBA frame down to `width`×`height` with a box filter over
    /// each target pixel's source area (letterboxed in black when the aspect
    /// differs). Alpha is set to opaque. Reads the frame once; main thread
    /// safe (≈ 1 ms for 1280×720).
    public static func make(from frame: UnsafeRawBufferPointer, width fw: Int, height fh: Int,
                     size: (width: Int, height: Int) = (Thumbnail.width, Thumbnail.height)) -> RGBAImage {
        precondition(fw > 0 && fh > 0 && frame.count >= fw * fh * 4, "frame buffer smaller than its size")
        var out = RGBAImage(width: size.width, height: size.height)
        // Fit the frame inside the thumbnail, keeping its aspect.
        let scale = min(Double(size.width) / Double(fw), Double(size.height) / Double(fh))
        let tw = max(1, min(size.width, Int((Double(fw) * scale).rounded())))
        let th = max(1, min(size.height, Int((Double(fh) * scale).rounded())))
        let ox = (size.width - tw) / 2, oy = (size.height - th) / 2
        for i in stride(from: 3, to: out.pixels.count, by: 4) { out.pixels[i] = 255 }
        let src = frame.bindMemory(to: UInt8.self)
        out.pixels.withUnsafeMutableBufferPointer { dst in
            for ty in 0..<th {
                let y0 = ty * fh / th, y1 = max(y0 + 1, (ty + 1) * fh / th)
                for tx in 0..<tw {
                    let x0 = tx * fw / tw, x1 = max(x0 + 1, (tx + 1) * fw / tw)
                    var r = 0, g = 0, b = 0
                    for y in y0..<y1 {
                        var i = (y * fw + x0) * 4
                        for _ in x0..<x1 {
                            r += Int(src[i]); g += Int(src[i + 1]); b += Int(src[i + 2])
                            i += 4
                        }
                    }
                    let n = (y1 - y0) * (x1 - x0)
                    let o = ((oy + ty) * size.width + ox + tx) * 4
                    dst[o] = UInt8((r + n / 2) / n)
                    dst[o + 1] = UInt8((g + n / 2) / n)
                    dst[o + 2] = UInt8((b + n / 2) / n)
                }
            }
        }
        return out
    }

    /// The same from an array of pixels.
    public static func make(from pixels: [UInt8], width: Int, height: Int) -> RGBAImage {
        pixels.withUnsafeBytes { make(from: $0, width: width, height: height) }
    }
}
