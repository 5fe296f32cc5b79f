import Engine
import Foundation
import LiveCore

/// Where offline frames go: numbered PNGs in a folder, one PNG file, or a
/// video through ffmpeg.
enum FrameSink {
    case pngDirectory(String)
    case pngFile(String)
    case video(VideoEncoder)

    /// Picks the sink for `--out`: `*.mp4` (or .mkv/.mov/.webm) → video (with
    /// the sound of `audio` muxed in when given), `*.png` → one file (only
    /// with one frame), a name without an extension (or an existing
    /// folder) → a folder of numbered PNGs; any other extension is refused.
    static func open(_ out: String, frames: Int, width: Int, height: Int, fps: Double, audio: String? = nil) throws -> FrameSink {
        let ext = (out as NSString).pathExtension.lowercased()
        if isVideo(out) {
            return .video(try VideoEncoder(path: out, width: width, height: height, fps: fps, audio: audio))
        }
        if ext == "png" {
            guard frames == 1 else { throw UsageError("--out \(out) names one PNG file; give a folder for \(frames) frames") }
            let dir = (out as NSString).deletingLastPathComponent
            if !dir.isEmpty { try makeDirectory(dir) }
            return .pngFile(out)
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: out, isDirectory: &isFolder)
        if !ext.isEmpty, !(exists && isFolder.boolValue) {
            throw UsageError("--out \(out): '.\(ext)' is not a format this writes; give FILE.png, FILE.mp4 (.mkv, .mov, .webm) or a folder for numbered PNGs")
        }
        try makeDirectory(out)
        return .pngDirectory(out)
    }

    /// Whether `--out` names a video file.
    static func isVideo(_ out: String) -> Bool {
        ["mp4", "mkv", "mov", "webm"].contains((out as NSString).pathExtension.lowercased())
    }

    /// Writes frame `i` (0-based).
    func write(_ i: Int, _ image: RGBAImage) throws {
        switch self {
        case .pngDirectory(let dir):
            try PNGCodec.write(image, to: (dir as NSString).appendingPathComponent(Self.frameName(i)))
        case .pngFile(let path):
            try PNGCodec.write(image, to: path)
        case .video(let v):
            try v.append(image)
        }
    }

    /// Finishes the output (waits for ffmpeg).
    func close() throws {
        if case .video(let v) = self { try v.finish() }
    }

    /// `frame-000001.png` for frame 0.
    static func frameName(_ i: Int) -> String { String(format: "frame-%06d.png", i + 1) }

    static func makeDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw RuntimeFailure("cannot create the folder \(path): \(error.localizedDescription)")
        }
    }
}
