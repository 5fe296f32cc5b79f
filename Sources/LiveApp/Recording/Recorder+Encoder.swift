import Dispatch
import Foundation
import LiveCore
import Storage
import Synchronization

/// The recorder's encoder thread: opens the sink, writes the frames as they
/// come (scaling those of another size into the video's), ends the video at
/// the stop and says how it went — for a cut recording, how much of it
/// plays. One recording, one thread.
struct RecordingEncoder {
    let session: RecordingSession
    let outbox: NoticeOutbox

    private func notice(_ text: String, _ level: NoticeLevel) { outbox.post(text, level) }

    /// Runs the whole recording on the calling (encoder) thread.
    func run(nice: Int32, directory: () -> String, makeSink: (RecordingSpec) -> any VideoSink) {
        let s = session
        Self.lowerThreadPriority(by: nice)
        defer {
            s.accepting.store(false, ordering: .relaxed)
            while s.ring.consume({ _ in }) {}
            s.info.withLock { $0.phase = .idle }
            s.done.store(true, ordering: .releasing)
        }
        let dir = directory()
        let path: String
        do {
            try FolderCreation.makeDirectory(dir)
            path = Self.uniquePath(dir)
        } catch {
            notice("Recording not started: \(error)", .error)
            return
        }
        let sink = makeSink(RecordingSpec(path: path, width: s.width, height: s.height, fps: s.fps))
        do {
            try sink.open()
        } catch {
            notice("Recording not started: \(error)", .error)
            return
        }
        s.info.withLock { $0 = (.recording, path) }
        var failure: CaptureError?
        var scaler = FrameScaler(width: s.width, height: s.height)
        let scaled = UnsafeMutableRawBufferPointer.allocate(byteCount: s.width * s.height * 4, alignment: 64)
        defer { scaled.deallocate() }
        func write(_ slot: FrameRing.Slot, times n: Int) {
            var frame = slot.bytes
            if slot.width != s.width || slot.height != s.height {
                scaler.scale(slot.bytes, width: slot.width, height: slot.height, into: scaled)
                frame = UnsafeRawBufferPointer(scaled)
                s.scaledFrames.add(n, ordering: .relaxed)
                s.smallest.withLock { m in
                    if m.map({ slot.width * slot.height < $0.width * $0.height }) ?? true { m = (slot.width, slot.height) }
                }
            }
            for _ in 0..<n where failure == nil {
                do {
                    try sink.write(frame)
                    s.written.add(1, ordering: .relaxed)
                } catch {
                    failure = error
                }
            }
        }
        loop: while true {
            s.wake.wait()
            while failure == nil, s.ring.consume({ write($0, times: $0.repeats) }) {}
            if failure != nil || (s.stopRequested.load(ordering: .acquiring) && s.ring.count == 0) { break loop }
        }
        // The producer has stopped (acquired above): end the video at the stop time.
        let tail = s.tailFrames.load(ordering: .relaxed)
        if failure == nil, tail > 0 { _ = s.ring.withLastConsumed { write($0, times: tail) } }
        s.accepting.store(false, ordering: .relaxed)
        s.info.withLock { $0.phase = .finishing }
        let closeError: CaptureError?
        do {
            try sink.close()
            closeError = nil
        } catch {
            closeError = error
        }
        if let failure {
            notice("Recording stopped: \(failure) — \(kept(path))", .error)
        } else if let closeError {
            notice("Recording failed: \(closeError) — \(kept(path))", .error)
        } else {
            notice("Recording saved: \(path) (\(summary()))", .info)
        }
    }

    /// "12.0 s, 0 dropped" and, when the governor shrank the render, how much of the video was scaled up.
    private func summary() -> String {
        let s = session, st = s.status
        var text = String(format: "%.1f s, %d dropped", st.seconds, st.dropped)
        let scaledFrames = s.scaledFrames.load(ordering: .relaxed)
        if scaledFrames > 0, let m = s.smallest.withLock({ $0 }) {
            text += String(format: "; %.1f s of it", Double(scaledFrames) / s.fps)
                + " rendered smaller by the governor (down to \(m.width)x\(m.height)) and scaled to \(s.width)x\(s.height)"
        }
        if let note = s.note { text += "; \(s.width)x\(s.height): \(note)" }
        return text
    }

    /// How much of a cut recording is playable (its whole fragments).
    private func kept(_ path: String) -> String {
        let recorded = String(format: "%.1f s", session.status.seconds)
        guard let frames = MP4Fragments.keptSamples(path: path), frames > 0 else {
            return "\(path): nothing playable was kept (of \(recorded) recorded)"
        }
        return "\(path) keeps its first " + String(format: "%.1f s", Double(frames) / session.fps) + " (of \(recorded) recorded) and plays"
    }

    /// Raises the calling thread's nice value by `amount` (Linux nice values
    /// are per thread; `who` 0 is the calling thread, and children spawned
    /// from it inherit the value). Lowering one's priority needs no privilege;
    /// a failure changes nothing and is harmless.
    static func lowerThreadPriority(by amount: Int32) {
        guard amount > 0 else { return }
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, 0)
        guard errno == 0 else { return }
        _ = setpriority(which, 0, min(19, current + amount))
    }

    /// An unused `physarum-<time>.mp4` in `dir`.
    static func uniquePath(_ dir: String) -> String {
        let base = dir + "/" + Screenshot.fileStem(Date())
        var path = base + ".mp4"
        var n = 2
        while FileManager.default.fileExists(atPath: path) {
            path = base + "-\(n).mp4"
            n += 1
        }
        return path
    }
}
