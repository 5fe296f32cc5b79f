/// An RGBA8 image in memory (row 0 = top): a screenshot, a thumbnail, a
/// synthetic test frame. A value; safe to hand to another thread.
struct FrameImage: Sendable, Equatable {
    let width: Int
    let height: Int
    /// `width × height × 4` bytes.
    var pixels: [UInt8]

    /// Transparent black.
    init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "image size must be positive")
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A copy of `width × height` RGBA pixels read from `bytes` (e.g. the renderer's buffer).
    init(copying bytes: UnsafeRawBufferPointer, width: Int, height: Int) {
        precondition(bytes.count >= width * height * 4, "buffer smaller than the frame")
        self.init(width: width, height: height, pixels: Array(bytes.prefix(width * height * 4)))
    }

    /// The RGBA of pixel (x, y).
    func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
