import CGL
import Foundation
import Storage

/// A failure of the GL backend: a shader that does not compile (named by
/// file and line), a context without compute shaders, a GL error.
public struct GLEngineError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
    public init(_ message: String) { self.message = message }
}

/// The compute shaders of the GPU backend, read from `configs/shaders/` and
/// compiled at start. Each program is `#version 430`, its work-group size,
/// `common.glsl`, then the file; `#line` directives keep the compiler's line
/// numbers those of the files, so errors read `FILE:LINE: message`.
///
/// Thread safety: the GL context's thread.
final class GLShaders {
    private(set) var programs: [String: GLuint] = [:]
    private var uniforms: [String: GLint] = [:]

    /// Work-group sizes: 1-D passes (agents) and 2-D passes (pixels).
    static let groupSize1D = 256
    static let groupSize2D = 16

    /// The programs and their kind (1-D or 2-D work groups).
    static let files: [(name: String, twoD: Bool)] = [
        ("agents", false), ("reconcile", false), ("diffuse", true), ("composite", true),
        ("bloom_bright", true), ("bloom_down", true), ("bloom_blur", true), ("bloom_up", true), ("finish", true),
        ("sort_tiles", false), ("sort_scan", false), ("clear", false),
    ]

    /// Compiles every program from `folder` (default: configs/shaders).
    /// `partitionedDeposits`: the context has GL_KHR_shader_subgroup and
    /// GL_NV_shader_subgroup_partitioned; the header enables them and
    /// defines PARTITIONED_DEPOSITS (agents.comp then adds equal deposits once).
    init(folder: String? = nil, partitionedDeposits: Bool = false) throws {
        guard let dir = folder ?? ConfigDirectory.subdirectory("shaders").path else {
            throw GLEngineError("no configs/shaders folder found (set \(ConfigDirectory.environmentVariable))")
        }
        let commonPath = dir + "/common.glsl"
        let common = try Self.read(commonPath)
        for (name, twoD) in Self.files {
            let path = dir + "/" + name + ".comp"
            let body = try Self.read(path)
            let size = twoD ? "layout(local_size_x = \(Self.groupSize2D), local_size_y = \(Self.groupSize2D)) in;"
                : "layout(local_size_x = \(Self.groupSize1D)) in;"
            // Source string 0: the header; 1: common.glsl; 2: the file.
            let features = partitionedDeposits ? Self.partitionedHeader : ""
            let sources = ["#version 430 core\n\(features)\(size)\n", "#line 1 1\n" + common, "#line 1 2\n" + body]
            programs[name] = try Self.build(sources, files: ["(header)", commonPath, path])
        }
    }

    static let partitionedHeader = """
        #extension GL_KHR_shader_subgroup_ballot : require
        #extension GL_NV_shader_subgroup_partitioned : require
        #define PARTITIONED_DEPOSITS 1

        """

    deinit {
        for p in programs.values { glDeleteProgram(p) }
    }

    static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), let s = String(data: data, encoding: .utf8) else {
            throw GLEngineError("\(path): cannot read the shader")
        }
        return s
    }

    /// Binds program `name` for the next dispatch.
    func use(_ name: String) -> GLuint {
        let p = programs[name]!
        glUseProgram(p)
        return p
    }

    /// The location of uniform `u` in program `p` (cached; −1 when unused).
    func loc(_ p: GLuint, _ u: String) -> GLint {
        let key = "\(p):\(u)"
        if let l = uniforms[key] { return l }
        let l = glGetUniformLocation(p, u)
        uniforms[key] = l
        return l
    }

    private static func build(_ sources: [String], files: [String]) throws -> GLuint {
        let s = glCreateShader(GLenum(GL_COMPUTE_SHADER))
        let cstrings = sources.map { strdup($0) }
        defer { cstrings.forEach { free($0) } }
        var ptrs: [UnsafePointer<GLchar>?] = cstrings.map { UnsafePointer($0) }
        glShaderSource(s, GLsizei(ptrs.count), &ptrs, nil)
        glCompileShader(s)
        var ok: GLint = 0
        glGetShaderiv(s, GLenum(GL_COMPILE_STATUS), &ok)
        if ok == 0 {
            let log = infoLog(s, shader: true)
            glDeleteShader(s)
            throw GLEngineError(Self.locate(log, files: files))
        }
        let p = glCreateProgram()
        glAttachShader(p, s)
        glLinkProgram(p)
        glDeleteShader(s)
        glGetProgramiv(p, GLenum(GL_LINK_STATUS), &ok)
        if ok == 0 {
            let log = infoLog(p, shader: false)
            glDeleteProgram(p)
            throw GLEngineError("\(files.last!): link: \(log)")
        }
        return p
    }

    private static func infoLog(_ object: GLuint, shader: Bool) -> String {
        var n: GLint = 0
        if shader { glGetShaderiv(object, GLenum(GL_INFO_LOG_LENGTH), &n) } else { glGetProgramiv(object, GLenum(GL_INFO_LOG_LENGTH), &n) }
        var buf = [GLchar](repeating: 0, count: Int(max(n, 1)) + 1)
        if shader { glGetShaderInfoLog(object, GLsizei(buf.count), nil, &buf) } else { glGetProgramInfoLog(object, GLsizei(buf.count), nil, &buf) }
        return String(cString: buf).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Rewrites a compiler log's "S:L(C): error" (Mesa) or "S(L) : error"
    /// (NVIDIA) prefixes into "FILE:LINE: error", one line per message.
    static func locate(_ log: String, files: [String]) -> String {
        let lines = log.split(separator: "\n").map(String.init)
        let out = lines.map { line -> String in
            let scalars = Array(line)
            var i = 0
            var source = 0, number = 0
            while i < scalars.count, let d = scalars[i].wholeNumberValue { source = source * 10 + d; i += 1 }
            guard i > 0, i < scalars.count, scalars[i] == ":" || scalars[i] == "(" else { return line }
            i += 1
            let start = i
            while i < scalars.count, let d = scalars[i].wholeNumberValue { number = number * 10 + d; i += 1 }
            guard i > start else { return line }
            // Skip the rest of the location ("(C): " or ") : ").
            while i < scalars.count, scalars[i] != " " { i += 1 }
            while i < scalars.count, scalars[i] == " " || scalars[i] == ":" { i += 1 }
            let file = source < files.count ? files[source] : "source \(source)"
            return "\(file):\(number): " + String(scalars[i...])
        }
        return out.joined(separator: "\n")
    }
}
