import CPipeWire
import Dispatch
import Foundation
import Synchronization

/// The picture as a PipeWire camera: a node "Physarum Live" of media class
/// `Video/Source` (role Camera, so OBS's PipeWire camera source and browsers
/// through the camera portal list it) offering BGRx/RGBx/BGRA/RGBA and YUY2
/// at a fixed size and frame rate. The app drives the graph
/// (`PW_STREAM_FLAG_DRIVER`): each frame the fanout queues for it triggers
/// one cycle, and the buffer is filled on PipeWire's loop thread. Frames are
/// taken from the fanout only while a consumer streams (no copy, no GPU read
/// back otherwise). When the server goes away (a restart) the node is
/// published again as soon as a server answers, retried every second.
///
/// Threads: `start`/`stop` on the main thread; a supervisor thread
/// ("physarum.pipewire") connects, reconnects and hands frames over; the
/// callbacks run on PipeWire's loop thread (`cpw_*`, context through
/// `userdata`). They share `state` (a Mutex) and atomics — hence
/// `@unchecked Sendable`; `source` is created before the threads and freed
/// after both have stopped.
final class PipeWireSource: @unchecked Sendable {
    /// What the node offers.
    struct Settings: Sendable, Equatable {
        var name = "Physarum Live"
        var width: Int
        var height: Int
        var fps: Int
    }

    /// What the Output menu and the stats say.
    struct Status: Sendable, Equatable {
        var connected = false
        var streaming = false
        var format: VideoPixelFormat?
        var nodeID: UInt32?
        var framesSent = 0
        var dropped = 0
    }

    let settings: Settings
    private let fanout: FrameFanout
    private let outbox: NoticeOutbox
    private var source: UnsafeMutablePointer<cpw_source>?
    private var thread: Thread?
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    /// Wakes the supervisor when the stream's state changes.
    private let changed = DispatchSemaphore(value: 0)

    private struct Shared {
        var streaming = false
        var lost: String?
        var format: VideoPixelFormat?
        /// The frame the next cycle sends (handed over by the supervisor, taken by `fill`).
        var pending: FrameLease?
        var converter: FrameConverter?
        var status = Status()
    }

    private let state = Mutex(Shared())

    init(settings: Settings, fanout: FrameFanout, outbox: NoticeOutbox) {
        self.settings = settings
        self.fanout = fanout
        self.outbox = outbox
    }

    deinit { stop() }

    var status: Status { state.withLock { $0.status } }

    /// A line for the stats and the menu: size, rate, format and what it did.
    var summary: String {
        let s = status
        let what = !s.connected ? "waiting for a PipeWire server" : s.streaming ? "streaming \(s.format?.rawValue ?? "")" : "no consumer"
        return "PipeWire \"\(settings.name)\" \(settings.width)x\(settings.height) @ \(settings.fps) fps: \(what), \(s.framesSent) sent, \(s.dropped) dropped"
    }

    /// Creates the node's loop and starts connecting. False (with a notice) when PipeWire's loop cannot be made.
    @discardableResult
    func start() -> Bool {
        guard source == nil else { return true }
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let s = cpw_source_new(settings.name, UInt32(settings.width), UInt32(settings.height), UInt32(settings.fps), 1,
                                     Self.fillCallback, Self.eventCallback, me) else {
            outbox.post("PipeWire camera not started: cannot create PipeWire's thread loop", .error)
            return false
        }
        source = s
        let t = Thread { [self] in supervise() }
        t.name = "physarum.pipewire"
        thread = t
        t.start()
        return true
    }

    /// Removes the node and stops the threads (waits for them; they never block long).
    func stop() {
        guard let s = source else { return }
        stopping.store(true, ordering: .releasing)
        changed.signal()
        while !finished.load(ordering: .acquiring) { usleep(1_000) }
        cpw_source_free(s)
        source = nil
        if let lease = state.withLock({ sh -> FrameLease? in defer { sh.pending = nil }; return sh.pending }) { fanout.release(lease) }
    }

    // MARK: - The supervisor thread

    private func supervise() {
        defer { finished.store(true, ordering: .releasing) }
        guard let src = source else { return }
        var connected = false, announcedWait = false
        var tap: FrameTap?
        var droppedBefore = 0
        func detach() {
            guard let t = tap else { return }
            if let lease = state.withLock({ sh -> FrameLease? in defer { sh.pending = nil }; return sh.pending }) { fanout.release(lease) }
            fanout.detach(t)
            droppedBefore += t.dropped.load(ordering: .relaxed)
            tap = nil
        }
        while !stopping.load(ordering: .acquiring) {
            if !connected {
                let rc = cpw_source_connect(src)
                if rc == 0 {
                    connected = true
                    announcedWait = false
                    state.withLock { $0.lost = nil; $0.status.connected = true }
                    outbox.post("PipeWire camera \"\(settings.name)\" on: \(settings.width)x\(settings.height) at \(settings.fps) fps "
                                + "(BGRx, RGBx, BGRA, RGBA or YUY2)", .info)
                } else {
                    if !announcedWait {
                        outbox.post("PipeWire camera: no PipeWire server (\(String(cString: strerror(-rc)))); trying again every second", .warning)
                        announcedWait = true
                    }
                    _ = changed.wait(timeout: .now() + 1)
                }
                continue
            }
            let (streaming, lost) = state.withLock { ($0.streaming, $0.lost) }
            if let lost {
                detach()
                cpw_source_disconnect(src)
                connected = false
                state.withLock { $0.streaming = false; $0.status.connected = false; $0.status.streaming = false }
                outbox.post("PipeWire camera: the server went away (\(lost)); publishing again when it is back", .warning)
                continue
            }
            if streaming && tap == nil {
                let t = FrameTap(name: "PipeWire", fps: Double(settings.fps), depth: 2, early: true)
                fanout.attach(t, frameBytes: settings.width * settings.height * 4)
                tap = t
            } else if !streaming && tap != nil {
                detach()
            }
            guard let t = tap else {
                _ = changed.wait(timeout: .now() + 0.25)
                continue
            }
            guard let lease = fanout.next(t, timeout: 0.25) else { continue }
            let older = state.withLock { sh -> FrameLease? in
                defer { sh.pending = lease }
                return sh.pending
            }
            if let older {
                fanout.release(older)  // the graph did not take the last one in time
                t.dropped.add(1, ordering: .relaxed)
            }
            _ = cpw_source_trigger(src)
            state.withLock { $0.status.dropped = droppedBefore + t.dropped.load(ordering: .relaxed) }
        }
        detach()
        cpw_source_disconnect(src)
    }

    // MARK: - PipeWire's loop thread

    private func fill(_ dst: UnsafeMutableRawPointer, stride: Int, format: UInt32, width: Int, height: Int) -> UInt32 {
        guard let pixel = Self.pixelFormat(format) else { return 0 }
        let (lease, converter) = state.withLock { sh -> (FrameLease?, FrameConverter?) in
            defer { sh.pending = nil; sh.converter = nil }
            return (sh.pending, sh.converter)
        }
        guard let lease else { return 0 }
        var c = converter.flatMap { $0.format == pixel && $0.width == width && $0.height == height ? $0 : nil }
            ?? FrameConverter(width: width, height: height, format: pixel)
        c.convert(lease.bytes, sourceWidth: lease.width, sourceHeight: lease.height, into: dst, stride: stride)
        fanout.release(lease)
        state.withLock {
            $0.converter = c
            $0.status.framesSent += 1
        }
        return UInt32(stride * height)
    }

    private func event(kind: Int32, value: Int32, text: String?) {
        switch kind {
        case cpw_event_state:
            let streaming = value == cpw_state_streaming
            let nodeID = cpw_source_node_id_unlocked(source)
            state.withLock {
                $0.streaming = streaming
                $0.status.streaming = streaming
                if nodeID != UInt32.max { $0.status.nodeID = nodeID }
            }
            if value == cpw_state_error {
                state.withLock { $0.lost = text ?? "stream error" }
            }
        case cpw_event_format:
            let f = Self.pixelFormat(UInt32(bitPattern: value))
            state.withLock {
                $0.format = f
                $0.status.format = f
            }
        default:
            state.withLock { $0.lost = text ?? String(cString: strerror(-value)) }
        }
        changed.signal()
    }

    static func pixelFormat(_ spa: UInt32) -> VideoPixelFormat? {
        switch spa {
        case cpw_format_BGRx: .bgrx
        case cpw_format_RGBx: .rgbx
        case cpw_format_BGRA: .bgra
        case cpw_format_RGBA: .rgba
        case cpw_format_YUY2: .yuy2
        default: nil
        }
    }

    private static let fillCallback: cpw_fill_fn = { userdata, dst, stride, _, format, width, height in
        guard let userdata, let dst else { return 0 }
        let me = Unmanaged<PipeWireSource>.fromOpaque(userdata).takeUnretainedValue()
        return me.fill(dst, stride: Int(stride), format: format, width: Int(width), height: Int(height))
    }

    private static let eventCallback: cpw_event_fn = { userdata, kind, value, text in
        guard let userdata else { return }
        let me = Unmanaged<PipeWireSource>.fromOpaque(userdata).takeUnretainedValue()
        me.event(kind: kind, value: value, text: text.map { String(cString: $0) })
    }
}
