/// An 8-bit RGBA picture: `width × height` pixels, row-major, four bytes per
/// pixel in the order R, G, B, A (sRGB-encoded colour, A always 255 for
/// rendered frames). A value type; copying it copies the pixels.
public struct RGBAImage: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` bytes.
    public var pixels: [UInt8]

    /// A transparent black image of the given size (each side ≥ 1).
    public init(width: Int, height: Int) {
        precondition(width >= 1 && height >= 1, "image size must be positive")
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// An image from existing bytes (`width × height × 4` of them).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 1 && height >= 1 && pixels.count == width * height * 4, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// `RGBAImage(WxH)` — short, so test failures do not print every pixel.
    public var description: String { "RGBAImage(\(width)x\(height))" }

    /// The colour of pixel (x, y) as (r, g, b, a).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// Rec. 709 luma of every pixel in 0…1 (from the display values), row-major.
    public func luma() -> [Float] {
        var out = [Float](repeating: 0, count: width * height)
        for i in 0..<(width * height) {
            let r = Float(pixels[4 * i]), g = Float(pixels[4 * i + 1]), b = Float(pixels[4 * i + 2])
            out[i] = (Luma.r * r + Luma.g * g + Luma.b * b) / 255
        }
        return out
    }

    /// A copy of the rectangle at (x, y) of size w × h (clipped to the image).
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> RGBAImage {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        precondition(x1 > x0 && y1 > y0, "crop rectangle is outside the image")
        var out = RGBAImage(width: x1 - x0, height: y1 - y0)
        for row in y0..<y1 {
            let src = (row * width + x0) * 4, dst = (row - y0) * out.width * 4
            out.pixels.replaceSubrange(dst..<(dst + out.width * 4), with: pixels[src..<(src + out.width * 4)])
        }
        return out
    }

    /// Copies `image` into this one with its top-left corner at (x, y), clipped.
    public mutating func paste(_ image: RGBAImage, x: Int, y: Int) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + image.width), y1 = min(height, y + image.height)
        guard x1 > x0 && y1 > y0 else { return }
        for row in y0..<y1 {
            let src = ((row - y) * image.width + (x0 - x)) * 4, dst = (row * width + x0) * 4
            let n = (x1 - x0) * 4
            pixels.replaceSubrange(dst..<(dst + n), with: image.pixels[src..<(src + n)])
        }
    }

    /// Fills the whole image with one opaque colour.
    public mutating func fill(_ c: RGBColor) {
        for i in 0..<(width * height) {
            pixels[4 * i] = c.r; pixels[4 * i + 1] = c.g; pixels[4 * i + 2] = c.b; pixels[4 * i + 3] = 255
        }
    }
}
