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
    /// handing them over (a copy into the shared frame queue; it never waits for the encoder).
    var offered = 0
    var offerSeconds = 0.0
    /// Frames are being taken (from start to the stop; the encoder may still
    /// be finishing after it, while the phase stays `recording`).
    var taking = false

    /// Whether the on-screen REC indicator should show.
    var isActive: Bool { phase == .starting || phase == .recording }
}

/// One recording: its tap on the frame fanout, the encoder thread's flags
/// and counters. Shared by the frame loop (producer) and the encoder thread;
/// atomics and a Mutex only. `width × height` is the video's size, fixed for
/// the recording; frames of another size (the governor lowered the render
/// resolution) are scaled into it on the encoder thread.
final class RecordingSession: Sendable {
    let width: Int, height: Int, fps: Double
    let tap: FrameTap
    let accepting = Atomic<Bool>(true)
    let done = Atomic<Bool>(false)
    let written = Atomic<Int>(0)
    /// Video frames made from a smaller render (scaled up), and the smallest such render's size.
    let scaledFrames = Atomic<Int>(0)
    let smallest = Mutex<(width: Int, height: Int)?>(nil)
    /// Repeats of the last frame that end the video at the stop (frames due
    /// since the last one queued); set by `stop()` before the tap is closed.
    let tailFrames = Atomic<Int>(0)
    let info = Mutex<(phase: RecordingStatus.Phase, path: String?)>((.starting, nil))
    /// Said with the saved notice (e.g. the governor had lowered the size).
    let note: String?

    init(width: Int, height: Int, fps: Double, queueFrames: Int, note: String? = nil) {
        self.width = width
        self.height = height
        self.fps = fps
        self.note = note
        // `queueFrames` wait besides the frame the encoder is writing.
        tap = FrameTap(name: "recording", fps: fps, depth: queueFrames)
    }

    var status: RecordingStatus {
        let (phase, path) = info.withLock { $0 }
        let n = written.load(ordering: .relaxed)
        return RecordingStatus(phase: phase, path: path, framesWritten: n, seconds: Double(n) / fps,
                               dropped: tap.dropped.load(ordering: .relaxed), offered: tap.offered.load(ordering: .relaxed),
                               offerSeconds: Double(tap.offerNanoseconds.load(ordering: .relaxed)) * 1e-9,
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

/// Video recording (R): frames from the frame loop go through the shared
/// frame queue (`FrameFanout`, a tap of `queueFrames`) to an encoder thread
/// (`RecordingEncoder`) that feeds a `VideoSink` (ffmpeg). Offering never
/// blocks: when the encoder falls behind, the oldest waiting frame is dropped
/// and counted, and the next one is repeated to keep the video's timing.
/// Frames are paced to `fps` by the loop's clock (extra frames are skipped,
/// late ones repeated), so the video lasts as long as the live set did
/// whatever the live frame rate; at the stop, the last recorded frame is
/// repeated up to the stop time. The video keeps the size it started with:
/// when the governor lowers the render resolution, the smaller frames are
/// scaled into it (on the encoder thread), and the saved notice says how much
/// of the video was; a frame larger than the video (the window grew) stops
/// the recording with a notice. The file is a fragmented MP4 (`FFmpegSink`),
/// so a full disk, a crash or `kill -9` leave it playable up to its last
/// whole second; the notice then says how much was kept (`MP4Fragments`).
/// The encoder thread and ffmpeg (its child, which inherits its nice value)
/// run at a lower CPU priority (`encoderNice`): on a loaded machine the live
/// output keeps its frame rate and the recording drops frames instead
/// (counted). Failures (no ffmpeg, disk full, ffmpeg dying) become notices;
/// the set goes on.
///
/// Thread safety: main thread (the frame loop) only; the encoder thread talks
/// to it through the session's atomics and the notice outbox.
final class Recorder {
    /// Video frame rate.
    let fps: Double
    /// Frames the recording's queue holds besides the one being encoded.
    let queueFrames: Int
    /// How much the encoder thread (and so ffmpeg) lowers its CPU priority (nice increment).
    let encoderNice: Int32
    private let directory: @Sendable () -> String
    private let makeSink: @Sendable (RecordingSpec) -> any VideoSink
    /// The frame queue the recording takes its frames from (shared with the other outputs).
    let fanout: FrameFanout
    private let outbox = NoticeOutbox()
    private var session: RecordingSession?
    private var last: RecordingSession?

    /// `directory` is resolved on the encoder thread (it may read user-dirs.dirs).
    init(fps: Double = 30, queueFrames: Int = 6, encoderNice: Int32 = 10,
         directory: @escaping @Sendable () -> String = { UserFolders.recordingDirectory(ProcessInfo.processInfo.environment) },
         makeSink: @escaping @Sendable (RecordingSpec) -> any VideoSink = { FFmpegSink(spec: $0) },
         fanout: FrameFanout = FrameFanout()) {
        precondition(fps > 0 && queueFrames > 0)
        self.fanout = fanout
        self.fps = fps
        self.queueFrames = queueFrames
        self.encoderNice = encoderNice
        self.directory = directory
        self.makeSink = makeSink
        signal(SIGPIPE, SIG_IGN)  // a dying ffmpeg must be an error on write, not kill the set
    }

    /// The current (or last) recording's state, for the indicator.
    var status: RecordingStatus { (session ?? last)?.status ?? RecordingStatus() }

    /// Frames waiting in the queue for the encoder (0 when not recording).
    var pendingFrames: Int { session.map { fanout.queuedCount($0.tap) } ?? 0 }

    /// True while frames are being taken.
    var isRecording: Bool { session?.accepting.load(ordering: .relaxed) ?? false }

    /// Starts recording frames of this size (its queue's slots are allocated here, once).
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
        fanout.attach(s.tap, frameBytes: width * height * 4)
        let directory = directory, makeSink = makeSink, outbox = outbox, nice = encoderNice, fanout = fanout
        let thread = Thread { RecordingEncoder(session: s, fanout: fanout, outbox: outbox).run(nice: nice, directory: directory, makeSink: makeSink) }
        thread.name = "physarum.recorder"
        thread.start()
        return true
    }

    /// Stops taking frames; the encoder finishes the video on its thread (a
    /// notice says where it is), repeating the last frame it got up to the
    /// last offered frame's time. Never blocks.
    func stop() {
        guard let s = session else { return }
        s.tailFrames.store(fanout.dueTail(s.tap), ordering: .relaxed)
        fanout.close(s.tap)  // a release store: the encoder that sees the tap closed sees the tail
        s.accepting.store(false, ordering: .relaxed)
        last = s
        session = nil
    }

    /// Starts or stops (R).
    func toggle(width: Int, height: Int, note: String? = nil) {
        if isRecording { stop() } else { start(width: width, height: height, note: note) }
    }

    /// Offers the frame shown at `time` (seconds, monotonic) through the
    /// fanout (for a recorder driven on its own, as in tests and benchmarks;
    /// the live window offers every output's frame to the fanout once). A
    /// frame smaller than the video (or of another aspect) is scaled into it
    /// on the encoder thread; one larger than the video (the window grew)
    /// stops the recording there, with a notice. Never blocks.
    func offer(_ frame: UnsafeRawBufferPointer, width: Int, height: Int, time: Double) {
        guard let s = session else { return }
        guard s.accepting.load(ordering: .relaxed) else {
            reapFinished()
            return
        }
        fanout.offer(frame, width: width, height: height, time: time)
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

    private func reapFinished() {
        if let s = session, s.done.load(ordering: .acquiring) {
            last = s
            session = nil
        }
    }

    private func post(_ text: String, _ level: NoticeLevel) { outbox.post(text, level) }
}
