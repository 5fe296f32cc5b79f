import Engine

/// Everything a user (keyboard, UI, remote) can ask the app to do. The one
/// entry point of the app's state: `AppModel.handle(_:)`.
public enum AppAction: Equatable, Sendable {
    // Editing parameters
    /// Sets a scalar parameter (clamped). Outside a drag it is one undo step.
    case setParam(ParamKey, Double)
    /// Sets several scalars to one value as a single undo step (the "All species" tab).
    case setParams([ParamKey], Double)
    /// Starts a continuous edit (slider drag): the following changes become one undo step.
    case beginEdit
    /// Ends a continuous edit.
    case endEdit
    /// Resets one scalar to the value of the loaded preset.
    case resetParam(ParamKey)
    case setSpawnPattern(SpawnPattern)
    case setBlendMode(BlendMode)
    case setBackground(RGBColor)
    case setSpeciesColor(Int, RGBColor)
    /// Locks or unlocks a parameter id (scalar or not) against randomize/mutate/morph.
    case toggleLock(String)
    /// New random values for every unlocked parameter (deterministic from the seed).
    case randomize(seed: UInt64)
    /// Nudges every unlocked scalar by up to `amount` (0…1) of its range.
    case mutate(amount: Double, seed: UInt64)
    /// Blends from the look at the start of the morph toward a preset (t in 0…1).
    case morph(presetID: String, t: Double)
    /// Every parameter back to the loaded preset's values.
    case resetAll
    case undo
    case redo
    // Presets and playlist
    /// Loads a preset by id (reseeds the simulation).
    case jumpTo(String)
    case next
    case previous
    case togglePlaylist
    /// A remote editor takes its host's look (no undo step, locks and UI
    /// scale kept); `reseed` when the host's preset changed.
    case adoptRemoteLook(presetID: String?, base: PresetParams, reseed: Bool)
    // View
    case toggleUI
    case toggleOverlay
    case toggleFullscreen
    /// Opens the output-only (projector) window on a display (0-based), or closes it (nil).
    case outputWindow(Int?)
    case uiScale(Double)
    /// Ctrl +/−: UI scale up or down by 10 %.
    case uiScaleStep(Int)
    case dismissNotice(Int)
    /// Clears the notices on screen (the history keeps them).
    case dismissAllNotices
    /// Opens or closes the notices window (the session's full history).
    case toggleNoticesWindow
    /// The frame clock for the notices: infos and warnings fade when their time is up.
    case expireNotices(now: Double)
    case notice(String, NoticeLevel)
    case quit
    // Preset library and live-set controls (AppModel+Library.swift)
    /// A preset-library action (save, rename, move, pin, import, jump to slot…).
    case library(LibraryAction)
    /// A live-set control (blackout, hide all, key overlay, auto-cycle settings, capture).
    case live(LiveAction)
    /// An audio panel action: controls, routes, saved configs, capture source (AppModel+Audio.swift).
    case audio(AudioAction)
    /// Live controls: MIDI bindings and learn, OSC, tempo sync, visual offset (AppModel+Control.swift).
    case control(ControlAction)
    /// Video outputs beside the window: PipeWire camera, network stream, v4l2loopback (AppModel+VideoOut.swift).
    case videoOut(VideoOutAction)
    /// The set list: go, back, hold, skip, stop, and its editing (AppModel+SetList.swift).
    case setList(SetListAction)
    /// The panels' frame: focus moves, theme, opacity, panel widths (LiveCore/Panels/UISettings.swift).
    case ui(UIAction)
}

/// Work the app shell must do after an action (the model itself does no I/O).
public enum AppEffect: Equatable, Sendable {
    /// Clear the field and respawn the agents with the current base parameters.
    case reseed
    case setFullscreen(Bool)
    case setOutputWindow(Int?)
    case applyUIScale(Double)
    /// Print this notice on stderr (it is also in `model.notices`).
    case logNotice(String)
    case quit
    /// File work of the preset library, for the I/O worker (`LibraryIO`).
    case library(LibraryEffect)
    /// A screenshot or recording toggle (the shell owns the frame and the recorder).
    case capture(CaptureRequest)
    /// Audio work for the shell: configure analysis and modulator, config files, sources.
    case audio(AudioEffect)
    /// Speak the focused control's help (the shell knows the focus).
    case speakHelp
    /// Bindings file and OSC endpoint work.
    case control(ControlEffect)
    /// Start (true) or stop a video output.
    case videoOut(VideoOutKind, Bool)
    /// The set list file.
    case setList(SetListEffect)
    /// Keyboard focus moves and restyling for the panels.
    case ui(UIEffect)
}
