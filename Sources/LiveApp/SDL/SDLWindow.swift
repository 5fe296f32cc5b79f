import CSDL2
import Foundation

/// An SDL failure with `SDL_GetError()` text and the function that saw it.
struct SDLError: Error, CustomStringConvertible {
    let function: String
    let message: String
    var description: String { "\(function): \(message)" }

    /// The current SDL error, recorded with the calling function.
    static func current(_ function: String = #function) -> SDLError {
        SDLError(function: function, message: String(cString: SDL_GetError()))
    }
}

/// How frames are paced.
enum VsyncMode: String, Sendable {
    /// Swap interval −1: vsync, but late frames tear instead of waiting a whole refresh.
    case adaptive
    /// Swap interval 1.
    case vsync
    /// No vsync: the loop paces itself with a timer.
    case timer
}

/// The SDL video subsystem, one window and its OpenGL 3.3 core context.
///
/// Thread safety: main thread only. SDL wants its events and GL calls on the
/// thread that initialised video; every method checks it.
final class SDLWindow {
    let handle: OpaquePointer
    let glContext: SDL_GLContext
    private(set) var vsync: VsyncMode = .timer
    private let owner = pthread_self()

    /// Initialises SDL video (throws when there is no display) and opens a
    /// resizable window on `display` (0-based).
    init(title: String, width: Int, height: Int, display: Int = 0, fullscreen: Bool = false,
         position: (x: Int, y: Int)? = nil, hidden: Bool = false, swapInterval: Int32? = nil,
         glVersion: (major: Int32, minor: Int32) = (3, 3)) throws {
        let env = ProcessInfo.processInfo.environment
        let explicitDriver = env["SDL_VIDEODRIVER"].map { !$0.isEmpty } ?? false
        if !explicitDriver, (env["DISPLAY"] ?? "").isEmpty, (env["WAYLAND_DISPLAY"] ?? "").isEmpty {
            throw SDLError(function: "SDLWindow", message: "neither DISPLAY nor WAYLAND_DISPLAY is set")
        }
        // SIGTERM/SIGINT become SDL_QUIT; make sure a launcher's inherited
        // signal mask does not keep them blocked.
        var quitSignals = sigset_t()
        sigemptyset(&quitSignals)
        sigaddset(&quitSignals, SIGTERM)
        sigaddset(&quitSignals, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &quitSignals, nil)
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "0")
        SDL_SetHint(SDL_HINT_VIDEO_MINIMIZE_ON_FOCUS_LOSS, "0")  // a projector window must stay up
        if SDL_WasInit(SDL_INIT_VIDEO) == 0, SDL_InitSubSystem(SDL_INIT_VIDEO) != 0 {
            throw SDLError.current("SDL_InitSubSystem")
        }
        // SDL falls back to an invisible "offscreen" driver when no display
        // answers; unless asked for explicitly, that means there is no display.
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        if !explicitDriver, driver == "offscreen" || driver == "dummy" {
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
            throw SDLError(function: "SDL_InitSubSystem", message: "no display answered (only the \(driver) driver)")
        }
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, glVersion.major)
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, glVersion.minor)
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, Int32(SDL_GL_CONTEXT_PROFILE_CORE.rawValue))
        SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1)
        let displays = Int(SDL_GetNumVideoDisplays())
        let d = Int32(min(max(display, 0), max(displays - 1, 0)))
        var flags = SDL_WINDOW_OPENGL.rawValue | SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        if hidden { flags |= SDL_WINDOW_HIDDEN.rawValue }
        let x = position.map { Int32($0.x) } ?? Int32(csdl2_windowpos_centered_display(d))
        let y = position.map { Int32($0.y) } ?? Int32(csdl2_windowpos_centered_display(d))
        guard let w = SDL_CreateWindow(title, x, y, Int32(width), Int32(height), flags) else {
            throw SDLError.current("SDL_CreateWindow")
        }
        handle = w
        guard let ctx = SDL_GL_CreateContext(w) else {
            let e = SDLError.current("SDL_GL_CreateContext")
            SDL_DestroyWindow(w)
            throw e
        }
        glContext = ctx
        SDL_GL_MakeCurrent(w, ctx)
        if let forced = swapInterval {
            SDL_GL_SetSwapInterval(forced)
            vsync = forced == 0 ? .timer : .vsync
        } else if SDL_GL_SetSwapInterval(-1) == 0 {
            vsync = .adaptive
        } else if SDL_GL_SetSwapInterval(1) == 0 {
            vsync = .vsync
        } else {
            SDL_GL_SetSwapInterval(0)
            vsync = .timer
        }
    }

    deinit {
        SDL_GL_DeleteContext(glContext)
        SDL_DestroyWindow(handle)
    }

    private func checkThread() {
        precondition(pthread_equal(owner, pthread_self()) != 0, "SDLWindow used off its thread")
    }

    /// Makes this window's GL context current.
    func makeCurrent() {
        checkThread()
        SDL_GL_MakeCurrent(handle, glContext)
    }

    /// Drawable size in pixels (may differ from the window size on HiDPI).
    var drawableSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GL_GetDrawableSize(handle, &w, &h)
        return (Int(w), Int(h))
    }

    /// Window size in screen coordinates.
    var size: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(handle, &w, &h)
        return (Int(w), Int(h))
    }

    /// Window position in screen coordinates.
    var position: (x: Int, y: Int) {
        var x: Int32 = 0, y: Int32 = 0
        SDL_GetWindowPosition(handle, &x, &y)
        return (Int(x), Int(y))
    }

    /// The display the window is on (0-based).
    var displayIndex: Int { Int(max(0, SDL_GetWindowDisplayIndex(handle))) }

    /// Presents the back buffer (calls SDL_GL_SwapWindow).
    func swap() {
        checkThread()
        SDL_GL_SwapWindow(handle)
    }

    /// Switches borderless desktop fullscreen on or off.
    func setFullscreen(_ on: Bool) {
        checkThread()
        SDL_SetWindowFullscreen(handle, on ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
    }

    var isFullscreen: Bool { SDL_GetWindowFlags(handle) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue != 0 }

    /// SDL's id of this window (matches window events).
    var windowID: UInt32 { SDL_GetWindowID(handle) }

    /// Sets the swap interval of this window's context (0 = do not wait for vsync).
    func setSwapInterval(_ interval: Int32) {
        makeCurrent()
        SDL_GL_SetSwapInterval(interval)
    }

    /// The opaque window pointer for the ImGui backend.
    var rawWindow: UnsafeMutableRawPointer { UnsafeMutableRawPointer(handle) }

    /// The bounds of display `d` (0-based) in desktop pixels, nil when unknown.
    static func displayBounds(_ d: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        var r = SDL_Rect()
        guard SDL_GetDisplayBounds(Int32(d), &r) == 0 else { return nil }
        return (Int(r.x), Int(r.y), Int(r.w), Int(r.h))
    }

    /// Number of displays SDL sees (after video init).
    static var displayCount: Int { Int(SDL_GetNumVideoDisplays()) }
}
