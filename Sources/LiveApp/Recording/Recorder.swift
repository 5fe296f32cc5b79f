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
/// Mutex only. `width × height` is the video's size, fixed for the recording;
/// frames of another size (the governor lowered the render resolution) are
/// scaled into it on the encoder thread.
final class RecordingSession: Sendable {
    let width: Int, height: Int, fps: Double
    let ring: FrameRing
    let wake = DispatchSemaphore(value: 0)
    let accepting = Atomic<Bool>(true)
    let stopRequested = Atomic<Bool>(false)
    let done = Atomic<Bool>(false)
    let dropped = Atomic<Int>(0)
    let written = Atomic<Int>(0)
    /// Video frames made from a smaller render (scaled up), and the smallest such render's size.
    let scaledFrames = Atomic<Int>(0)
    let smallest = Mutex<(width: Int, height: Int)?>(nil)
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
/// stop, the last recorded frame is repeated up to the stop time. The video
/// keeps the size it started with: when the governor lowers the render
/// resolution, the smaller frames are scaled into it (on the encoder thread),
/// and the saved notice says how much of the video was. The file is a
/// fragmented MP4 (`FFmpegSink`), so a full disk, a crash or `kill -9`
/// leave it playable up to its last whole second; the notice then says how
/// much was kept (`MP4Fragments`). The encoder
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
    let outbox = NoticeOutbox()
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
        let thread = Thread { RecordingEncoder(session: s, outbox: outbox).run(nice: nice, directory: directory, makeSink: makeSink) }
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
    /// A frame smaller than the video (or of another aspect) is scaled into it
    /// later, on the encoder thread; one larger than the video (the window
    /// grew) stops the recording with a notice. Never blocks, never allocates.
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
        guard width * height * 4 <= s.ring.frameBytes, width > 1, height > 1, frame.count >= width * height * 4 else {
            stop()
            post("Recording stopped: the frame grew from \(s.width)x\(s.height) to \(width)x\(height) (a recording keeps the size it "
                 + "started with; resize the window before recording)", .warning)
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
        guard s.ring.push(frame, width: width, height: height, count: count) else {
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
}
