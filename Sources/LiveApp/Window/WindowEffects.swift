import LiveCore

/// The live window's part of the effects the model asks for (the session's
/// dispatcher does reseeds and notices): the window (fullscreen, projector,
/// UI scale, quit), the live set (library and capture work), audio, speech
/// and the live controls. Returns follow-up actions. Main thread only.
struct WindowEffects {
    let editorWindow: EditorWindow
    let liveSet: LiveSet
    let audio: AudioShell
    let control: ControlShell
    let setList: SetListShell
    let speech: WindowSpeech
    let videoOut: VideoOutputs
    /// The panels' frame: keyboard focus moves and restyling (`UIEffect`).
    let panels: WindowPanels
    /// Ends the loop (the window closed, Ctrl+Q).
    let quit: () -> Void

    func perform(_ effect: AppEffect, model: AppModel) -> [AppAction] {
        switch effect {
        case .setFullscreen(let on):
            editorWindow.window.setFullscreen(on)
        case .setOutputWindow(let d):
            if let n = editorWindow.setProjector(display: d) { return [.notice(n.text, n.level)] }
        case .applyUIScale(let s):
            editorWindow.gui.setScale(s)
        case .quit:
            quit()
        case .library, .capture:
            return liveSet.perform(effect)
        case .audio(let e):
            return audio.perform(e, model: model)
        case .speakHelp:
            speech.speakHelp(model: model)
        case .control(let e):
            return control.perform(e)
        case .videoOut(let kind, let on):
            return videoOut.perform(kind, on: on)
        case .setList(let e):
            return setList.perform(e)
        case .ui(let e):
            panels.frame.perform(e, gui: editorWindow.gui)
        case .reseed, .logNotice:
            break
        }
        return []
    }
}
