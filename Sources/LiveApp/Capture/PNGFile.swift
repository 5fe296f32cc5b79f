import CPNG
import Foundation

/// A libpng failure: the operation and libpng's message.
struct PNGFileError: Error, CustomStringConvertible {
    let description: String
}

/// Owner of one libpng `png_image` (simplified API); frees it in deinit.
/// Used by one thread at a time.
private final class PNGImageControl {
    var image = png_image()

    init(width: Int = 0, height: Int = 0) {
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA
    }

    deinit { png_image_free(&image) }

    var message: String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// PNG encoding and decoding of RGBA images for screenshots and thumbnails
/// (libpng's simplified API; no time stamp, so equal images give equal bytes).
/// Stateless; any thread.
enum PNGFile {
    /// The PNG bytes of `image` (calls `png_image_write_to_memory`).
    static func encode(_ image: FrameImage) throws(PNGFileError) -> [UInt8] {
        let c = PNGImageControl(width: image.width, height: image.height)
        let stride = png_int_32(image.width * 4)
        var size: png_alloc_size_t = 0
        let sized = image.pixels.withUnsafeBytes { png_image_write_to_memory(&c.image, nil, &size, 0, $0.baseAddress, stride, nil) }
        guard sized != 0, size > 0 else { throw PNGFileError(description: "PNG encoding failed: \(c.message)") }
        var out = [UInt8](repeating: 0, count: Int(size))
        let ok = out.withUnsafeMutableBytes { dst in
            image.pixels.withUnsafeBytes { png_image_write_to_memory(&c.image, dst.baseAddress, &size, 0, $0.baseAddress, stride, nil) }
        }
        guard ok != 0 else { throw PNGFileError(description: "PNG encoding failed: \(c.message)") }
        return Array(out.prefix(Int(size)))
    }

    /// Decodes PNG bytes to RGBA (calls `png_image_begin_read_from_memory`, `png_image_finish_read`).
    static func decode(_ bytes: [UInt8]) throws(PNGFileError) -> FrameImage {
        let c = PNGImageControl()
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&c.image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw PNGFileError(description: "not a PNG image: \(c.message)") }
        c.image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let w = Int(c.image.width), h = Int(c.image.height)
        guard w > 0, h > 0, w * h <= 64 << 20 else { throw PNGFileError(description: "PNG image size \(w)x\(h) is not usable") }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let ok = pixels.withUnsafeMutableBytes { png_image_finish_read(&c.image, nil, $0.baseAddress, png_int_32(w * 4), nil) }
        guard ok != 0 else { throw PNGFileError(description: "PNG decoding failed: \(c.message)") }
        return FrameImage(width: w, height: h, pixels: pixels)
    }
}
