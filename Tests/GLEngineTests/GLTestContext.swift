import CSDL2
import Foundation

/// A hidden SDL window with an OpenGL 4.3 core context on SDL's offscreen
/// driver (EGL; Mesa's llvmpipe on the CI machines). Made current on the
/// creating thread; a test uses it from that thread only.
final class GLTestContext {
    let window: OpaquePointer
    let context: SDL_GLContext

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen")  // a hint: spawned processes are unaffected
        defer { SDL_ResetHint(SDL_HINT_VIDEODRIVER) }
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { throw Failure(description: String(cString: SDL_GetError())) }
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 4)
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3)
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, Int32(SDL_GL_CONTEXT_PROFILE_CORE.rawValue))
        guard let w = SDL_CreateWindow("physarum gpu tests", 0, 0, 64, 64, SDL_WINDOW_OPENGL.rawValue | SDL_WINDOW_HIDDEN.rawValue) else {
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
            throw Failure(description: "SDL_CreateWindow: " + String(cString: SDL_GetError()))
        }
        guard let c = SDL_GL_CreateContext(w) else {
            SDL_DestroyWindow(w)
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
            throw Failure(description: "SDL_GL_CreateContext: " + String(cString: SDL_GetError()))
        }
        window = w
        context = c
        SDL_GL_MakeCurrent(w, c)
    }

    deinit {
        SDL_GL_MakeCurrent(window, nil)
        SDL_GL_DeleteContext(context)
        SDL_DestroyWindow(window)
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
    }
}
