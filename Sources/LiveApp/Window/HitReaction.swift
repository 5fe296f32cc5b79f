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
/// applied. A hit heard while the post chain runs goes out with that frame's
/// present, through the curve from its picture (`curveAtPresent`). Each
/// reaction needs an onset newer than the last one shown; only in windows
/// whose swap does not wait for vsync (EditorWindow.presentReaction). The routes' state is
/// not advanced, and offline renders never react (their frames stay
/// deterministic). Main thread only.
final class HitReaction {
    private let pipeline: FramePipeline
    private unowned let editorWindow: EditorWindow
    private unowned let audio: AudioShell
    /// Off with `--no-hit-reaction`.
    var enabled = true
    private var seenHops = 0
    /// Onsets taken when the last reaction was shown: a reaction needs a newer one.
    private var reactedOnsets = 0

    init(pipeline: FramePipeline, editorWindow: EditorWindow, audio: AudioShell) {
        self.pipeline = pipeline
        self.editorWindow = editorWindow
        self.audio = audio
    }

    /// Installs the check between the simulation's chunks and at each frame's present.
    func attach() {
        pipeline.backend.setStepHook { [unowned self] in check() }
        editorWindow.curveAtPresent = { [unowned self] in curveAtPresent() }
    }

    /// At a frame's present: a hit heard while its post chain ran (after its
    /// late latch) goes out with this frame, through the curve from its
    /// picture; the next frame takes it whole.
    func curveAtPresent() -> ReactionCurve? {
        guard enabled, let link = audio.link, let curve = newHitCurve(link) else { return nil }
        reactedOnsets = link.onsetsSeen
        return curve
    }

    /// The curve for an onset newer than the last one shown, when its routes raise the exposure.
    private func newHitCurve(_ link: AudioLink) -> ReactionCurve? {
        guard let f = link.reactionFeatures(), link.onsetsSeen > reactedOnsets else { return nil }
        return pipeline.reactionCurve(features: f)
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
        guard let curve = newHitCurve(link) else { return nil }
        return { [unowned self] in
            reactedOnsets = link.onsetsSeen
            guard editorWindow.presentReaction(curve: curve) else { return }
            link.markOnsetsShown(at: DispatchTime.now().uptimeNanoseconds)
        }
    }
}
