import CGL

/// A shader storage buffer of `bytes` bytes (glBufferData, dynamic copy),
/// zeroed unless its user writes all of it first (`zeroed: false`).
/// Thread safety: the GL context's thread.
final class GLBuffer {
    let name: GLuint
    let bytes: Int

    init(bytes: Int, data: UnsafeRawPointer? = nil, zeroed: Bool = true) {
        var n: GLuint = 0
        glGenBuffers(1, &n)
        name = n
        self.bytes = max(bytes, 16)
        glBindBuffer(GLenum(GL_SHADER_STORAGE_BUFFER), n)
        glBufferData(GLenum(GL_SHADER_STORAGE_BUFFER), GLsizeiptr(self.bytes), data, GLenum(GL_DYNAMIC_COPY))
        if data == nil && zeroed { clear() }
    }

    deinit {
        var n = name
        glDeleteBuffers(1, &n)
    }

    /// Binds to shader storage binding point `index`.
    func bind(_ index: Int) { glBindBufferBase(GLenum(GL_SHADER_STORAGE_BUFFER), GLuint(index), name) }

    /// Zeroes the buffer (glClearBufferData: about 30 GB/s on the H200, so
    /// the engine zeroes per-step buffers with a compute pass instead).
    func clear() {
        var zero: UInt32 = 0
        glBindBuffer(GLenum(GL_SHADER_STORAGE_BUFFER), name)
        glClearBufferData(GLenum(GL_SHADER_STORAGE_BUFFER), GLenum(GL_R32UI), GLenum(GL_RED_INTEGER), GLenum(GL_UNSIGNED_INT), &zero)
    }

    /// Writes `count` bytes at byte `offset` (glBufferSubData).
    func write(_ data: UnsafeRawPointer, offset: Int, count: Int) {
        guard count > 0 else { return }
        glBindBuffer(GLenum(GL_SHADER_STORAGE_BUFFER), name)
        glBufferSubData(GLenum(GL_SHADER_STORAGE_BUFFER), GLintptr(offset), GLsizeiptr(count), data)
    }

    /// Reads `count` bytes at byte `offset` (glGetBufferSubData).
    func read(into data: UnsafeMutableRawPointer, offset: Int, count: Int) {
        guard count > 0 else { return }
        glMemoryBarrier(GLbitfield(GL_ALL_BARRIER_BITS))
        glBindBuffer(GLenum(GL_SHADER_STORAGE_BUFFER), name)
        glGetBufferSubData(GLenum(GL_SHADER_STORAGE_BUFFER), GLintptr(offset), GLsizeiptr(count), data)
    }
}

/// A texture with immutable storage (glTexStorage2D/3D).
/// Thread safety: the GL context's thread.
final class GLTexture {
    let name: GLuint
    let width: Int, height: Int
    let bytes: Int

    /// A 2-D texture (`layers` = 0) or a 2-D array texture of `format`.
    init(width: Int, height: Int, layers: Int = 0, format: Int32, bytesPerTexel: Int) {
        var n: GLuint = 0
        glGenTextures(1, &n)
        name = n
        self.width = width
        self.height = height
        bytes = width * height * max(layers, 1) * bytesPerTexel
        let target = GLenum(layers > 0 ? GL_TEXTURE_2D_ARRAY : GL_TEXTURE_2D)
        glBindTexture(target, n)
        if layers > 0 {
            glTexStorage3D(target, 1, GLenum(format), GLsizei(width), GLsizei(height), GLsizei(layers))
        } else {
            glTexStorage2D(target, 1, GLenum(format), GLsizei(width), GLsizei(height))
        }
        for (p, v) in [(GL_TEXTURE_MIN_FILTER, GL_NEAREST), (GL_TEXTURE_MAG_FILTER, GL_NEAREST),
                       (GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE), (GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE)] {
            glTexParameteri(target, GLenum(p), v)
        }
    }

    /// A view of `base` with another format of the same texel size (glTextureView).
    init(viewOf base: GLTexture, format: Int32) {
        var n: GLuint = 0
        glGenTextures(1, &n)
        name = n
        width = base.width
        height = base.height
        bytes = 0
        glTextureView(n, GLenum(GL_TEXTURE_2D), base.name, GLenum(format), 0, 1, 0, 1)
    }

    deinit {
        var n = name
        glDeleteTextures(1, &n)
    }

    /// Binds level 0 (all layers) to image unit `unit`.
    func bindImage(_ unit: Int, access: Int32, format: Int32) {
        glBindImageTexture(GLuint(unit), name, 0, GLboolean(GL_TRUE), 0, GLenum(access), GLenum(format))
    }
}

/// GL timer queries around passes (glQueryCounter): a frame's marks are
/// read (waiting for the GPU) only when asked.
/// Thread safety: the GL context's thread.
final class GLPassTimer {
    var enabled = false
    private var pool: [GLuint] = []
    private var used = 0
    private var marks: [(name: String, begin: GLuint, end: GLuint)] = []

    deinit {
        if !pool.isEmpty { glDeleteQueries(GLsizei(pool.count), pool) }
    }

    private func next() -> GLuint {
        if used == pool.count {
            var q: GLuint = 0
            glGenQueries(1, &q)
            pool.append(q)
        }
        used += 1
        return pool[used - 1]
    }

    /// Runs `body` between two timestamps recorded as pass `name`.
    func time(_ name: String, _ body: () -> Void) {
        guard enabled else { return body() }
        let a = next()
        glQueryCounter(a, GLenum(GL_TIMESTAMP))
        body()
        let b = next()
        glQueryCounter(b, GLenum(GL_TIMESTAMP))
        marks.append((name, a, b))
    }

    /// Milliseconds per pass name (summed, in first-seen order) since the
    /// last `reset`; waits for the GPU.
    func read() -> [(String, Double)] {
        var order: [String] = []
        var sums: [String: Double] = [:]
        for m in marks {
            var t0: GLuint64 = 0, t1: GLuint64 = 0
            glGetQueryObjectui64v(m.begin, GLenum(GL_QUERY_RESULT), &t0)
            glGetQueryObjectui64v(m.end, GLenum(GL_QUERY_RESULT), &t1)
            if sums[m.name] == nil { order.append(m.name) }
            sums[m.name, default: 0] += Double(t1 &- t0) / 1e6
        }
        return order.map { ($0, sums[$0]!) }
    }

    /// Milliseconds from the first mark's start to the last mark's end (waits for the GPU).
    func span() -> Double? {
        guard let first = marks.first, let last = marks.last else { return nil }
        var t0: GLuint64 = 0, t1: GLuint64 = 0
        glGetQueryObjectui64v(first.begin, GLenum(GL_QUERY_RESULT), &t0)
        glGetQueryObjectui64v(last.end, GLenum(GL_QUERY_RESULT), &t1)
        return Double(t1 &- t0) / 1e6
    }

    /// Forgets the marks (queries are reused).
    func reset() {
        marks.removeAll(keepingCapacity: true)
        used = 0
    }
}
