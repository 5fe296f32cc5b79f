import CSDL2
import LiveCore

/// What the frame loop learns from SDL's event queue in one poll.
struct PolledInput {
    var quit = false
    var keys: [KeyPress] = []
    /// Windows (by SDL window id) whose close button was pressed.
    var closedWindows: [UInt32] = []
    var resized = false
}

/// Polls SDL events on the main thread: every event goes to `forward` first
/// (the UI layer: `ImGuiLayer.process`), then key presses are translated to
/// `KeyPress` values. A key released in the same poll it was pressed in (a
/// quick tap, xdotool, a remote desktop) has its release put back on the
/// queue for the next frame: Dear ImGui 1.86 reads keys as held-down state
/// once per frame, so a press and release between two frames was never seen
/// (keyboard navigation ignored such taps).
///
/// A tap of Alt alone (pressed and released with no other key, click or wheel
/// between) becomes a `Key.altTap` press (`AltTap`): the menu bar's key.
enum SDLEvents {
    /// Alt taps span polls. Main thread only (SDL events).
    nonisolated(unsafe) private static var altTap = AltTap()
    /// Key presses polled since start (the state file's `focus.keys`: a script
    /// driving the window knows its key was taken before it reads the result).
    nonisolated(unsafe) private(set) static var keyDowns = 0

    static func poll(forward: ((UnsafeRawPointer) -> Void)? = nil) -> PolledInput {
        var out = PolledInput()
        var e = SDL_Event()
        var pressed: Set<UInt32> = []
        var deferred: [SDL_Event] = []
        while SDL_PollEvent(&e) != 0 {
            if e.type == SDL_KEYUP.rawValue && pressed.contains(e.key.keysym.scancode.rawValue) {
                deferred.append(e)
                continue
            }
            if e.type == SDL_KEYDOWN.rawValue { pressed.insert(e.key.keysym.scancode.rawValue) }
            if let forward { withUnsafePointer(to: &e) { forward(UnsafeRawPointer($0)) } }
            switch e.type {
            case SDL_QUIT.rawValue:
                out.quit = true
            case SDL_WINDOWEVENT.rawValue:
                if e.window.event == UInt8(SDL_WINDOWEVENT_CLOSE.rawValue) { out.closedWindows.append(e.window.windowID) }
                if e.window.event == UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue) { out.resized = true }
            case SDL_KEYUP.rawValue:
                let sc = e.key.keysym.scancode
                if (sc == SDL_SCANCODE_LALT || sc == SDL_SCANCODE_RALT) && altTap.altUp() { out.keys.append(KeyPress(key: .altTap)) }
            case SDL_MOUSEBUTTONDOWN.rawValue, SDL_MOUSEWHEEL.rawValue:
                altTap.otherInput()
            case SDL_KEYDOWN.rawValue:
                keyDowns += 1
                let sc = e.key.keysym.scancode
                if sc == SDL_SCANCODE_LALT || sc == SDL_SCANCODE_RALT { altTap.altDown() } else { altTap.otherInput() }
                let mod = UInt32(e.key.keysym.mod)
                out.keys.append(KeyPress(
                    key: key(e.key.keysym.scancode),
                    ctrl: mod & UInt32(KMOD_CTRL.rawValue) != 0,
                    shift: mod & UInt32(KMOD_SHIFT.rawValue) != 0,
                    alt: mod & UInt32(KMOD_ALT.rawValue) != 0,
                    isRepeat: e.key.repeat != 0))
            default:
                break
            }
        }
        for var d in deferred { SDL_PushEvent(&d) }
        return out
    }

    /// Our key for an SDL scancode (layout-independent positions).
    static func key(_ sc: SDL_Scancode) -> Key {
        let v = sc.rawValue
        if v >= SDL_SCANCODE_A.rawValue && v <= SDL_SCANCODE_Z.rawValue {
            return .letter(Character(Unicode.Scalar(UInt8(97 + v - SDL_SCANCODE_A.rawValue))))
        }
        if v >= SDL_SCANCODE_1.rawValue && v <= SDL_SCANCODE_9.rawValue { return .digit(Int(v - SDL_SCANCODE_1.rawValue) + 1) }
        switch sc {
        case SDL_SCANCODE_0: return .digit(0)
        case SDL_SCANCODE_F1: return .f1
        case SDL_SCANCODE_F3: return .f3
        case SDL_SCANCODE_F10: return .f10
        case SDL_SCANCODE_F11: return .f11
        case SDL_SCANCODE_TAB: return .tab
        case SDL_SCANCODE_ESCAPE: return .escape
        case SDL_SCANCODE_SPACE: return .space
        case SDL_SCANCODE_PAGEUP: return .pageUp
        case SDL_SCANCODE_PAGEDOWN: return .pageDown
        case SDL_SCANCODE_HOME: return .home
        case SDL_SCANCODE_END: return .end
        case SDL_SCANCODE_LEFT: return .left
        case SDL_SCANCODE_RIGHT: return .right
        case SDL_SCANCODE_UP: return .up
        case SDL_SCANCODE_DOWN: return .down
        case SDL_SCANCODE_EQUALS, SDL_SCANCODE_KP_PLUS: return .plus
        case SDL_SCANCODE_MINUS, SDL_SCANCODE_KP_MINUS: return .minus
        case SDL_SCANCODE_SLASH: return .slash
        case SDL_SCANCODE_LEFTBRACKET: return .leftBracket
        case SDL_SCANCODE_RIGHTBRACKET: return .rightBracket
        default: return .other
        }
    }
}

/// SDL scancodes the UI code needs for ImGui key queries (SDL-independent names).
enum ScanCode {
    static let left = Int32(SDL_SCANCODE_LEFT.rawValue)
    static let right = Int32(SDL_SCANCODE_RIGHT.rawValue)
    static let up = Int32(SDL_SCANCODE_UP.rawValue)
    static let down = Int32(SDL_SCANCODE_DOWN.rawValue)
    static let home = Int32(SDL_SCANCODE_HOME.rawValue)
    static let end = Int32(SDL_SCANCODE_END.rawValue)
    static let escape = Int32(SDL_SCANCODE_ESCAPE.rawValue)
}
