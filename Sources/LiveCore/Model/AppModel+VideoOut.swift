/// The picture's ways out beside the window and the recording: a PipeWire
/// camera node, a network stream, a v4l2loopback device.
public enum VideoOutKind: String, CaseIterable, Equatable, Hashable, Sendable {
    case pipewire, stream, v4l2

    /// How the menu and notices name it.
    public var label: String {
        switch self {
        case .pipewire: "PipeWire camera"
        case .stream: "Network stream"
        case .v4l2: "v4l2loopback device"
        }
    }
}

/// Which video outputs are on, and where the stream and the loopback device go.
public struct VideoOutState: Equatable, Sendable {
    /// Outputs switched on (all off by default).
    public var on: Set<VideoOutKind> = []
    /// `--stream URL` (the stream's row is disabled without one).
    public var streamURL: String?
    /// `--v4l2 /dev/videoN` (the device's row is disabled without one).
    public var v4l2Device: String?

    public init() {}

    /// Whether the output can be switched on (it has its destination).
    public func available(_ kind: VideoOutKind) -> Bool {
        switch kind {
        case .pipewire: true
        case .stream: streamURL != nil
        case .v4l2: v4l2Device != nil
        }
    }
}

/// A video output switched on or off (the Output menu's rows, the CLI options at start).
public enum VideoOutAction: Equatable, Sendable {
    case set(VideoOutKind, Bool)
    case toggle(VideoOutKind)
    /// The shell could not keep the output running (it said why in a notice): it is off.
    case stopped(VideoOutKind)
}

extension AppModel {
    /// Switches video outputs on and off; the shell starts and stops them (`AppEffect.videoOut`).
    public mutating func handleVideoOut(_ action: VideoOutAction) -> [AppEffect] {
        switch action {
        case .toggle(let k):
            return handleVideoOut(.set(k, !videoOut.on.contains(k)))
        case .set(let k, let on):
            guard on != videoOut.on.contains(k) else { return [] }
            if on && !videoOut.available(k) {
                let option = k == .stream ? "--stream URL" : "--v4l2 /dev/videoN"
                let text = "\(k.label): no destination (start physarum with \(option))"
                return notices.post(text, .warning) ? [.logNotice(text)] : []
            }
            if on { videoOut.on.insert(k) } else { videoOut.on.remove(k) }
            return [.videoOut(k, on)]
        case .stopped(let k):
            videoOut.on.remove(k)
            return []
        }
    }
}
