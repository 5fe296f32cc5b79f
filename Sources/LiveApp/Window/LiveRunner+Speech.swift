import LiveCore
import Storage

/// Spoken feedback in the live window (`--speak`, View ▸ Speak controls).
extension LiveRunner {
    /// Call once per frame after the panels were drawn: starts or stops
    /// speech with the model's switch and speaks what changed.
    func updateSpeech(now: Double) {
        guard model.live.speechOn else {
            speech = nil
            return
        }
        if speech == nil { speech = SpeechShell(output: SpeechOutput()) }
        guard let speech else { return }
        if let p = speech.output.takeProblem() {
            dispatcher.apply(.notice("Speech: \(p); spoken feedback is off", .warning))
            dispatcher.apply(.live(.toggleSpeech))
            return
        }
        speech.frame(focus: panels.focus, panel: panels.focusPanel, context: panels.speechContext, model: model, now: now)
    }

    /// Speaks the focused control's help (Ctrl+H).
    func speakHelp() { speech?.help(focus: panels.focus, model: model, context: panels.speechContext) }

    /// Speech for `--state-file`.
    func speechState() -> JSONNode {
        speech?.state(focus: panels.focus) ?? .object([("on", .bool(false)), ("focus", panels.focus.map(JSONNode.string) ?? .null)])
    }
}
