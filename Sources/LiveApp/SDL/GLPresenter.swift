import CSDL2
import Engine

/// Draws an RGBA8 frame over the whole viewport with OpenGL 3.3 core: one
/// texture, one full-screen triangle. The frame is uploaded straight from the
/// renderer's buffer (no intermediate copy).
///
/// Thread safety: main thread, with the owning window's context current.
final class GLPresenter {
    private var texture: GLuint = 0
    private var vao: GLuint = 0
    private var program: GLuint = 0
    private var texSize = (width: 0, height: 0)
    private var currentFilter = GL_LINEAR

    init() throws {
        program = try Self.link(vertex: Self.vertexSource, fragment: """
            #version 330 core
            in vec2 uv;
            out vec4 color;
            uniform sampler2D frame;
            void main() { color = vec4(texture(frame, uv).rgb, 1.0); }
            """)
        glGenVertexArrays(1, &vao)
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    }

    deinit {
        glDeleteTextures(1, &texture)
        glDeleteVertexArrays(1, &vao)
        glDeleteProgram(program)
    }

    /// The GL renderer string (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)").
    var rendererName: String {
        glGetString(GLenum(GL_RENDERER)).map { String(cString: $0) } ?? "unknown"
    }

    /// Uploads a frame of `width`×`height` RGBA8 pixels (row 0 = top).
    func upload(pixels: UnsafeRawPointer, width: Int, height: Int) {
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        if texSize != (width, height) {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), pixels)
            texSize = (width, height)
        } else {
            glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(width), GLsizei(height),
                            GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), pixels)
        }
    }

    /// Draws `texture` (an RGBA8 frame of `size`, row 0 at the top, made on
    /// the GPU in this context) instead of the uploaded frame.
    func draw(texture: UInt32, size: (width: Int, height: Int),
              viewport: (x: Int, y: Int, width: Int, height: Int), drawable: (width: Int, height: Int)) {
        let own = (self.texture, texSize)
        self.texture = texture
        texSize = size
        currentFilter = -1  // the other texture's filter is unknown
        draw(viewport: viewport, drawable: drawable)
        (self.texture, texSize) = own
        currentFilter = -1
    }

    /// Clears to black and draws the last uploaded frame into the viewport rectangle.
    func draw(viewport: (x: Int, y: Int, width: Int, height: Int), drawable: (width: Int, height: Int)) {
        glViewport(0, 0, GLsizei(drawable.width), GLsizei(drawable.height))
        let covers = viewport.x == 0 && viewport.y == 0 && viewport.width == drawable.width && viewport.height == drawable.height
        // The frame covers the drawable: clearing first would only cost a
        // pass over the buffer (a software GL pays for it in CPU time).
        if !covers || texSize.width == 0 {
            glClearColor(0, 0, 0, 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        guard texSize.width > 0 else { return }
        glViewport(GLint(viewport.x), GLint(viewport.y), GLsizei(viewport.width), GLsizei(viewport.height))
        glUseProgram(program)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        // One texel per pixel: nearest sampling gives the same picture, cheaper.
        let filter = texSize == (viewport.width, viewport.height) ? GL_NEAREST : GL_LINEAR
        if filter != currentFilter {
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
            currentFilter = filter
        }
        glBindVertexArray(vao)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        glBindVertexArray(0)
        glViewport(0, 0, GLsizei(drawable.width), GLsizei(drawable.height))
    }

    /// Reads the back buffer (the frame with any UI drawn over it) as an
    /// RGBA image, row 0 at the top (calls glReadPixels).
    func readBack(width: Int, height: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
        glReadBuffer(GLenum(GL_BACK))
        pixels.withUnsafeMutableBytes {
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        var flipped = [UInt8](repeating: 0, count: pixels.count)
        let row = width * 4
        for y in 0..<height {
            flipped.replaceSubrange(y * row..<(y + 1) * row, with: pixels[(height - 1 - y) * row..<(height - y) * row])
        }
        for i in stride(from: 3, to: flipped.count, by: 4) { flipped[i] = 255 }
        return RGBAImage(width: width, height: height, pixels: flipped)
    }

    /// One full-screen triangle; `uv` has row 0 of the frame at the top.
    private static let vertexSource = """
        #version 330 core
        out vec2 uv;
        void main() {
            vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
            uv = vec2(p.x, 1.0 - p.y);
            gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
        }
        """

    /// The GL texture holding the frame (for thumbnails in the UI).
    var textureID: UInt32 { texture }

    /// The info log of a shader or program whose `status` query says it failed, else nil.
    private static func failureLog(_ object: GLuint, _ status: GLenum,
                                   _ query: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
                                   _ info: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void) -> String? {
        var ok: GLint = 0
        query(object, status, &ok)
        guard ok == 0 else { return nil }
        var log = [GLchar](repeating: 0, count: 1024)
        info(object, 1024, nil, &log)
        return String(cString: log)
    }

    private static func compile(_ type: GLenum, _ source: String) throws -> GLuint {
        let s = glCreateShader(type)
        source.withCString { p in
            var ptr: UnsafePointer<GLchar>? = p
            glShaderSource(s, 1, &ptr, nil)
        }
        glCompileShader(s)
        if let log = failureLog(s, GLenum(GL_COMPILE_STATUS), glGetShaderiv, glGetShaderInfoLog) {
            glDeleteShader(s)
            throw SDLError(function: "glCompileShader", message: log)
        }
        return s
    }

    private static func link(vertex: String, fragment: String) throws -> GLuint {
        let v = try compile(GLenum(GL_VERTEX_SHADER), vertex)
        let f = try compile(GLenum(GL_FRAGMENT_SHADER), fragment)
        let p = glCreateProgram()
        glAttachShader(p, v)
        glAttachShader(p, f)
        glLinkProgram(p)
        glDeleteShader(v)
        glDeleteShader(f)
        if let log = failureLog(p, GLenum(GL_LINK_STATUS), glGetProgramiv, glGetProgramInfoLog) {
            throw SDLError(function: "glLinkProgram", message: log)
        }
        glUseProgram(p)
        glUniform1i(glGetUniformLocation(p, "frame"), 0)
        return p
    }
}
