/// What `--backend` asks for, and the rule that turns `auto` into a backend.
public enum BackendRequest: String, Sendable, CaseIterable {
    case auto, cpu, gpu

    /// The backend to run: `cpu` and `gpu` as asked; `auto` takes the GPU only
    /// when the GL context has compute shaders and is not a software
    /// rasteriser (llvmpipe, softpipe, swrast), else the CPU.
    public func resolve(hasCompute: Bool, renderer: String?) -> BackendKind {
        switch self {
        case .cpu: return .cpu
        case .gpu: return .gpu
        case .auto:
            guard hasCompute, let r = renderer, !Self.isSoftware(renderer: r) else { return .cpu }
            return .gpu
        }
    }

    /// Whether a GL_RENDERER string names a software rasteriser.
    public static func isSoftware(renderer: String) -> Bool {
        let r = renderer.lowercased()
        return ["llvmpipe", "softpipe", "swrast", "software rasterizer"].contains { r.contains($0) }
    }
}
