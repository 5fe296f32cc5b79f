import Foundation
import Synchronization
import TestSupport
import Testing
@testable import LiveCore
@testable import LiveApp

/// Recordings that change size and recordings that are cut, through the
/// real ffmpeg and checked with ffprobe: frames the governor rendered smaller
/// are scaled into the video's size (it never stops); a recording cut by a
/// full file system (a small tmpfs) or by `kill -9` of ffmpeg plays up to its
/// last whole second, and the notice says how much was kept.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe"), "needs ffmpeg (scripts/test installs it)"))
struct RecordingCutTests {
    /// A moving bar with a patch of noise (so the video has some weight).
    static func frame(_ n: Int, width: Int, height: Int) -> [UInt8] {
        var px = RecorderTests.frame(n, width: width, height: height)
        var seed = UInt64(n) &* 0x9E37_79B9_7F4A_7C15 | 1
        for y in 0..<min(height, 80) {
            for x in 0..<min(width, 80) {
                seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
                px[(y * width + x) * 4 + 1] = UInt8(truncatingIfNeeded: seed)
            }
        }
        return px
    }

    /// ffprobe's width, height and decoded frames.
    static func probe(_ path: String) throws -> (width: Int, height: Int, frames: Int) {
        let r = try PhysarumProcess.run(tool: "/usr/bin/ffprobe", ["-v", "quiet", "-count_frames", "-select_streams", "v:0",
                                                                  "-show_entries", "stream=width,height,nb_read_frames", "-of", "csv=p=0", path])
        let f = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map { Int($0) ?? -1 }
        return f.count == 3 ? (f[0], f[1], f[2]) : (-1, -1, -1)
    }

    /// "… keeps its first 4.0 s (of 5.3 s recorded) and plays" → (4.0, 5.3).
    static func kept(_ notice: String) -> (kept: Double, recorded: Double)? {
        guard let r = notice.range(of: "keeps its first ") else { return nil }
        let rest = notice[r.upperBound...].split(separator: " ")
        guard rest.count >= 4, let k = Double(rest[0]), let t = Double(rest[3]) else { return nil }
        return (k, t)
    }

    @Test func framesTheGovernorShrankAreScaledIntoTheRecording() throws {
        let dir = LibraryTestDir()
        let r = Recorder(fps: 30, queueFrames: 6, directory: { dir.path })
        let (w, h) = (320, 180), (sw, sh) = (272, 153)  // the governor's 85 %
        #expect(r.start(width: w, height: h))
        for n in 0..<120 {
            _ = poll(seconds: 20) { r.pendingFrames < r.queueFrames }
            let small = (30..<90).contains(n)
            r.offer(Self.frame(n, width: small ? sw : w, height: small ? sh : h), width: small ? sw : w, height: small ? sh : h,
                    time: Double(n) / 30)
        }
        #expect(r.isRecording, "a smaller frame does not stop the recording")
        r.stop()
        #expect(r.waitUntilFinished(timeout: 60))
        let notes = RecorderTests.noticeTexts(r)
        let path = try #require(r.status.path)
        #expect(notes == ["Recording saved: \(path) (4.0 s, 0 dropped; 2.0 s of it rendered smaller by the governor (down to 272x153) "
                          + "and scaled to 320x180)"], "\(notes)")
        let info = try Self.probe(path)
        #expect(info.width == 320 && info.height == 180 && info.frames == 120, "\(info)")
    }

    /// Records into a 4 MB tmpfs until it is full.
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root (CI runs as root)"))
    func aRecordingCutByAFullDiskPlaysUpToItsLastSecond() throws {
        let mount = makeTempDir("recording-full")
        defer { try? FileManager.default.removeItem(at: mount) }
        let m = try PhysarumProcess.run(tool: "/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mount.path])
        try #require(m.status == 0, "mount a 4 MB tmpfs: \(m.stderr)")
        defer { _ = try? PhysarumProcess.run(tool: "/bin/umount", [mount.path]) }
        let r = Recorder(fps: 30, queueFrames: 6, directory: { mount.path })
        let (w, h) = (320, 180)
        #expect(r.start(width: w, height: h))
        var n = 0
        let stopped = poll(seconds: 120) {
            _ = poll(seconds: 5) { r.pendingFrames < r.queueFrames || !r.isRecording }
            r.offer(Self.frame(n, width: w, height: h), width: w, height: h, time: Double(n) / 30)
            n += 1
            return !r.isRecording
        }
        #expect(stopped, "the full disk stops the recording")
        #expect(r.waitUntilFinished(timeout: 60))
        let notes = RecorderTests.noticeTexts(r)
        let path = try #require(r.status.path)
        let note = try #require(notes.first, "a notice")
        #expect(notes.count == 1 && note.hasPrefix("Recording stopped: ") && note.contains("No space left on device"), "\(notes)")
        let (kept, recorded) = try #require(Self.kept(note), "the notice says how much was kept: \(note)")
        let info = try Self.probe(path)
        print("full disk: \(note); ffprobe decodes \(info.frames) frames")
        #expect(kept > 0 && kept >= recorded - 2.5, "kept up to the last whole second or so: \(note)")
        #expect(info.width == w && info.height == h)
        #expect(info.frames >= Int((kept * 30).rounded()), "ffprobe reads at least what the notice says was kept: \(info.frames) frames")
    }

    /// ffmpeg killed with SIGKILL mid-recording (as a crash or a power cut
    /// would stop it): no trailer is written, and the video still plays.
    @Test func aRecordingCutByKillNinePlaysUpToItsLastSecond() throws {
        let dir = LibraryTestDir()
        final class Holder: @unchecked Sendable { var sink: FFmpegSink? }
        let holder = Holder()
        let r = Recorder(fps: 30, queueFrames: 6, directory: { dir.path }, makeSink: { spec in
            let s = FFmpegSink(spec: spec)
            holder.sink = s
            return s
        })
        let (w, h) = (320, 180)
        #expect(r.start(width: w, height: h))
        var n = 0, killed = false
        let stopped = poll(seconds: 120) {
            _ = poll(seconds: 5) { r.pendingFrames < r.queueFrames || !r.isRecording }
            r.offer(Self.frame(n, width: w, height: h), width: w, height: h, time: Double(n) / 30)
            n += 1
            if !killed, r.status.framesWritten >= 100, let pid = holder.sink?.pid, pid > 0 {
                kill(pid, SIGKILL)
                killed = true
            }
            return !r.isRecording
        }
        #expect(killed && stopped, "kill -9 of ffmpeg stops the recording")
        #expect(r.waitUntilFinished(timeout: 60))
        let notes = RecorderTests.noticeTexts(r)
        let path = try #require(r.status.path)
        let note = try #require(notes.first)
        let (kept, recorded) = try #require(Self.kept(note), "the notice says how much was kept: \(note)")
        let info = try Self.probe(path)
        print("kill -9: \(note); ffprobe decodes \(info.frames) frames")
        #expect(kept >= 2 && kept >= recorded - 2.5, "\(note)")
        #expect(info.frames >= Int((kept * 30).rounded()), "ffprobe reads what was kept: \(info.frames) frames")
    }
}
