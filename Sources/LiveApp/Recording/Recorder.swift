import Dispatch
import Foundation
import LiveCore
import Storage
import Synchronization

/// What the recording indicator shows.
struct RecordingStatus: Equatable, Sendable {
    enum Phase: Equatable, Sendable {
        case idle, starting, recording, finishing
    }

    var phase = Phase.idle
    /// The video file (once known).
    var path: String?
    /// Frames written to the encoder (repeats included) and their length in seconds.
    var framesWritten = 0
    var seconds = 0.0
    /// Live frames that could not be recorded because the encoder was behind.
    var dropped = 0
    /// Live frames handed to the recorder, and the frame loop's time spent
    /// handing them over (a copy into the ring; it never waits for the encoder).
    var offered = 0
    var offerSeconds = 0.0
    /// Frames are being taken (from start to the stop; the encoder may still
    /// be finishing after it, while the phase stays `recording`).
    var taking = false

    /// Whether the on-screen REC indicator should show.
    var isActive: Bool { phase == .starting || phase == .recording }
}

/// One recording: the frame ring, the encoder thread's flags and counters.
/// Shared by the frame loop (producer) and the encoder thread; atomics and a
/// Mutex only.
private final class RecordingSession: Sendable {
    let width: Int, height: Int, fps: Double
    let ring: FrameRing
    let wake = DispatchSemaphore(value: 0)
    let accepting = Atomic<Bool>(true)
    let stopRequested = Atomic<Bool>(false)
    let done = Atomic<Bool>(false)
    let dropped = Atomic<Int>(0)
    let written = Atomic<Int>(0)
    /// Repeats of the last frame that end the video at the stop (frames due
    /// since the last one the ring took); set by `stop()` before `stopRequested`.
    let tailFrames = Atomic<Int>(0)
    /// Frames offered and seconds spent in `offer` (written by the frame loop only).
    let offered = Atomic<Int>(0)
    let offerNanoseconds = Atomic<Int>(0)
    let info = Mutex<(phase: RecordingStatus.Phase, path: String?)>((.starting, nil))
    /// Said with the saved notice (e.g. the governor had lowered the size).
    let note: String?

    init(width: Int, height: Int, fps: Double, queueFrames: Int, note: String? = nil) {
        self.width = width
        self.height = height
        self.fps = fps
        self.note = note
        ring = FrameRing(capacity: queueFrames, frameBytes: width * height * 4)
    }

    var status: RecordingStatus {
        let (phase, path) = info.withLock { $0 }
        let n = written.load(ordering: .relaxed)
        return RecordingStatus(phase: phase, path: path, framesWritten: n, seconds: Double(n) / fps,
                               dropped: dropped.load(ordering: .relaxed), offered: offered.load(ordering: .relaxed),
                               offerSeconds: Double(offerNanoseconds.load(ordering: .relaxed)) * 1e-9,
                               taking: accepting.load(ordering: .relaxed))
    }
}

/// Notices from a background thread to the frame loop (a Mutex-guarded list).
final class NoticeOutbox: Sendable {
    private let items = Mutex<[AppAction]>([])

    init() {}

    /// Adds a notice (any thread).
    func post(_ text: String, _ level: NoticeLevel) { items.withLock { $0.append(.notice(text, level)) } }

    /// Everything posted since the last call.
    func drain() -> [AppAction] {
        items.withLock { o in
            defer { o.removeAll() }
            return o
        }
    }
}

/// Video recording (R): frames from the frame loop go through a bounded ring
/// of preallocated buffers to an encoder thread that feeds a `VideoSink`
/// (ffmpeg). `offer` never blocks and never allocates: when the encoder falls
/// behind, the frame is dropped and counted, and the next accepted frame is
/// repeated to keep the video's timing. Frames are paced to `fps` by the
/// loop's clock (extra frames are skipped, late ones repeated), so the video
/// lasts as long as the live set did whatever the live frame rate; at the
/// stop, the last recorded frame is repeated up to the stop time. The encoder
/// thread and ffmpeg (its child, which inherits its nice value) run at a lower
/// CPU priority (`encoderNice`): on a loaded machine the live output keeps
/// its frame rate and the recording drops frames instead (counted).
/// Failures (no ffmpeg, disk full, ffmpeg dying) become notices; the set goes on.
///
/// Thread safety: main thread (the frame loop) only; the encoder thread talks
/// to it through the session's atomics and the notice outbox.
final class Recorder {
    /// Video frame rate.
    let fps: Double
    /// Ring size in frames.
    let queueFrames: Int
    /// Longest gap (seconds) filled with repeats after a stall; the rest counts as dropped.
    let maxGap = 5.0
    /// How much the encoder thread (and so ffmpeg) lowers its CPU priority (nice increment).
    let encoderNice: Int32
    private let directory: @Sendable () -> String
    private let makeSink: @Sendable (RecordingSpec) -> any VideoSink
    private let outbox = NoticeOutbox()
    private var session: RecordingSession?
    private var last: RecordingSession?
    // Producer-side pacing (main thread).
    private var startTime: Double?
    private var queuedFrames = 0
    private var lastOfferTime: Double?

    /// `directory` is resolved on the encoder thread (it may read user-dirs.dirs).
    init(fps: Double = 30, queueFrames: Int = 6, encoderNice: Int32 = 10,
         directory: @escaping @Sendable () -> String = { UserFolders.recordingDirectory(ProcessInfo.processInfo.environment) },
         makeSink: @escaping @Sendable (RecordingSpec) -> any VideoSink = { FFmpegSink(spec: $0) }) {
        precondition(fps > 0 && queueFrames > 0)
        self.fps = fps
        self.queueFrames = queueFrames
        self.encoderNice = encoderNice
        self.directory = directory
        self.makeSink = makeSink
        signal(SIGPIPE, SIG_IGN)  // a dying ffmpeg must be an error on write, not kill the set
    }

    /// The current (or last) recording's state, for the indicator.
    var status: RecordingStatus { (session ?? last)?.status ?? RecordingStatus() }

    /// Frames waiting in the ring for the encoder (0 when not recording).
    var pendingFrames: Int { session?.ring.count ?? 0 }

    /// True while frames are being taken.
    var isRecording: Bool { session?.accepting.load(ordering: .relaxed) ?? false }

    /// Starts recording frames of this size (preallocates the ring here, once).
    /// False when a recording is already running. `note` is said when the
    /// recording starts and again with the saved notice.
    @discardableResult
    func start(width: Int, height: Int, note: String? = nil) -> Bool {
        reapFinished()
        guard session == nil else { return false }
        guard width > 1, height > 1 else {
            post("Recording not started: the frame is \(width)x\(height)", .warning)
            return false
        }
        let s = RecordingSession(width: width, height: height, fps: fps, queueFrames: queueFrames, note: note)
        if let note { post("Recording \(width)x\(height): \(note)", .warning) }
        session = s
        startTime = nil
        queuedFrames = 0
        lastOfferTime = nil
        let directory = directory, makeSink = makeSink, outbox = outbox, nice = encoderNice
        let thread = Thread { Self.encode(s, nice: nice, directory: directory, makeSink: makeSink, outbox: outbox) }
        thread.name = "physarum.recorder"
        thread.start()
        return true
    }

    /// Stops taking frames; the encoder finishes the video on its thread (a
    /// notice says where it is), repeating the last frame it got up to the
    /// last offered frame's time. Never blocks.
    func stop() {
        guard let s = session else { return }
        if let t0 = startTime, let t = lastOfferTime {
            s.tailFrames.store(min(max(0, dueFrames(t, start: t0) - queuedFrames), Int(maxGap * fps)), ordering: .relaxed)
        }
        s.accepting.store(false, ordering: .relaxed)
        s.stopRequested.store(true, ordering: .releasing)
        s.wake.signal()
        last = s
        session = nil
    }

    /// Starts or stops (R).
    func toggle(width: Int, height: Int, note: String? = nil) {
        if isRecording { stop() } else { start(width: width, height: height, note: note) }
    }

    /// Offers the frame shown at `time` (seconds, monotonic). Copies it into a
    /// free ring slot when the video is due a frame; otherwise returns at once.
    /// Never blocks, never allocates.
    func offer(_ frame: UnsafeRawBufferPointer, width: Int, height: Int, time: Double) {
        guard let s = session else { return }
        guard s.accepting.load(ordering: .relaxed) else {
            reapFinished()
            return
        }
        let began = ContinuousClock.now
        defer {
            let d = ContinuousClock.now - began
            s.offered.add(1, ordering: .relaxed)
            s.offerNanoseconds.add(Int(d.components.seconds) * 1_000_000_000 + Int(d.components.attoseconds / 1_000_000_000), ordering: .relaxed)
        }
        guard width == s.width, height == s.height, frame.count >= width * height * 4 else {
            stop()
            post("Recording stopped: the frame size changed from \(s.width)x\(s.height) to \(width)x\(height)", .warning)
            return
        }
        let t0 = startTime ?? time
        startTime = t0
        lastOfferTime = time
        var count = dueFrames(time, start: t0) - queuedFrames
        guard count > 0 else { return }  // faster than the video's rate: not needed
        let cap = Int(maxGap * fps)
        if count > cap {
            s.dropped.add(count - cap, ordering: .relaxed)
            queuedFrames += count - cap
            count = cap
        }
        guard s.ring.push(frame, count: count) else {
            s.dropped.add(1, ordering: .relaxed)  // the next accepted frame fills the gap
            return
        }
        queuedFrames += count
        s.wake.signal()
    }

    /// The same for a pixel array.
    func offer(_ pixels: [UInt8], width: Int, height: Int, time: Double) {
        pixels.withUnsafeBytes { offer($0, width: width, height: height, time: time) }
    }

    /// Notices from the encoder thread since the last call (as app actions).
    func drainNotices() -> [AppAction] { outbox.drain() }

    /// Polls until every recording's encoder thread has finished (at quit, in
    /// tests). True when they did within `timeout` seconds.
    func waitUntilFinished(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while [session, last].contains(where: { $0 != nil && !$0!.done.load(ordering: .acquiring) }) {
            if Date() >= deadline { return false }
            usleep(2_000)
        }
        return true
    }

    /// Video frames that cover the live set from `start` to `time`.
    private func dueFrames(_ time: Double, start: Double) -> Int {
        Int(((time - start) * fps).rounded(.down)) + 1
    }

    private func reapFinished() {
        if let s = session, s.done.load(ordering: .acquiring) {
            last = s
            session = nil
        }
    }

    private func post(_ text: String, _ level: NoticeLevel) { outbox.post(text, level) }

    /// The encoder thread: open the sink, write frames as they come, close.
    private static func encode(_ s: RecordingSession, nice: Int32, directory: () -> String, makeSink: (RecordingSpec) -> any VideoSink,
                               outbox: NoticeOutbox) {
        func notice(_ text: String, _ level: NoticeLevel) { outbox.post(text, level) }
        lowerThreadPriority(by: nice)
        defer {
            s.accepting.store(false, ordering: .relaxed)
            while s.ring.consume({ _, _ in }) {}
            s.info.withLock { $0.phase = .idle }
            s.done.store(true, ordering: .releasing)
        }
        let dir = directory()
        let path: String
        do {
            try FolderCreation.makeDirectory(dir)
            path = uniquePath(dir)
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
        func write(_ frame: UnsafeRawBufferPointer, times n: Int) {
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
            while failure == nil, s.ring.consume({ frame, n in write(frame, times: n) }) {}
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
        let st = s.status
        let summary = String(format: "%.1f s, %d dropped", st.seconds, st.dropped) + (s.note.map { "; \(s.width)x\(s.height): \($0)" } ?? "")
        if let failure {
            notice("Recording stopped: \(failure) — \(path) (\(summary)) may be incomplete", .error)
        } else if let closeError {
            notice("Recording failed: \(closeError) — \(path)", .error)
        } else {
            notice("Recording saved: \(path) (\(summary))", .info)
        }
    }

    /// Raises the calling thread's nice value by `amount` (Linux nice values
    /// are per thread; `who` 0 is the calling thread, and children spawned
    /// from it inherit the value). Lowering one's priority needs no privilege;
    /// a failure changes nothing and is harmless.
    private static func lowerThreadPriority(by amount: Int32) {
        guard amount > 0 else { return }
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, 0)
        guard errno == 0 else { return }
        _ = setpriority(which, 0, min(19, current + amount))
    }

    /// An unused `physarum-<time>.mp4` in `dir`.
    private static func uniquePath(_ dir: String) -> String {
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
