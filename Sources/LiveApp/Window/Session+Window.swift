import LiveCore

extension Session {
    /// This session (what was restored at start) updated with the window's
    /// placement and the model as it is now: look, locks, audio, live-set
    /// and live-control settings, panels. What the autosave writes.
    func updated(window: SDLWindow, model: AppModel) -> Session {
        var s = self
        if !window.isFullscreen {
            let p = window.position, z = window.size
            s.windowX = p.x; s.windowY = p.y; s.windowWidth = z.width; s.windowHeight = z.height
        }
        s.display = window.displayIndex
        s.fullscreen = window.isFullscreen
        s.uiScale = model.uiScale
        s.presetID = model.currentPreset?.id
        s.params = model.base
        s.locks = model.locks.sorted()
        s.audio = model.audio.config.withoutSolo
        s.audioConfigPath = model.audio.file?.path
        s.source = model.audio.source
        s.dwell = model.live.cycle.dwell
        s.pinnedOnly = model.live.cycle.pinnedOnly
        s.libraryPanel = model.live.libraryPanelVisible
        s.audioPanel = model.audio.panelVisible
        s.osc = model.control.osc
        s.sync = model.control.sync
        s.visualOffsetMs = model.control.visualOffsetMs
        s.link = model.control.link
        s.setListPanel = model.setList.panelVisible
        s.midiPanel = model.control.panelVisible
        s.noticesWindow = model.notices.windowOpen
        s.ui = model.ui
        return s
    }
}
