/// Keeps letters meant for a text field from firing single-key shortcuts
/// once the field lost focus mid-word (a click that missed it, or one
/// elsewhere): after a text field loses focus, bare printable keys (letters,
/// digits, space, punctuation; Shift allowed) are swallowed while they keep
/// coming less than `pause` seconds apart. After a pause, or with Ctrl/Alt,
/// or for any other key (F-keys, Tab, Esc, arrows), shortcuts work at once.
/// A pure state machine: the shell feeds it each frame's keys.
public struct TypingGuard: Equatable, Sendable {
    /// Seconds without typing after which single-key shortcuts work again.
    public var pause: Double
    private var focusedBefore = false
    /// When the text field lost focus, or the last swallowed key came.
    private var lastTyping = -Double.infinity

    public init(pause: Double = 1.0) { self.pause = pause }

    /// The keys that may act as shortcuts this frame. `textFocused`: a text
    /// field has keyboard focus now; `now`: seconds on any steady clock.
    public mutating func filter(_ keys: [KeyPress], textFocused: Bool, now: Double) -> [KeyPress] {
        defer { focusedBefore = textFocused }
        if textFocused {
            lastTyping = now
            return keys
        }
        if focusedBefore { lastTyping = now }
        return keys.filter { k in
            guard Self.isTyping(k), now - lastTyping < pause else { return true }
            lastTyping = now
            return false
        }
    }

    /// A key that types a character into a text field.
    public static func isTyping(_ k: KeyPress) -> Bool {
        if k.ctrl || k.alt { return false }
        switch k.key {
        case .letter, .digit, .space, .slash, .plus, .minus, .leftBracket, .rightBracket: return true
        default: return false
        }
    }
}
