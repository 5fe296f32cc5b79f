import CGL
import Engine

/// The GPU engine: the simulation and the post chain as OpenGL 4.3 compute
/// shaders (configs/shaders/). Agents live in shader storage buffers, the
/// sensing planes in a half-float array texture, deposits are counted with
/// integer atomics (order-independent), diffusion/decay and every effect are
/// compute passes, and the frame stays in a GL texture that the window
/// draws; it is read back only for the recorder, screenshots and files.
///
/// Parity with the CPU engine: the same spawn, the same per-step constants
/// (computed by Engine), the same formulas in the same order (`precise`).
/// One step agrees within float rounding; the system is chaotic, so longer
/// runs agree in their statistics. Results may differ between GPUs and
/// drivers (not bit-reproducible).
///
/// Thread safety: the thread whose GL context (4.3 core or later) is current.
public final class GLBackend: EngineBackend {
    public let fieldWidth: Int
    public let fieldHeight: Int
    public let threads: Int = 1
    public let maxAgents: Int
    public internal(set) var speciesCounts: [Int]
    public internal(set) var stepIndex = 0
    public private(set) var outputWidth: Int
    public private(set) var outputHeight: Int
    /// The GL renderer string (GL_RENDERER).
    public let rendererName: String
    /// Whether equal deposits of a subgroup are added once (GL_NV_shader_subgroup_partitioned).
    public let partitionedDeposits: Bool
    public var kind: BackendKind { .gpu }
    /// Records GL timer queries per pass (read by `passTimes`, which waits for the GPU).
    public var timesPasses: Bool {
        get { timer.enabled }
        set { timer.enabled = newValue }
    }

    let shaders: GLShaders
    let timer = GLPassTimer()
    var seed: UInt64
    var params: PresetParams
    var spawned: UInt32 = 0
    var agents: GLBuffer
    var phases: GLBuffer
    let counts: GLBuffer
    var trails: GLBuffer
    var scratch: GLBuffer
    let sense: GLTexture
    let tables: GLBuffer
    var post: PostTargets
    var historyValid = false
    /// Steps between tile sorts of the agents (0 = never), as the CPU engine.
    public var sortInterval = 16
    /// The tile sort's buffers (made on first use): keys, buckets, targets.
    var sortBuffers: (keys: GLBuffer, buckets: GLBuffer, agents: GLBuffer, phases: GLBuffer)?

    /// Whether the current context offers compute shaders (GL 4.3 or later).
    public static func contextHasCompute() -> Bool {
        var major: GLint = 0, minor: GLint = 0
        glGetIntegerv(GLenum(GL_MAJOR_VERSION), &major)
        glGetIntegerv(GLenum(GL_MINOR_VERSION), &minor)
        return major > 4 || (major == 4 && minor >= 3)
    }

    /// The current context's GL_RENDERER string.
    public static func currentRenderer() -> String {
        glGetString(GLenum(GL_RENDERER)).map { String(cString: $0) } ?? "unknown"
    }

    /// A GPU engine in the current GL context: compiles the shaders (throws
    /// with FILE:LINE on a compile error) and spawns the agents.
    public init(field: (width: Int, height: Int), output: (width: Int, height: Int), params: PresetParams,
                seed: UInt64, shaderFolder: String? = nil) throws {
        guard Self.contextHasCompute() else {
            throw GLEngineError("the GL context has no compute shaders (OpenGL 4.3 needed, got \(Self.versionString()))")
        }
        rendererName = Self.currentRenderer()
        partitionedDeposits = Self.hasExtension("GL_KHR_shader_subgroup") && Self.hasExtension("GL_NV_shader_subgroup_partitioned")
        shaders = try GLShaders(folder: shaderFolder, partitionedDeposits: partitionedDeposits)
        fieldWidth = field.width
        fieldHeight = field.height
        outputWidth = output.width
        outputHeight = output.height
        self.seed = seed
        self.params = params
        maxAgents = Int(min(Int64(Self.maxStorageBlockBytes()) / 16, Self.agentCeiling))
        let n = field.width * field.height
        counts = GLBuffer(bytes: 3 * n * 4)
        trails = GLBuffer(bytes: 3 * n * 4)
        scratch = GLBuffer(bytes: 3 * n * 4)
        sense = GLTexture(width: field.width, height: field.height, layers: 3, format: GL_R16F, bytesPerTexel: 2)
        tables = GLBuffer(bytes: (192 + 256) * 8)
        post = PostTargets(width: output.width, height: output.height)
        speciesCounts = []
        agents = GLBuffer(bytes: 16)
        phases = GLBuffer(bytes: 16)
        self.params = limited(params)  // an agent count over maxAgents is cut before the agents are allocated
        clearSense()
        spawnAll()
    }

    /// GL_MAX_SHADER_STORAGE_BLOCK_SIZE: the largest buffer one shader binding
    /// sees; the agents' 16-byte records live in one such buffer.
    public static func maxStorageBlockBytes() -> Int {
        var block: GLint64 = 0
        glGetInteger64v(GLenum(GL_MAX_SHADER_STORAGE_BLOCK_SIZE), &block)
        return Int(block)
    }

    /// The most agents the GPU backend takes, whatever the GL limits allow.
    public static let agentCeiling: Int64 = 128_000_000

    static func versionString() -> String {
        glGetString(GLenum(GL_VERSION)).map { String(cString: $0) } ?? "unknown"
    }

    /// Bytes of GPU memory this engine holds (buffers and textures).
    public var allocatedBytes: Int {
        let sort = sortBuffers.map { $0.keys.bytes + $0.buckets.bytes + $0.agents.bytes + $0.phases.bytes } ?? 0
        return agents.bytes + phases.bytes + counts.bytes + trails.bytes + scratch.bytes + sense.bytes + tables.bytes
            + post.bytes + sort
    }

    /// Free video memory in bytes where the driver says (GL_NVX_gpu_memory_info), else nil.
    public static func freeVideoMemory() -> Int? {
        guard hasMemoryInfo else { return nil }
        var kb: GLint = 0
        glGetIntegerv(GLenum(0x9049), &kb)  // GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX
        return Int(kb) * 1024
    }

    /// Whether GL_NVX_gpu_memory_info is there (asked once, in the first context that asks).
    static let hasMemoryInfo = hasExtension("GL_NVX_gpu_memory_info")

    static func hasExtension(_ name: String) -> Bool {
        var n: GLint = 0
        glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &n)
        for i in 0..<Int(n) {
            if let s = glGetStringi(GLenum(GL_EXTENSIONS), GLuint(i)), String(cString: s) == name { return true }
        }
        return false
    }

    public func reset(seed newSeed: UInt64, params newParams: PresetParams) {
        seed = newSeed
        params = newParams
        stepIndex = 0
        spawned = 0
        zero(trails)
        zero(scratch)
        zero(counts)
        clearSense()
        spawnAll()
        historyValid = false
    }

    public func step(_ p: PresetParams, count: Int) {
        if count > 0 { timer.reset() }
        for _ in 0..<max(0, count) {
            reconcile(p)
            params = p
            timer.time("clear") { zero(counts) }
            timer.time("agents") { moveAgents(p) }
            timer.time("diffuse") { diffuse(p) }
            stepIndex += 1
            if sortInterval > 0, stepIndex % sortInterval == 0 { timer.time("sort") { tileSort() } }
        }
    }

    public func setOutputSize(width: Int, height: Int) {
        guard width != outputWidth || height != outputHeight else { return }
        outputWidth = width
        outputHeight = height
        post = PostTargets(width: width, height: height)
        historyValid = false
    }

    public func resetHistory() { historyValid = false }

    public var pictureTexture: UInt32? { post.frame.name }

    public func readPicture(into image: inout RGBAImage) {
        if image.width != outputWidth || image.height != outputHeight {
            image = RGBAImage(width: outputWidth, height: outputHeight)
        }
        glMemoryBarrier(GLbitfield(GL_ALL_BARRIER_BITS))
        glBindTexture(GLenum(GL_TEXTURE_2D), post.frame.name)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
        image.pixels.withUnsafeMutableBytes {
            glGetTexImage(GLenum(GL_TEXTURE_2D), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
    }

    public var passTimes: [PassTime] { timer.read().map { PassTime(name: $0.0, ms: $0.1) } }

    /// Runs `body` (GL work outside the engine, e.g. the present) as pass `name` of `passTimes`.
    public func timePass(_ name: String, _ body: () -> Void) { timer.time(name, body) }

    /// GPU milliseconds from the start of the first timed pass to the end of
    /// the last since the steps began (waits for the GPU); minus the passes'
    /// sum, the time the GPU waited for the CPU. Nil when nothing was timed.
    public var passSpanMs: Double? { timer.span() }

    /// Waits until the GPU has finished every command so far (glFinish).
    public func finish() { glFinish() }

    func clearSense() {
        var zero: UInt16 = 0
        glClearTexImage(sense.name, 0, GLenum(GL_RED), GLenum(GL_HALF_FLOAT), &zero)
    }

    /// Work groups for `n` invocations of a 1-D pass (grid-stride beyond the limit).
    static func groups1D(_ n: Int) -> GLuint {
        GLuint(max(1, min((n + GLShaders.groupSize1D - 1) / GLShaders.groupSize1D, 65_535)))
    }

    static func dispatch2D(_ w: Int, _ h: Int) {
        let g = GLShaders.groupSize2D
        glDispatchCompute(GLuint((w + g - 1) / g), GLuint((h + g - 1) / g), 1)
    }

    static func barrier() { glMemoryBarrier(GLbitfield(GL_ALL_BARRIER_BITS)) }
}
