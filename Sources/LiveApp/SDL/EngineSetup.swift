import CSDL2
import Engine
import Foundation
import GLEngine

/// Makes the engine backend `--backend` asks for, in the GL context current
/// on this thread (if any). `auto` takes the GPU only when the context has
/// compute shaders and is not a software rasteriser.
enum EngineSetup {
    /// The backend and, when the GPU was wanted but could not start, why.
    static func make(_ request: BackendRequest, contextCurrent: Bool, field: (width: Int, height: Int),
                     output: (width: Int, height: Int), params: PresetParams, seed: UInt64,
                     threads: Int) throws -> any EngineBackend {
        let hasCompute = contextCurrent && GLBackend.contextHasCompute()
        let renderer = contextCurrent ? GLBackend.currentRenderer() : nil
        switch request.resolve(hasCompute: hasCompute, renderer: renderer) {
        case .cpu:
            return CPUBackend(field: field, output: output, params: params, seed: seed, threads: threads)
        case .gpu:
            guard contextCurrent else { throw GLEngineError.noContext }
            return try GLBackend(field: field, output: output, params: params, seed: seed)
        }
    }
}

extension GLEngineError {
    /// `--backend gpu` without any GL context.
    static var noContext: GLEngineError { GLEngineError("--backend gpu needs an OpenGL 4.3 context (none could be made)") }
}

/// A hidden SDL window whose OpenGL 4.3 core context runs the GPU backend
/// without a display: SDL's offscreen driver (EGL) unless a display is set.
/// For offline renders and the bench. Main thread only.
final class GLComputeContext {
    let window: SDLWindow

    init(width: Int = 64, height: Int = 64) throws {
        let env = ProcessInfo.processInfo.environment
        let hasDisplay = !(env["DISPLAY"] ?? "").isEmpty || !(env["WAYLAND_DISPLAY"] ?? "").isEmpty
        let explicit = !(env["SDL_VIDEODRIVER"] ?? "").isEmpty
        if !hasDisplay && !explicit { setenv("SDL_VIDEODRIVER", "offscreen", 1) }
        window = try SDLWindow(title: "physarum gpu", width: width, height: height, hidden: true, swapInterval: 0,
                               glVersion: (4, 3))
    }
}
