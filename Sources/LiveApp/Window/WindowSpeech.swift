import LiveCore
import Storage

/// Spoken feedback in the live window (`--speak`, View ▸ Speak controls) as
/// a session feedback: after the panels were drawn, it starts or stops
/// speech with the model's switch and speaks what changed (the focused
/// control, new notices). A speech server that fails turns it off with a
/// notice, posted at the next tick's drain. Main thread only.
final class WindowSpeech: ActionSource, FrameFeedback {
    let panels: WindowPanels
    private(set) var shell: SpeechShell?
    private var pending: [AppAction] = []

    init(panels: WindowPanels) { self.panels = panels }

    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        inbox.post(pending)
        pending.removeAll()
    }

    func frameDone(_ report: FrameReport) {
        guard report.model.live.speechOn, pending.isEmpty else {
            if !report.model.live.speechOn { shell = nil }
            return
        }
        let speech = shell ?? SpeechShell(output: SpeechOutput())
        shell = speech
        if let p = speech.output.takeProblem() {
            pending = [.notice("Speech: \(p); spoken feedback is off", .warning), .live(.toggleSpeech)]
            return
        }
        speech.frame(focus: panels.focus, panel: panels.frame.focusPanel, context: panels.frame.speechContext, model: report.model,
                     now: report.tick.time)
    }

    /// Speaks the focused control's help (Ctrl+H).
    func speakHelp(model: AppModel) { shell?.help(focus: panels.focus, model: model, context: panels.frame.speechContext) }

    /// Speech for `--state-file`.
    func state(focus: String?) -> JSONNode {
        shell?.state(focus: focus) ?? .object([("on", .bool(false)), ("focus", focus.map(JSONNode.string) ?? .null)])
    }
}

/// The session autosave as a feedback (offer the session as it is now,
/// about once a second, to the writer thread) and a source (a failed write
/// becomes an error notice). Main thread only.
final class WindowAutosave: ActionSource, FrameFeedback {
    let saver: SessionAutosaver
    /// The session as it is now (window placement, look, locks, audio, controls).
    let current: (AppModel) -> Session

    init(saver: SessionAutosaver, current: @escaping (AppModel) -> Session) {
        self.saver = saver
        self.current = current
    }

    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        if let err = saver.takeError() { inbox.post(.notice(err, .error)) }
    }

    func frameDone(_ report: FrameReport) { saver.offer(current(report.model), now: report.tick.time) }
}
