import Engine
import Foundation
#if canImport(Glibc)
import Glibc
import Storage
#endif

/// What a recording writes: the file, the frame size and the frame rate.
struct RecordingSpec: Sendable, Equatable {
    var path: String
    var width: Int
    var height: Int
    var fps: Double
}

/// Where recorded frames go. Created, used and closed on the recorder's
/// encoder thread only (so implementations need no locking).
protocol VideoSink: AnyObject {
    /// Opens the output (e.g. starts ffmpeg).
    func open() throws(CaptureError)
    /// Writes one RGBA frame (`width × height × 4` bytes); may block (it is the encoder thread).
    func write(_ frame: UnsafeRawBufferPointer) throws(CaptureError)
    /// Ends the video and waits until it is complete; throws when it is not usable.
    func close() throws(CaptureError)
}

/// Encodes to H.264 (yuv420p) in a fragmented MP4 by piping raw RGBA frames
/// into an `ffmpeg` child process (spawned with `posix_spawn`). A key frame
/// every second starts a fragment that is written out whole (`+frag_keyframe
/// +empty_moov`, packets flushed), so a recording cut by a full disk, a crash
/// or `kill -9` plays up to its last whole second (an unfragmented MP4 keeps
/// its index for the end and is lost whole when cut). A dead ffmpeg (missing codec,
/// full disk) shows up as a failed write (EPIPE — SIGPIPE is ignored by the
/// recorder), reported with ffmpeg's last error line.
/// Encoder thread only; the child is reaped in `close()` (or deinit).
final class FFmpegSink: VideoSink {
    let spec: RecordingSpec
    /// x264 speed preset (ultrafast keeps up on two shared cores).
    let preset: String
    /// The ffmpeg child while it runs (0 before `open` and after `close`).
    private(set) var pid: pid_t = 0
    private var stdinFD: Int32 = -1
    private let logPath: String
    private let environment: [String: String]

    /// `environment` supplies PATH for finding ffmpeg (tests pass their own).
    init(spec: RecordingSpec, preset: String = "ultrafast", environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.spec = spec
        self.preset = preset
        self.environment = environment
        logPath = NSTemporaryDirectory() + "/physarum-ffmpeg-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
    }

    deinit {
        if stdinFD >= 0 { Glibc.close(stdinFD) }
        if pid > 0 {
            kill(pid, SIGKILL)
            var st: Int32 = 0
            _ = waitpid(pid, &st, 0)
        }
        unlink(logPath)
    }

    /// The first executable `ffmpeg` on `PATH`.
    static func findFFmpeg(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for dir in (env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/ffmpeg"
            if access(p, X_OK) == 0 { return p }
        }
        return nil
    }

    /// ffmpeg's arguments (after the program name).
    var arguments: [String] {
        ["-hide_banner", "-loglevel", "error", "-nostats", "-y",
         "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(spec.width)x\(spec.height)", "-r", JSONWriter.number(spec.fps), "-i", "pipe:0",
         "-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2",  // yuv420p needs even sides
         "-c:v", "libx264", "-preset", preset, "-crf", "20", "-pix_fmt", "yuv420p",
         "-g", String(max(1, Int(spec.fps.rounded()))),  // a key frame, so a fragment, every second
         "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-flush_packets", "1", "-f", "mp4", spec.path]
    }

    func open() throws(CaptureError) {
        guard let ffmpeg = Self.findFFmpeg(environment) else {
            throw CaptureError("ffmpeg is not installed (not found on PATH), so recording is off — install it (Debian: apt-get install ffmpeg)")
        }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw CaptureError("cannot create a pipe to ffmpeg: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // only the child's dup2'ed stdin survives exec
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([ffmpeg] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, ffmpeg, &actions, nil, argv, environ)
        Glibc.close(fds[0])
        guard rc == 0 else {
            Glibc.close(fds[1])
            throw CaptureError("cannot start ffmpeg (\(ffmpeg)): \(String(cString: strerror(rc)))")
        }
        pid = child
        stdinFD = fds[1]
    }

    func write(_ frame: UnsafeRawBufferPointer) throws(CaptureError) {
        guard stdinFD >= 0, let base = frame.baseAddress else { throw CaptureError("ffmpeg is not running") }
        var done = 0
        while done < frame.count {
            let n = Glibc.write(stdinFD, base + done, frame.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                let why = String(cString: strerror(errno))
                let exit = reap()
                throw CaptureError("ffmpeg stopped taking frames (\(why)): \(exit)")
            }
            done += n
        }
    }

    func close() throws(CaptureError) {
        if stdinFD >= 0 {
            Glibc.close(stdinFD)
            stdinFD = -1
        }
        guard pid > 0 else { return }
        var st: Int32 = 0
        while waitpid(pid, &st, 0) < 0 && errno == EINTR {}
        pid = 0
        let status = Self.exitStatus(st)
        guard status == 0 else { throw CaptureError("ffmpeg failed (exit \(status)): \(lastLogLine())") }
    }

    /// Closes the pipe, waits for ffmpeg, and describes how it ended.
    private func reap() -> String {
        do {
            try close()
            return "ffmpeg exited"
        } catch {
            return error.description
        }
    }

    private static func exitStatus(_ st: Int32) -> Int32 {
        // WIFEXITED / WEXITSTATUS / WTERMSIG as plain arithmetic (macros are not imported).
        let sig = st & 0x7F
        return sig == 0 ? (st >> 8) & 0xFF : 128 + sig
    }

    private func lastLogLine() -> String {
        guard let data = FileManager.default.contents(atPath: logPath) else { return "no message" }
        let text = String(decoding: data.suffix(4096), as: UTF8.self)
        // ffmpeg's last two error lines say why ("Conversion failed!" only says that it did,
        // "Last message repeated N times" nothing).
        var lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        lines = lines.map { $0.hasSuffix("--") ? String($0.dropLast(2)).trimmingCharacters(in: .whitespaces) : $0 }
            .filter { !$0.isEmpty && !$0.hasPrefix("Conversion failed") && !$0.hasPrefix("Last message repeated") }
        return lines.isEmpty ? "no message" : lines.suffix(2).joined(separator: "; ")
    }
}
