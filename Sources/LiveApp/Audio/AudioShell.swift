import AudioReactive
import Engine
import Foundation
import LiveCore

/// The audio side of the live loop in one place: capture and analysis
/// (`AudioLink`, absent in headless tests), the pipeline's `Modulator` (the
/// config's routes), the audio panel, and the panel's file/source work
/// (`AudioIO`). The loop calls:
///
///     for a in shell.drainActions() { apply(a) }         // reloads, source lists
///     shell.drawUI(model:) { uiActions.append($0) }      // inside the ImGui frame
///
/// and hands every `.audio` effect to `perform(_:model:)`.
/// Main thread only.
final class AudioShell {
    /// The live controls' latency readout, set by the window each frame (shown in the panel's header).
    var latencySummary: String?
    /// The pipeline whose modulator the config's routes drive.
    let pipeline: FramePipeline
    /// Capture and analysis (nil until `attach`, and in headless tests).
    private(set) var link: AudioLink?
    let io: AudioIO
    var panel = AudioPanel()
    /// Analysis settings last given to the link.
    private var applied: AudioTuning?
    private var panelWasVisible = false

    init(io: AudioIO, pipeline: FramePipeline) {
        self.io = io
        self.pipeline = pipeline
    }

    /// The pipeline's modulator: base parameters + features + routes → effective parameters.
    var modulator: Modulator {
        get { pipeline.modulator }
        set { pipeline.modulator = newValue }
    }

    /// Starts using `link` for capture, with the model's config.
    func attach(_ link: AudioLink, model: AppModel) {
        self.link = link
        applied = nil
        configure(model)
    }

    /// Executes an audio effect; returns actions to apply at once.
    func perform(_ effect: AudioEffect, model: AppModel) -> [AppAction] {
        switch effect {
        case .configure:
            configure(model)
            return []
        case .switchSource(let name):
            link?.switchSource(name)
            return []
        case .beat(let c):
            link?.beat(c)
            return []
        default:
            return io.perform(effect)
        }
    }

    /// The model's config into the modulator (master, reactivity, routes) and,
    /// when they changed, its analysis settings into the running analysis.
    func configure(_ model: AppModel) {
        model.audio.config.configure(&modulator)
        let s = model.audio.config.tuning
        if s != applied, let link {
            link.apply(s)
            applied = s
        }
    }

    /// A live reload and the source worker's replies since the last call.
    func drainActions() -> [AppAction] {
        var out = io.drainReplies()
        if let r = io.pollReload() { out.append(r) }
        return out
    }

    /// What the panel shows live this frame.
    var liveView: AudioLiveView {
        AudioLiveView(meters: link?.meters, capture: link?.captureStatus, status: link?.status.label ?? "audio off",
                      activity: modulator.activity, enabled: modulator.enabled, latency: latencySummary)
    }

    /// Draws the audio panel when it is open.
    func drawUI(model: AppModel, dispatch: (AppAction) -> Void) {
        guard model.audio.panelVisible else {
            panelWasVisible = false
            return
        }
        if !panelWasVisible {
            panel.focusOnNextDraw = true  // opened by the user: in front of the other panels
            panelWasVisible = true
        }
        panel.draw(model: model, live: liveView, dispatch: dispatch)
    }

    /// Stops the watcher and the source worker.
    func shutdown() { io.shutdown() }
}
