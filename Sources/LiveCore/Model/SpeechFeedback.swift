/// What spoken feedback says, decided frame by frame (`--speak`, View ▸
/// Speak): the focused control's label and value when the focus arrives
/// (`ControlSpeech.describe`), its new value when it changes — at most once
/// per `valueInterval` while it keeps changing (a drag), and the value it
/// settled on always — its help on request, and every new notice. Pure: the
/// shell gives it the focus's words and the time, and sends what it returns
/// to speech-dispatcher.
public struct SpeechFeedback: Equatable, Sendable {
    /// Something to say.
    public struct Utterance: Equatable, Sendable {
        public enum Kind: String, Sendable {
            /// A control got the focus: label and value.
            case focus
            /// The focused control's value changed.
            case value
            /// The focused control's help, asked for.
            case help
            /// A notice was posted.
            case notice
            /// A help popover opened: its text.
            case popover
        }
        public var text: String
        public var kind: Kind
    }

    /// Shortest time between two value utterances of one control.
    public var valueInterval: Double
    /// Notices posted in one frame beyond this are summed up in one utterance.
    public var noticeBurst = 3
    private var focusKey: String?
    private var spoken: String?
    private var held: String?
    private var lastValueAt = -Double.infinity
    private var lastNoticeID = 0
    private var noticesStarted = false
    private var panel: String?
    private var popoverText: String?

    /// A value with nothing said yet.
    public init(valueInterval: Double = 0.5) {
        self.valueInterval = valueInterval
    }

    /// The frame's focus (its control key and words, nil when no control has
    /// the focus) → what to say now. `panel`: the name of the panel (or "Menu
    /// bar") holding the focus; when it changes, the focus's words start with it.
    public mutating func frame(focus: (key: String, text: String)?, panel: String? = nil, now: Double) -> [Utterance] {
        guard let focus else {
            focusKey = nil
            held = nil
            return []
        }
        if focus.key != focusKey {
            focusKey = focus.key
            spoken = focus.text
            held = nil
            lastValueAt = now
            let newPanel = panel != nil && panel != self.panel
            if panel != nil { self.panel = panel }
            // A comma, not a full stop: speech-dispatcher says sentences as separate messages.
            return [Utterance(text: newPanel ? "\(panel!), \(focus.text)" : focus.text, kind: .focus)]
        }
        held = focus.text == spoken ? nil : focus.text
        guard let text = held, now - lastValueAt >= valueInterval else { return [] }
        spoken = text
        held = nil
        lastValueAt = now
        return [Utterance(text: text, kind: .value)]
    }

    /// The help popover on screen (nil: none): its title and text are said once when it opens.
    public mutating func popover(_ p: (title: String, text: String)?) -> [Utterance] {
        let text = p.map { "\($0.title) help: \($0.text)" }
        defer { popoverText = text }
        guard let text, text != popoverText else { return [] }
        return [Utterance(text: text, kind: .popover)]
    }

    /// The focused control's help (`hint`), asked for by the user.
    public func help(label: String, hint: String) -> Utterance {
        Utterance(text: hint.isEmpty ? "\(label): no help" : "\(label): \(hint)", kind: .help)
    }

    /// Notices posted since the last call (the first call only takes note of
    /// the board); a burst is cut to `noticeBurst` and a count of the rest.
    public mutating func notices(_ board: NoticeBoard) -> [Utterance] {
        let seen = lastNoticeID
        lastNoticeID = max(seen, board.history.last?.id ?? 0)
        guard noticesStarted else {
            noticesStarted = true
            return []
        }
        let new = board.history.filter { $0.id > seen }
        var out = new.prefix(noticeBurst).map { n in
            Utterance(text: (n.level == .info ? "" : n.level == .warning ? "Warning: " : "Error: ") + n.text, kind: .notice)
        }
        if new.count > noticeBurst { out.append(Utterance(text: "and \(new.count - noticeBurst) more notices", kind: .notice)) }
        return out
    }
}
