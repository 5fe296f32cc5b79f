import Dispatch
import Engine
import LiveCore

/// Shows a hit on the screen while the next frame is still being simulated.
///
/// A frame latches the picture's features just before its post chain, so a
/// hit heard during the simulation step waits for the rest of the step and
/// the whole post chain before anyone sees it (docs/live-control.md
/// "Latency"). Between the step's chunks of work (`EngineBackend.setStepHook`,
/// every ~0.1–0.5 ms, while the other worker goes on), and every millisecond
/// while timer pacing waits for the next frame, this looks for new
/// analysis hops; when they hold an onset whose routes raise the picture's
/// exposure, the picture already on screen is presented again through the
/// exposure's tone curve (`ReactionCurve`) — what the post chain would show
/// with the new exposure — and the full frame follows with every route
/// applied. At most one reaction per frame; only in windows whose swap does
/// not wait for vsync (EditorWindow.presentReaction). The routes' state is
/// not advanced, and offline renders never react (their frames stay
/// deterministic). Main thread only.
final class HitReaction {
    private let pipeline: FramePipeline
    private unowned let editorWindow: EditorWindow
    private unowned let audio: AudioShell
    /// Off with `--no-hit-reaction`.
    var enabled = true
    private var seenHops = 0
    /// The window's present count at the last reaction (one per frame).
    private var reactedAt = -1

    init(pipeline: FramePipeline, editorWindow: EditorWindow, audio: AudioShell) {
        self.pipeline = pipeline
        self.editorWindow = editorWindow
        self.audio = audio
    }

    /// Installs the check between the simulation's chunks.
    func attach() {
        pipeline.backend.setStepHook { [unowned self] in check() }
    }

    /// Between two chunks of the step: cheap unless the analysis queued a
    /// hop. Returns the reaction's present when there is one to show; the
    /// engine runs it at once with its other workers held, so the present
    /// (a software GL's rasteriser and the X server included) has the cores.
    func check() -> (() -> Void)? {
        guard enabled, let link = audio.link else { return nil }
        let hops = link.hopsQueued
        guard hops != seenHops else { return nil }
        seenHops = hops
        guard reactedAt != editorWindow.presents, let f = link.reactionFeatures(),
              let curve = pipeline.reactionCurve(features: f) else { return nil }
        return { [unowned self] in
            reactedAt = editorWindow.presents
            guard editorWindow.presentReaction(curve: curve) else { return }
            link.markOnsetsShown(at: DispatchTime.now().uptimeNanoseconds)
        }
    }
}
