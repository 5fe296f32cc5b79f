import AudioReactive
import Engine

/// Audio for the live loop: capture (or the demo groove), analysis and the
/// features of each frame. Main thread only.
///
/// Placeholder until the capture/analysis module lands: reports `.off` and
/// silent features.
final class AudioLink {
    enum Status: Equatable {
        case off
        case demo
        case live(String)
        case waiting(String)

        var label: String {
            switch self {
            case .off: "audio off"
            case .demo: "DEMO"
            case .live(let s): "live: \(s)"
            case .waiting(let why): "no audio: \(why)"
            }
        }
    }

    private(set) var status: Status = .off
    private(set) var onsetsSeen = 0
    private(set) var droppedSamples = 0

    init(options: LiveOptions) {
        status = options.noAudio ? .off : .demo
    }

    /// Features for this frame (level = last hop, transient = peak since the last frame).
    func frameFeatures() -> AudioFeatures { .silent }

    /// Notices raised since the last call (to show and log).
    func takeNotices() -> [String] { [] }
}
