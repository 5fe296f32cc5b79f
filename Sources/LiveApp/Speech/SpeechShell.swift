import LiveCore
import Storage

/// Spoken feedback for a window: each frame the focused control's words
/// (`ControlSpeech`) and the new notices go through `SpeechFeedback` (what
/// to say, rate-limited) to `SpeechOutput` (speech-dispatcher). Main thread only.
final class SpeechShell {
    let output: SpeechOutput
    private var feedback: SpeechFeedback
    /// The last utterances, oldest first (for `--state-file`).
    private(set) var recent: [SpeechFeedback.Utterance] = []

    init(output: SpeechOutput, feedback: SpeechFeedback = SpeechFeedback()) {
        self.output = output
        self.feedback = feedback
    }

    /// One frame: `focus` is the rectangle key of the control with the
    /// keyboard focus, `panel` the id of the window holding it, `context` what
    /// the panels drew (open sections, the help popover, the menus).
    func frame(focus: String?, panel: String = "", context: SpeechContext = SpeechContext(), model: AppModel, now: Double) {
        let words = focus.flatMap { key in ControlSpeech.describe(key, model: model, context: context).map { (key: key, text: $0.text) } }
        let said = feedback.frame(focus: words, panel: PanelLayout.spokenName(window: panel), now: now)
            + feedback.popover(context.popover) + feedback.notices(model.notices)
        for u in said { say(u) }
    }

    /// Speaks the focused control's help (Ctrl+H).
    func help(focus: String?, model: AppModel, context: SpeechContext = SpeechContext()) {
        guard let key = focus, let d = ControlSpeech.describe(key, model: model, context: context) else { return }
        say(feedback.help(label: d.text, hint: d.hint))
    }

    private func say(_ u: SpeechFeedback.Utterance) {
        output.say(u)
        recent.append(u)
        if recent.count > 50 { recent.removeFirst(recent.count - 50) }
    }

    /// Speech for `--state-file`: the focused control and what was said last.
    func state(focus: String?) -> JSONNode {
        .object([("on", .bool(true)), ("focus", focus.map(JSONNode.string) ?? .null),
                 ("recent", .array(recent.map { .object([("kind", .string($0.kind.rawValue)), ("text", .string($0.text))]) }))])
    }
}
