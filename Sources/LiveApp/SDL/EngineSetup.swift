import CSDL2
import Engine
import Foundation
import GLEngine
import Storage

/// Makes the engine backend `--backend` asks for, in the GL context current
/// on this thread (if any). `auto` takes the GPU only when the context has
/// compute shaders and is not a software rasteriser.
enum EngineSetup {
    /// The backend and, when the GPU was wanted but could not start, why.
    /// The agent count is held to the backend's limit (the free memory
    /// included) before the backend allocates its agents.
    static func make(_ request: BackendRequest, contextCurrent: Bool, field: (width: Int, height: Int),
                     output: (width: Int, height: Int), params: PresetParams, seed: UInt64,
                     threads: Int) throws -> any EngineBackend {
        let hasCompute = contextCurrent && GLBackend.contextHasCompute()
        let renderer = contextCurrent ? GLBackend.currentRenderer() : nil
        switch request.resolve(hasCompute: hasCompute, renderer: renderer) {
        case .cpu:
            let p = params.held(to: cpuAgentLimit()).params
            return CPUBackend(field: field, output: output, params: p, seed: seed, threads: threads)
        case .gpu:
            guard contextCurrent else { throw GLEngineError.noContext }
            return try GLBackend(field: field, output: output, params: params, seed: seed)
        }
    }

    /// The CPU engine's agent limit on this machine now (its own limit, or what the free memory holds).
    static func cpuAgentLimit() -> AgentLimit { AgentLimit.cpu(availableBytes: SystemMemory.available()) }

    /// The agent limit of `backend` on this machine (the GPU's agents live in video memory).
    static func agentLimit(of backend: any EngineBackend) -> AgentLimit {
        backend.kind == .cpu ? cpuAgentLimit()
            : AgentLimit.of(engine: "the GPU engine", engineMax: backend.maxAgents, availableBytes: nil, bytesPerAgent: 0)
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
