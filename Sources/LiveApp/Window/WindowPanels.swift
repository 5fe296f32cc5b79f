import LiveCore

/// The panels drawn over the picture while the editor window presents it
/// (menu bar, editor, audio, MIDI, live-set panels, notices, overlays).
/// Their actions are read back by `WindowInput` at the next tick; the
/// rectangles and the keyboard focus they report feed speech and the state
/// file. Main thread only.
final class WindowPanels {
    var frame = LivePanelsFrame()

    init(seed: UInt64) { frame.editor.seed = seed }

    /// The control with the keyboard focus after the last frame.
    var focus: String? { frame.focus }
}
