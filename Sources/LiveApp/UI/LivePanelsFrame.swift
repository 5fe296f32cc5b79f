import ImGuiShim
import LiveCore

/// Everything the live window draws over the picture in one frame: the menu
/// bar, the notices band under it, the panels in their tiles (parameter
/// editor, audio, MIDI & live control, set list, library, notices window;
/// never covering each other), the stats overlay and the remote line in the status
/// band at the bottom. Panels only read the model and what `Status` says,
/// and return the actions the user asked for. Main thread only, inside an
/// ImGui frame.
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
    var menu = MenuBar()
    var arrangement = PanelArrangement()
    /// The menu bar's rectangle in the last frame (nil when hidden).
    var menuBar: UI.Rect? { menu.bar }
    /// The control with the keyboard focus after the last frame (a rectangle
    /// key of the editor, audio, library, MIDI, notices panel or the menus), nil when none.
    private(set) var focus: String?
    /// The keyboard focus after the last frame: its panel (window id), rectangle and whether it is shown.
    private(set) var focusPanel = "", focusRect: UI.Rect?, focusShown = false, typing = false
    /// The remote/host label's rectangle in the last frame (nil when not drawn).
    private(set) var remoteLabel: UI.Rect?
    /// What speech needs from the last frame beyond the model.
    private(set) var speechContext = SpeechContext()

    /// A focus move or restyle the model asked for (`UIEffect`).
    mutating func perform(_ e: UIEffect, gui: ImGuiLayer?) {
        switch e {
        case .focusMenuBar: arrangement.menuFocusRequested = true
        case .cyclePanel(let step): arrangement.panelSteps += step
        case .applyStyle(let t, let opacity): gui?.setTheme(t.theme, opacity: opacity)
        }
    }

    /// The panels open in `model` (the MIDI panel only where there are live
    /// controls, the set list only where there is a set list player).
    static func openPanels(_ model: AppModel, liveControls: Bool, setList: Bool) -> [PanelLayout.Panel] {
        var open: [PanelLayout.Panel] = [.parameters]
        if model.audio.panelVisible { open.append(.audio) }
        if liveControls && model.control.panelVisible { open.append(.midi) }
        if setList && model.setList.panelVisible { open.append(.setList) }
        if model.live.libraryPanelVisible { open.append(.library) }
        if model.notices.windowOpen { open.append(.notices) }
        return open
    }

    /// Draws the frame's panels; returns the actions they produced.
    mutating func draw(model: AppModel, status: Status, audio: AudioShell, liveSet: LiveSet) -> [AppAction] {
        var actions: [AppAction] = []
        remoteLabel = nil
        PreciseSlider.openPopover = nil
        let dispatch: (AppAction) -> Void = { actions.append($0) }
        let shown = model.uiVisible && !model.live.allHidden
        let (dw, dh) = (status.display.width, status.display.height)
        var open: [PanelLayout.Panel] = []
        if shown {
            // Focus moves first: ImGui takes a new focus's first control while that window's items are drawn.
            arrangement.moveFocus(open: Self.openPanels(model, liveControls: status.control != nil, setList: status.setList != nil),
                                  focusedWindow: FocusedControl.windowName)
            var badges = LiveIndicators.badges(model: model, recording: liveSet.recorder.status, untilNext: liveSet.autoCycle.output.untilNext)
            if status.demo { badges.insert(("DEMO", false), at: 0) }
            menu.draw(model: model, displayCount: status.displayCount, badges: badges, dispatch: dispatch)
            let top = menu.bar?.y1 ?? 0
            let band = NoticesPanel.band(model.notices, top: top, width: dw)
            open = Self.openPanels(model, liveControls: status.control != nil, setList: status.setList != nil)
            let bottom = dh - StatusPanels.bandHeight(overlay: model.overlayVisible ? status.overlayLines.count + 2 : 0,
                                                      remote: status.remote != nil ? 1 : (status.host?.lines.count ?? 0))
            arrangement.layout(open: open, area: UI.Rect(x0: 0, y0: band?.y1 ?? top, x1: dw, y1: bottom), widths: model.ui.panelWidths)
            editor.tile = arrangement.tiles[.parameters]
            audio.panel.tile = arrangement.tiles[.audio]
            midi.tile = arrangement.tiles[.midi]
            setList.tile = arrangement.tiles[.setList]
            liveSet.panels.library.tile = arrangement.tiles[.library]
            notices.tile = arrangement.tiles[.notices]
            notices.draw(model.notices, now: status.time, band: band, dispatch: dispatch)
            editor.draw(model: model, dispatch: dispatch)
            audio.drawUI(model: model, dispatch: dispatch)
            if let c = status.control { midi.draw(model: model, status: c, dispatch: dispatch) }
            if let st = status.setList { setList.draw(model: model, status: st, dispatch: dispatch) }
        }
        liveSet.drawUI(model: model, dispatch: dispatch)
        if model.overlayVisible && !model.live.allHidden {
            StatusPanels.overlay(stats: status.stats, lines: status.overlayLines, displayHeight: dh)
        }
        if status.demo && !shown { StatusPanels.demoLabel(displayWidth: dw) }
        if let r = status.remote {
            remoteLabel = RemoteStatusLabel.draw([r.line], connected: r.connected, displayWidth: dw, displayHeight: dh)
        } else if let h = status.host, shown {
            remoteLabel = RemoteStatusLabel.draw(h.lines, connected: h.connected, displayWidth: dw, displayHeight: dh)
        }
        focus = nil
        focusPanel = FocusedControl.windowName
        focusRect = FocusedControl.rect(shownOnly: false)
        focusShown = FocusedControl.highlighted
        typing = FocusedControl.typing
        guard shown else { return actions }
        let rects = panelRects(audio: audio, liveSet: liveSet, model: model)
        // The panel holding the focus decides whose controls to look in.
        focus = (PanelArrangement.isMenu(focusPanel) ? menu.rects[focusPanel] : rects[focusPanel])
            .flatMap { FocusedControl.key(in: $0, shownOnly: false) }
        speechContext = SpeechContext(expanded: editor.expanded.union(audio.panel.expanded).union(midi.openSections),
                                      popover: PreciseSlider.openPopover, menus: menu.menus)
        var windows: [PanelLayout.Panel: UI.Rect] = [:]
        for p in open { if let w = rects[PanelArrangement.windowID(p)]?["window"] { windows[p] = w } }
        actions += arrangement.resized(windows: windows, widths: model.ui.panelWidths)
        return actions
    }

    /// Each panel's item rectangles by its window id.
    func panelRects(audio: AudioShell, liveSet: LiveSet, model: AppModel) -> [String: [String: UI.Rect]] {
        [
            "Parameters": editor.rects, "Audio": model.audio.panelVisible ? audio.panel.rects : [:],
            "Library": model.live.libraryPanelVisible ? liveSet.panels.library.rects : [:],
            MidiPanel.windowID: model.control.panelVisible ? midi.rects : [:],
            NoticesPanel.windowName: notices.rects, NoticesPanel.stripName: notices.rects,
            SetListPanel.windowName: model.setList.panelVisible ? setList.rects : [:],
        ]
    }
}
