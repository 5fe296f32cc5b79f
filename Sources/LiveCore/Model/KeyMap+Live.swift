/// One line of the key-binding overlay: the keys, what they do, and a press
/// that triggers it (tests check every line against `KeyMap.action`).
public struct KeyBinding: Equatable, Sendable {
    public var keys: String
    public var help: String
    public var example: KeyPress
    public var action: AppAction
}

/// The live-set keys (no modifier, or Shift): slots, cycle, blackout, capture, overlays.
extension KeyMap {
    /// The live-set action for a key press without Ctrl/Alt, or nil. Toggles
    /// ignore auto-repeat (holding B must not flicker the blackout).
    public static func liveAction(for k: KeyPress) -> AppAction? {
        if case .digit(let d) = k.key {
            // 1…9, 0 → slots 1…10; with Shift → slots 11…20.
            let slot = (d == 0 ? 9 : d - 1) + (k.shift ? 10 : 0)
            return k.isRepeat ? nil : .library(.jumpToSlot(slot))
        }
        if k.isRepeat { return nil }
        switch k.key {
        case .space: return .togglePlaylist
        case .slash where k.shift: return .live(.toggleKeyHelp)
        case .f1: return .live(.toggleKeyHelp)
        case .letter("b"): return .live(.toggleBlackout)
        case .letter("h"): return .live(.toggleHideAll)
        case .letter("g"): return .live(.toggleSlotPicker)
        case .letter("l"): return .live(.toggleLibraryPanel)
        case .letter("a"): return .audio(.togglePanel)
        case .letter("t"): return .audio(.beat(.tap))
        case .letter("p"): return .live(.screenshot)
        case .letter("r"): return .live(.toggleRecording)
        case .letter("k"): return .live(.toggleHostToken)
        case .letter("s"): return .setList(.togglePanel)
        case .letter("n"): return k.shift ? .setList(.stop) : .setList(.go)
        default: return nil
        }
    }

    /// Every key binding, in the order the overlay lists them.
    public static let bindings: [KeyBinding] = [
        KeyBinding(keys: "Space", help: "Auto-cycle on/off", example: KeyPress(key: .space), action: .togglePlaylist),
        KeyBinding(keys: "PgDn  ]", help: "Next preset", example: KeyPress(key: .pageDown), action: .next),
        KeyBinding(keys: "PgUp  [", help: "Previous preset", example: KeyPress(key: .pageUp), action: .previous),
        KeyBinding(keys: "1…9, 0", help: "Jump to slot 1…10", example: KeyPress(key: .digit(1)), action: .library(.jumpToSlot(0))),
        KeyBinding(keys: "Shift+1…0", help: "Jump to slot 11…20", example: KeyPress(key: .digit(0), shift: true),
                   action: .library(.jumpToSlot(19))),
        KeyBinding(keys: "G", help: "Slot picker (all 24 slots)", example: KeyPress(key: .letter("g")), action: .live(.toggleSlotPicker)),
        KeyBinding(keys: "B", help: "Blackout: fade to black and back", example: KeyPress(key: .letter("b")), action: .live(.toggleBlackout)),
        KeyBinding(keys: "H", help: "Hide all UI (picture only)", example: KeyPress(key: .letter("h")), action: .live(.toggleHideAll)),
        KeyBinding(keys: "Tab", help: "Show/hide panels", example: KeyPress(key: .tab), action: .toggleUI),
        KeyBinding(keys: "Ctrl+Tab", help: "Next panel (Ctrl+Shift+Tab: the one before)", example: KeyPress(key: .tab, ctrl: true),
                   action: .ui(.cyclePanel(1))),
        KeyBinding(keys: "Alt or F10", help: "Menu bar (again: back to the panel)", example: KeyPress(key: .f10), action: .ui(.focusMenuBar)),
        KeyBinding(keys: "L", help: "Library panel", example: KeyPress(key: .letter("l")), action: .live(.toggleLibraryPanel)),
        KeyBinding(keys: "A", help: "Audio panel (meters, routes, configs, source)", example: KeyPress(key: .letter("a")), action: .audio(.togglePanel)),
        KeyBinding(keys: "T", help: "Tap tempo (the beat tracker follows the taps)", example: KeyPress(key: .letter("t")), action: .audio(.beat(.tap))),
        KeyBinding(keys: "P", help: "Screenshot (PNG)", example: KeyPress(key: .letter("p")), action: .live(.screenshot)),
        KeyBinding(keys: "R", help: "Start/stop recording", example: KeyPress(key: .letter("r")), action: .live(.toggleRecording)),
        KeyBinding(keys: "K", help: "Show/hide the remote-control token (--listen)", example: KeyPress(key: .letter("k")),
                   action: .live(.toggleHostToken)),
        KeyBinding(keys: "S", help: "Set list panel", example: KeyPress(key: .letter("s")), action: .setList(.togglePanel)),
        KeyBinding(keys: "N", help: "Set list: go (start, resume, or the next cue on the downbeat)", example: KeyPress(key: .letter("n")),
                   action: .setList(.go)),
        KeyBinding(keys: "Shift+N", help: "Set list: stop", example: KeyPress(key: .letter("n"), shift: true), action: .setList(.stop)),
        KeyBinding(keys: "Ctrl+→ / Ctrl+←", help: "Set list: skip / back a cue (on the downbeat)", example: KeyPress(key: .right, ctrl: true),
                   action: .setList(.skip)),
        KeyBinding(keys: "Ctrl+↓", help: "Set list: hold the cue / play on", example: KeyPress(key: .down, ctrl: true), action: .setList(.hold)),
        KeyBinding(keys: "F3", help: "Performance overlay", example: KeyPress(key: .f3), action: .toggleOverlay),
        KeyBinding(keys: "F11", help: "Fullscreen", example: KeyPress(key: .f11), action: .toggleFullscreen),
        KeyBinding(keys: "Ctrl+Z", help: "Undo", example: KeyPress(key: .letter("z"), ctrl: true), action: .undo),
        KeyBinding(keys: "Ctrl+Shift+Z", help: "Redo", example: KeyPress(key: .letter("z"), ctrl: true, shift: true), action: .redo),
        KeyBinding(keys: "Ctrl + / Ctrl –", help: "UI scale", example: KeyPress(key: .plus, ctrl: true), action: .uiScaleStep(1)),
        KeyBinding(keys: "? or F1", help: "This key overlay", example: KeyPress(key: .slash, shift: true), action: .live(.toggleKeyHelp)),
        KeyBinding(keys: "Ctrl+H", help: "Speak the focused control's help (with --speak)", example: KeyPress(key: .letter("h"), ctrl: true),
                   action: .live(.speakHelp)),
        KeyBinding(keys: "Ctrl+Q", help: "Quit", example: KeyPress(key: .letter("q"), ctrl: true), action: .quit),
    ]
}
