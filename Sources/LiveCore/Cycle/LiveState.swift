/// Live-set controls that are not about the look: blackout, hiding every bit
/// of UI, the key overlay, the slot picker, auto-cycle settings, capture.
public enum LiveAction: Equatable, Sendable {
    /// B: fade the output to black, or back.
    case toggleBlackout
    /// Blackout on or off (OSC `/physarum/blackout i`, a held button).
    case setBlackout(Bool)
    /// Auto-cycle on or off (OSC `/physarum/cycle i`).
    case setCycling(Bool)
    /// H: hide every panel, notice and indicator (the picture only), or show them again.
    case toggleHideAll
    /// ? / F1: the key-binding overlay.
    case toggleKeyHelp
    /// G: the slot picker (reaches all 24 slots).
    case toggleSlotPicker
    /// L: the library panel.
    case toggleLibraryPanel
    /// K: show or hide the remote-control token in a host's window.
    case toggleHostToken
    /// View ▸ Speak (`--speak`): spoken feedback on or off.
    case toggleSpeech
    /// Ctrl+H: speak the focused control's help (when speech is on).
    case speakHelp
    /// Auto-cycle dwell per preset in seconds (clamped to 3…600).
    case setDwell(Double)
    /// Auto-cycle through pinned presets only (true) or through all.
    case setPinnedOnly(Bool)
    /// P: save a PNG of the output.
    case screenshot
    /// R: start or stop recording a video.
    case toggleRecording
}

/// Capture work for the shell (it owns the frame, the recorder and the I/O worker).
public enum CaptureRequest: Equatable, Sendable {
    case screenshot
    case toggleRecording
}

/// Auto-cycle timing and choice. Times in seconds.
public struct CycleSettings: Equatable, Sendable {
    /// How long a preset shows before the cycle moves on.
    public var dwell = 25.0
    /// Fade to black before a switch, black hold at the switch, fade in after.
    public var fadeOut = 1.5
    public var hold = 0.5
    public var fadeIn = 1.5
    /// Time of the blackout fade (either way).
    public var blackoutFade = 1.0
    /// Cycle through pinned presets only (all presets when none is pinned).
    public var pinnedOnly = true

    /// Allowed dwell range.
    public static let dwellRange = 3.0...600.0
}

/// The live-set state held by `AppModel.live` (changed only through `LiveAction`s).
public struct LiveState: Equatable, Sendable {
    public var blackout = false
    public var allHidden = false
    public var keyHelpVisible = false
    public var slotPickerOpen = false
    public var libraryPanelVisible = false
    /// A host's window shows its remote-control token (K).
    public var hostTokenShown = false
    /// Spoken feedback is on (`--speak`, View ▸ Speak).
    public var speechOn = false
    public var cycle = CycleSettings()
}
