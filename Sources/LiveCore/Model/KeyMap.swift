/// A key, independent of SDL (the SDL layer translates scancodes).
public enum Key: Equatable, Sendable {
    case f1, f3, f10, f11, tab, escape, space, pageUp, pageDown, home, end
    /// Alt pressed and released with nothing else between (`AltTap`).
    case altTap
    case left, right, up, down
    case plus, minus, slash, leftBracket, rightBracket
    case letter(Character)
    case digit(Int)
    case other
}

/// A key press with its modifiers.
public struct KeyPress: Equatable, Sendable {
    public var key: Key
    public var ctrl = false
    public var shift = false
    public var alt = false
    public var isRepeat = false

    /// A value with these members (defaults as declared).
    public init(key: Key, ctrl: Bool = false, shift: Bool = false, alt: Bool = false, isRepeat: Bool = false) {
        self.key = key
        self.ctrl = ctrl
        self.shift = shift
        self.alt = alt
        self.isRepeat = isRepeat
    }
}

/// Keyboard shortcuts → app actions (a pure function; tests call it directly).
public enum KeyMap {
    /// Keys that keyboard navigation uses while a control has the focus
    /// (Space presses it, arrows and paging move, Esc closes a popover).
    public static func isNavigationKey(_ k: KeyPress) -> Bool {
        guard !k.ctrl, !k.alt else { return false }
        switch k.key {
        case .space, .escape, .left, .right, .up, .down, .pageUp, .pageDown, .home, .end: return true
        default: return false
        }
    }

    /// The action for a key press, or nil. Randomize/mutate come with seed 0:
    /// the shell replaces it with a fresh seed. While a text field has focus every
    /// shortcut is ignored (the keys belong to the text), except F11.
    public static func action(for k: KeyPress, textFocused: Bool) -> AppAction? {
        if k.key == .f11 { return .toggleFullscreen }
        // To the menu bar and between panels, as desktop toolkits do (even from a text field).
        if k.key == .f10 || k.key == .altTap { return k.isRepeat ? nil : .ui(.focusMenuBar) }
        if k.ctrl && k.key == .tab { return .ui(.cyclePanel(k.shift ? -1 : 1)) }
        if textFocused { return nil }
        if k.ctrl {
            switch k.key {
            case .letter("z"): return k.shift ? .redo : .undo
            case .letter("y"): return .redo
            case .letter("q"): return .quit
            case .letter("r"): return .randomize(seed: 0)
            case .letter("h"): return .live(.speakHelp)
            case .right: return k.isRepeat ? nil : .setList(.skip)
            case .left: return k.isRepeat ? nil : .setList(.back)
            case .down: return k.isRepeat ? nil : .setList(.hold)
            case .plus: return .uiScaleStep(1)
            case .minus: return .uiScaleStep(-1)
            default: return nil
            }
        }
        if k.alt { return nil }
        if let a = liveAction(for: k) { return a }  // KeyMap+Live.swift
        switch k.key {
        case .tab: return k.isRepeat ? nil : .toggleUI
        case .f3: return k.isRepeat ? nil : .toggleOverlay
        case .letter("m"): return .mutate(amount: 0.1, seed: 0)
        case .pageDown, .rightBracket: return .next
        case .pageUp, .leftBracket: return .previous
        default: return nil
        }
    }
}

/// Tells a tap of Alt (pressed and released with no other key, click or
/// wheel between) from Alt held as a modifier (Alt+click, Alt ×10 steps).
/// The SDL layer feeds it key and mouse events; a tap becomes `Key.altTap`.
public struct AltTap: Equatable, Sendable {
    private var armed = false

    public init() {}

    /// Alt went down (auto-repeat keeps it armed).
    public mutating func altDown() { armed = true }

    /// Another key, a button or the wheel: Alt is a modifier this time.
    public mutating func otherInput() { armed = false }

    /// Alt went up: true when this was a tap.
    public mutating func altUp() -> Bool {
        defer { armed = false }
        return armed
    }
}
