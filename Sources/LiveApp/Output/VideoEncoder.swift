import Engine
import Foundation
import LiveCore

/// Encodes frames to a video by piping raw RGBA frames into `ffmpeg`
/// (`-f rawvideo -pix_fmt rgba` in, H.264 `yuv420p` out), optionally muxing
/// an audio file's sound in (AAC; Opus for .webm), starting with frame 0.
/// Used from one thread.
final class VideoEncoder {
    let path: String
    let width: Int, height: Int
    private let process: Process
    private let input: FileHandle
    private let errors: Pipe
    private var finished = false

    /// Starts ffmpeg writing `path`, with the sound of `audio` (a file ffmpeg
    /// can read) when given. Throws a clear message when ffmpeg is not installed.
    init(path: String, width: Int, height: Int, fps: Double, audio: String? = nil) throws {
        guard width % 2 == 0, height % 2 == 0 else {
            throw UsageError("video needs an even width and height for yuv420p, got \(width)x\(height)")
        }
        guard let ffmpeg = Self.findExecutable("ffmpeg") else {
            throw RuntimeFailure("ffmpeg is not installed (not found on PATH); install it (Debian: apt-get install ffmpeg) or write PNG frames with --out FOLDER")
        }
        self.path = path
        self.width = width
        self.height = height
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try FrameSink.makeDirectory(dir) }
        signal(SIGPIPE, SIG_IGN)  // a dying ffmpeg must give an error, not kill us
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ffmpeg)
        var args = ["-hide_banner", "-loglevel", "error", "-y",
                    "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-r", String(fps), "-i", "-"]
        if let audio {
            let webm = (path as NSString).pathExtension.lowercased() == "webm"
            args += ["-i", audio, "-map", "0:v:0", "-map", "1:a:0", "-c:a", webm ? "libopus" : "aac", "-b:a", "192k"]
        }
        args += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "medium", "-crf", "18",
                 "-movflags", "+faststart", path]
        p.arguments = args
        let inPipe = Pipe(), errPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = FileHandle.nullDevice
        p.standardError = errPipe
        do {
            try p.run()
        } catch {
            throw RuntimeFailure("cannot start ffmpeg (\(ffmpeg)): \(error.localizedDescription)")
        }
        process = p
        input = inPipe.fileHandleForWriting
        errors = errPipe
    }

    /// Sends one frame.
    func append(_ image: RGBAImage) throws {
        precondition(image.width == width && image.height == height)
        do {
            try input.write(contentsOf: image.pixels)
        } catch {
            try? finish()
            throw RuntimeFailure("ffmpeg stopped accepting frames for \(path): \(ffmpegMessage())")
        }
    }

    /// Closes the pipe and waits for ffmpeg; throws if it failed.
    func finish() throws {
        guard !finished else { return }
        finished = true
        try? input.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw RuntimeFailure("ffmpeg failed (exit \(process.terminationStatus)) writing \(path): \(ffmpegMessage())")
        }
    }

    private func ffmpegMessage() -> String {
        let data = (try? errors.fileHandleForReading.readToEnd()) ?? nil
        let text = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let line = text.split(separator: "\n").last.map(String.init) ?? "no message"
        return line.trimmingCharacters(in: .whitespaces)
    }

    /// The first executable `name` on PATH.
    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
