import CPNG
import Engine
import Foundation
import Storage

/// A libpng failure, with libpng's own message and the operation that failed.
struct PNGError: Error, CustomStringConvertible {
    let description: String
    init(_ operation: String, _ message: String) { description = "\(operation): \(message)" }
}

/// Owner of one `png_image` control structure (libpng's simplified API);
/// frees libpng's internal state in deinit. Used on one thread at a time.
private final class PNGImageHandle {
    var image = png_image()

    init(width: Int = 0, height: Int = 0) {
        image.version = cpng_image_version()
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = cpng_format_rgba()
    }

    deinit { png_image_free(&image) }

    /// libpng's message for the last failure.
    var message: String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// PNG encoding and decoding of `RGBAImage`s (libpng simplified API). The
/// encoder writes no time stamp or other varying chunk, so the same image
/// always gives the same bytes.
enum PNGCodec {
    /// The PNG file bytes of `image` (calls `png_image_write_to_memory`).
    static func encode(_ image: RGBAImage) throws -> [UInt8] {
        let handle = PNGImageHandle(width: image.width, height: image.height)
        var size: png_alloc_size_t = 0
        let stride = png_int_32(image.width * 4)
        let ok = image.pixels.withUnsafeBytes { px in
            png_image_write_to_memory(&handle.image, nil, &size, 0, px.baseAddress, stride, nil)
        }
        guard ok != 0, size > 0 else { throw PNGError("png_image_write_to_memory (size)", handle.message) }
        var out = [UInt8](repeating: 0, count: Int(size))
        let ok2 = out.withUnsafeMutableBytes { dst in
            image.pixels.withUnsafeBytes { px in
                png_image_write_to_memory(&handle.image, dst.baseAddress, &size, 0, px.baseAddress, stride, nil)
            }
        }
        guard ok2 != 0 else { throw PNGError("png_image_write_to_memory", handle.message) }
        return Array(out.prefix(Int(size)))
    }

    /// Decodes PNG bytes into an RGBA image (calls `png_image_begin_read_from_memory`
    /// and `png_image_finish_read`).
    static func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        let handle = PNGImageHandle()
        let ok = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&handle.image, $0.baseAddress, $0.count) }
        guard ok != 0 else { throw PNGError("png_image_begin_read_from_memory", handle.message) }
        handle.image.format = cpng_format_rgba()
        let w = Int(handle.image.width), h = Int(handle.image.height)
        guard w > 0, h > 0 else { throw PNGError("png_image_begin_read_from_memory", "empty image") }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let ok2 = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&handle.image, nil, $0.baseAddress, png_int_32(w * 4), nil)
        }
        guard ok2 != 0 else { throw PNGError("png_image_finish_read", handle.message) }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }

    /// Writes `image` as a PNG file atomically (temporary file, fsync, rename).
    static func write(_ image: RGBAImage, to path: String) throws {
        try SafeFile.writeAtomically(Data(try encode(image)), to: URL(fileURLWithPath: path))
    }

    /// Largest PNG file read (a 4K RGBA image is about 33 MB uncompressed).
    static let maxFileBytes = 64 << 20

    /// Reads and decodes a PNG file (a regular file of at most `maxFileBytes`).
    static func read(_ path: String) throws -> RGBAImage {
        let data = try SafeFile.read(URL(fileURLWithPath: path), limit: maxFileBytes)
        return try decode([UInt8](data))
    }
}
