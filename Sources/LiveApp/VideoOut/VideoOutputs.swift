import Foundation
import LiveCore
import Storage

/// The frame outputs beside the window, as one pipeline output: each frame
/// goes into the shared `FrameFanout` once (read back from the GPU only when
/// an output is due one), and the PipeWire camera, the network stream and
/// the v4l2loopback device take it from there on their own threads (the
/// recorder takes its frames from the same fanout). In a session it is also a
/// source: the outputs' notices, and an output that stopped by itself.
/// `.videoOut` effects start and stop the outputs. Their size is
/// `--video-size` or the output window's size when the output starts, their
/// rate `--video-fps`. Main thread only.
final class VideoOutputs: FrameOutput, ActionSource {
    let fanout: FrameFanout
    let settings: Settings
    private let outbox = NoticeOutbox()
    /// The output window's drawable size (the projector's when it is open).
    private let windowSize: () -> (width: Int, height: Int)
    private(set) var pipewire: PipeWireSource?
    private(set) var ffmpeg: [VideoOutKind: FFmpegVideoOut] = [:]

    /// What the outputs send and where.
    struct Settings: Sendable {
        var size: (width: Int, height: Int)?
        var fps = 30
        var stream: String?
        var streamAudio: String?
        var v4l2: String?

        init(options: LiveOptions) {
            size = options.videoSize
            fps = options.videoFPS
            stream = options.stream
            streamAudio = options.streamAudio
            v4l2 = options.v4l2
        }
    }

    init(fanout: FrameFanout, settings: Settings, windowSize: @escaping () -> (width: Int, height: Int)) {
        self.fanout = fanout
        self.settings = settings
        self.windowSize = windowSize
    }

    /// The actions that switch on the outputs the command line asked for.
    static func startActions(_ options: LiveOptions) -> [AppAction] {
        (options.pipewire ? [.videoOut(.set(.pipewire, true))] : [])
            + (options.stream != nil ? [.videoOut(.set(.stream, true))] : [])
            + (options.v4l2 != nil ? [.videoOut(.set(.v4l2, true))] : [])
    }

    /// The finished frame: into the fanout when some output (recorder included) is due one.
    func show(_ frame: FramePipeline.Frame, picture: FramePicture) {
        let time = frame.tick.time
        guard fanout.wants(time: time) else {
            fanout.skip(time: time)
            return
        }
        let image = picture.image  // a GPU picture is read back only here
        image.pixels.withUnsafeBytes { fanout.offer($0, width: image.width, height: image.height, time: time) }
    }

    /// Notices of the outputs' threads; an ffmpeg output whose ffmpeg died is switched off.
    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        inbox.post(outbox.drain())
        for (kind, out) in ffmpeg where out.failed.load(ordering: .acquiring) {
            out.stop(timeout: 1)
            ffmpeg[kind] = nil
            inbox.post(.videoOut(.stopped(kind)))
        }
    }

    /// Starts or stops an output (the model said so). Returns actions to apply (a refusal).
    func perform(_ kind: VideoOutKind, on: Bool) -> [AppAction] {
        guard on else {
            stop(kind)
            return []
        }
        let size = settings.size ?? windowSize()
        let (w, h) = (max(2, size.width), max(2, size.height))
        switch kind {
        case .pipewire:
            guard pipewire == nil else { return [] }
            let p = PipeWireSource(settings: .init(width: w, height: h, fps: settings.fps), fanout: fanout, outbox: outbox)
            guard p.start() else { return [.videoOut(.stopped(.pipewire))] }
            pipewire = p
        case .stream, .v4l2:
            guard ffmpeg[kind] == nil else { return [] }
            let destination: FFmpegDestination
            if kind == .stream {
                guard let url = settings.stream else { return [.videoOut(.stopped(kind))] }
                destination = .stream(url: url, audio: settings.streamAudio)
            } else {
                guard let device = settings.v4l2 else { return [.videoOut(.stopped(kind))] }
                if let problem = V4L2Device.problem(device) {
                    return [.notice("\(kind.label) not started: \(problem)", .error), .videoOut(.stopped(kind))]
                }
                destination = .v4l2(device: device)
            }
            let out = FFmpegVideoOut(destination: destination, width: w, height: h, fps: settings.fps, fanout: fanout, outbox: outbox)
            out.start()
            ffmpeg[kind] = out
        }
        return []
    }

    private func stop(_ kind: VideoOutKind) {
        if kind == .pipewire {
            guard let p = pipewire else { return }
            p.stop()
            pipewire = nil
            outbox.post("PipeWire camera \"\(p.settings.name)\" off (\(p.status.framesSent) frames sent)", .info)
        } else if let out = ffmpeg.removeValue(forKey: kind) {
            out.stop()
        }
    }

    /// One line per running output (the stats overlay).
    var statusLines: [String] {
        (pipewire.map { [$0.summary] } ?? []) + VideoOutKind.allCases.compactMap { ffmpeg[$0]?.summary }
    }

    /// The outputs for `--stats`.
    var statsNode: JSONNode {
        var f: [(String, JSONNode)] = []
        if let p = pipewire {
            let s = p.status
            f.append(("pipewire", .object([
                ("name", .string(p.settings.name)), ("width", .int(p.settings.width)), ("height", .int(p.settings.height)),
                ("fps", .int(p.settings.fps)), ("connected", .bool(s.connected)), ("streaming", .bool(s.streaming)),
                ("format", s.format.map { .string($0.rawValue) } ?? .null), ("nodeID", s.nodeID.map { .int(Int($0)) } ?? .null),
                ("framesSent", .int(s.framesSent)), ("dropped", .int(s.dropped)),
            ])))
        }
        for kind in VideoOutKind.allCases {
            guard let o = ffmpeg[kind] else { continue }
            let n = o.framesSent.load(ordering: .relaxed)
            f.append((kind.rawValue, .object([
                ("destination", .string(o.destination.label)), ("width", .int(o.width)), ("height", .int(o.height)), ("fps", .int(o.fps)),
                ("framesSent", .int(n)), ("dropped", .int(o.dropped)),
                ("handMs", JSONNode.rounded(n > 0 ? Double(o.handNanoseconds.load(ordering: .relaxed)) / Double(n) / 1e6 : 0, 3)),
            ])))
        }
        return .object(f)
    }

    /// Stops every output (at quit).
    func shutdown() {
        for kind in VideoOutKind.allCases { stop(kind) }
    }
}
