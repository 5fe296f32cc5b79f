import LiveCore

/// Everything the live window draws over the picture in one frame: the menu
/// bar, the parameter editor, the audio panel, the live-set panels, notices (on top),
/// the stats overlay, the DEMO label and the remote line. Panels only read
/// the model and what `Status` says, and return the actions the user asked
/// for. Main thread only, inside an ImGui frame.
struct LivePanelsFrame {
    /// What the panels show that is not in the model.
    struct Status {
        var stats: FrameStats
        /// Lines under the stats (agents and sizes, audio status, governor).
        var overlayLines: [String]
        var demo: Bool
        /// The remote editor's connection line and whether it is synced.
        var remote: (line: String, connected: Bool)?
        /// A host's remote-control lines (address, token, remote) and whether a remote is connected.
        var host: (lines: [String], connected: Bool)?
        var displayCount: Int
        /// The window's size in UI units.
        var display: (width: Float, height: Float)
        /// Seconds since start (notices fade by it).
        var time = 0.0
        /// The MIDI & live-control panel's status (nil: no live controls, e.g. a remote editor's window).
        var control: MidiPanel.Status?
        /// The set list player's status (nil: no set list, e.g. a remote editor's window).
        var setList: SetListStatus?
    }

    var editor = ParamEditor()
    var notices = NoticesPanel()
    var midi = MidiPanel()
    var setList = SetListPanel()
    /// The menu bar's rectangle in the last frame (nil when hidden).
    private(set) var menuBar: UI.Rect?
    /// The control with the keyboard focus after the last frame (a rectangle
    /// key of the editor, audio, library or notices panel), nil when none.
    private(set) var focus: String?
    /// The keyboard focus after the last frame: its panel, rectangle and whether it is shown.
    private(set) var focusPanel = "", focusRect: UI.Rect?, focusShown = false
    /// The remote/host label's rectangle in the last frame (nil when not drawn).
    private(set) var remoteLabel: UI.Rect?

    /// Draws the frame's panels; returns the actions they produced.
    mutating func draw(model: AppModel, status: Status, audio: AudioShell, liveSet: LiveSet) -> [AppAction] {
        var actions: [AppAction] = []
        menuBar = nil
        remoteLabel = nil
        let dispatch: (AppAction) -> Void = { actions.append($0) }
        if model.uiVisible && !model.live.allHidden {
            menuBar = MenuBar.draw(model: model, displayCount: status.displayCount, dispatch: dispatch)
            editor.draw(model: model, dispatch: dispatch)
            audio.drawUI(model: model, dispatch: dispatch)
            if let c = status.control { midi.draw(model: model, status: c, dispatch: dispatch) }
            if let st = status.setList { setList.draw(model: model, status: st, dispatch: dispatch) }
        }
        liveSet.drawUI(model: model, dispatch: dispatch)
        if model.uiVisible && !model.live.allHidden {
            // Last, and brought to the front: above the panel just clicked.
            notices.draw(model.notices, now: status.time, displayWidth: status.display.width, dispatch: dispatch)
        }
        if model.overlayVisible && !model.live.allHidden {
            StatusPanels.overlay(stats: status.stats, lines: status.overlayLines, displayHeight: status.display.height)
        }
        if status.demo { StatusPanels.demoLabel(displayWidth: status.display.width) }
        focus = nil
        focusPanel = FocusedControl.windowName
        focusRect = FocusedControl.rect(shownOnly: false)
        focusShown = FocusedControl.highlighted
        if model.uiVisible && !model.live.allHidden {
            // The panel holding the focus decides whose controls to look in (panels may overlap).
            let byPanel: [String: [String: UI.Rect]] = [
                "Parameters": editor.rects, "Audio": model.audio.panelVisible ? audio.panel.rects : [:],
                "Library": model.live.libraryPanelVisible ? liveSet.panels.library.rects : [:],
                NoticesPanel.windowName: notices.rects, NoticesPanel.stripName: notices.rects,
                SetListPanel.windowName: model.setList.panelVisible ? setList.rects : [:],
            ]
            focus = byPanel[focusPanel].flatMap { FocusedControl.key(in: $0, shownOnly: false) }
        }
        if let r = status.remote {
            remoteLabel = RemoteStatusLabel.draw([r.line], connected: r.connected, displayWidth: status.display.width,
                                                 displayHeight: status.display.height)
        } else if let h = status.host, model.uiVisible && !model.live.allHidden {
            remoteLabel = RemoteStatusLabel.draw(h.lines, connected: h.connected, displayWidth: status.display.width,
                                                 displayHeight: status.display.height)
        }
        return actions
    }
}
