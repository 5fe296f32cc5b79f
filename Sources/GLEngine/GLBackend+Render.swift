import CGL
import Engine

/// The post chain's textures at one output size: the history (composite after
/// feedback), three bloom levels with their blur temporaries, and the RGBA8
/// frame with an r32ui view the finishing pass writes packed pixels through.
/// Thread safety: the GL context's thread.
final class PostTargets {
    let history: GLTexture
    let levels: [GLTexture]
    let temps: [GLTexture]
    let frame: GLTexture
    let frameWords: GLTexture

    init(width: Int, height: Int) {
        history = GLTexture(width: width, height: height, format: GL_RGBA32F, bytesPerTexel: 16)
        var lv: [GLTexture] = [], tp: [GLTexture] = []
        var w = (width + 3) / 4, h = (height + 3) / 4
        for _ in 0..<3 {
            lv.append(GLTexture(width: max(1, w), height: max(1, h), format: GL_RGBA32F, bytesPerTexel: 16))
            tp.append(GLTexture(width: max(1, w), height: max(1, h), format: GL_RGBA32F, bytesPerTexel: 16))
            w = (w + 1) / 2
            h = (h + 1) / 2
        }
        levels = lv
        temps = tp
        frame = GLTexture(width: width, height: height, format: GL_RGBA8, bytesPerTexel: 4)
        frameWords = GLTexture(viewOf: frame, format: GL_R32UI)
        glBindTexture(GLenum(GL_TEXTURE_2D), frame.name)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
    }

    var bytes: Int { history.bytes + frame.bytes + (levels + temps).map(\.bytes).reduce(0, +) }
}

extension GLBackend {
    public func render(params p: PresetParams, brightness: Double, into image: inout RGBAImage) -> Bool {
        var s = RenderSettings(p)
        if !historyValid { s.feedback = 0 }
        timer.time("composite") { composite(s) }
        historyValid = true
        if s.bloomOn { timer.time("bloom") { bloom(s) } }
        timer.time("finish") { finish(s, brightness: brightness) }
        return false
    }

    private func composite(_ s: RenderSettings) {
        let prog = shaders.use("composite")
        trails.bind(0); counts.bind(2)
        post.history.bindImage(0, access: GL_READ_WRITE, format: GL_RGBA32F)
        let mapping = CoverMapping(outWidth: outputWidth, outHeight: outputHeight, fieldWidth: fieldWidth, fieldHeight: fieldHeight)
        let mode: GLint = s.kaleidoscope > 0 ? 2 : (mapping.isIdentity ? 0 : 1)
        glUniform2i(shaders.loc(prog, "uField"), GLint(fieldWidth), GLint(fieldHeight))
        glUniform2i(shaders.loc(prog, "uOut"), GLint(outputWidth), GLint(outputHeight))
        glUniform1i(shaders.loc(prog, "uMode"), mode)
        glUniform1f(shaders.loc(prog, "uScale"), Float(mapping.scale))
        glUniform1i(shaders.loc(prog, "uAxes"), GLint(max(1, s.kaleidoscope)))
        glUniform1f(shaders.loc(prog, "uTrailGain"), s.trailGain)
        glUniform1f(shaders.loc(prog, "uGlowGain"), s.glowGain)
        let additive = s.blend == .additive
        glUniform1i(shaders.loc(prog, "uAdditive"), additive ? 1 : 0)
        glUniform3f(shaders.loc(prog, "uBackground"), s.background.x, s.background.y, s.background.z)
        let colors = s.colors.flatMap { c -> [Float] in
            let k = additive ? c : SIMD3<Float>(repeating: 1) - c
            return [k.x, k.y, k.z]
        }
        glUniform3fv(shaders.loc(prog, "uColor"), 3, colors)
        glUniform1f(shaders.loc(prog, "uFeedback"), s.feedback)
        Self.dispatch2D(outputWidth, outputHeight)
        Self.barrier()
    }

    private func bloom(_ s: RenderSettings) {
        let l = post.levels, t = post.temps
        var prog = shaders.use("bloom_bright")
        post.history.bindImage(0, access: GL_READ_ONLY, format: GL_RGBA32F)
        l[0].bindImage(1, access: GL_WRITE_ONLY, format: GL_RGBA32F)
        glUniform2i(shaders.loc(prog, "uOut"), GLint(outputWidth), GLint(outputHeight))
        glUniform2i(shaders.loc(prog, "uSize"), GLint(l[0].width), GLint(l[0].height))
        glUniform3f(shaders.loc(prog, "uBackground"), s.background.x, s.background.y, s.background.z)
        glUniform1f(shaders.loc(prog, "uThreshold"), s.bloomThreshold)
        Self.dispatch2D(l[0].width, l[0].height)
        Self.barrier()

        prog = shaders.use("bloom_down")
        for i in 1..<3 {
            l[i - 1].bindImage(0, access: GL_READ_ONLY, format: GL_RGBA32F)
            l[i].bindImage(1, access: GL_WRITE_ONLY, format: GL_RGBA32F)
            glUniform2i(shaders.loc(prog, "uSrcSize"), GLint(l[i - 1].width), GLint(l[i - 1].height))
            glUniform2i(shaders.loc(prog, "uDstSize"), GLint(l[i].width), GLint(l[i].height))
            Self.dispatch2D(l[i].width, l[i].height)
            Self.barrier()
        }

        prog = shaders.use("bloom_blur")
        glUniform1fv(shaders.loc(prog, "uKernel"), 9, Renderer.bloomKernel)
        for i in 0..<3 {
            glUniform2i(shaders.loc(prog, "uSize"), GLint(l[i].width), GLint(l[i].height))
            for (src, dst, step) in [(l[i], t[i], (1, 0)), (t[i], l[i], (0, 1))] {
                src.bindImage(0, access: GL_READ_ONLY, format: GL_RGBA32F)
                dst.bindImage(1, access: GL_WRITE_ONLY, format: GL_RGBA32F)
                glUniform2i(shaders.loc(prog, "uStep"), GLint(step.0), GLint(step.1))
                Self.dispatch2D(l[i].width, l[i].height)
                Self.barrier()
            }
        }

        prog = shaders.use("bloom_up")
        for i in stride(from: 2, to: 0, by: -1) {
            l[i].bindImage(0, access: GL_READ_ONLY, format: GL_RGBA32F)
            l[i - 1].bindImage(1, access: GL_READ_WRITE, format: GL_RGBA32F)
            glUniform2i(shaders.loc(prog, "uSrcSize"), GLint(l[i].width), GLint(l[i].height))
            glUniform2i(shaders.loc(prog, "uDstSize"), GLint(l[i - 1].width), GLint(l[i - 1].height))
            Self.dispatch2D(l[i - 1].width, l[i - 1].height)
            Self.barrier()
        }
    }

    private func finish(_ s: RenderSettings, brightness: Double) {
        let prog = shaders.use("finish")
        post.history.bindImage(0, access: GL_READ_ONLY, format: GL_RGBA32F)
        post.levels[0].bindImage(1, access: GL_READ_ONLY, format: GL_RGBA32F)
        post.frameWords.bindImage(2, access: GL_WRITE_ONLY, format: GL_R32UI)
        glUniform2i(shaders.loc(prog, "uOut"), GLint(outputWidth), GLint(outputHeight))
        glUniform2i(shaders.loc(prog, "uBloomSize"), GLint(post.levels[0].width), GLint(post.levels[0].height))
        glUniform1f(shaders.loc(prog, "uBloomK"), s.bloomOn ? s.bloom * Renderer.bloomGain : 0)
        glUniform1f(shaders.loc(prog, "uVignetteK"), s.vignetteOn ? s.vignette * Renderer.vignetteDepth : 0)
        glUniform1f(shaders.loc(prog, "uVignetteStart"), Renderer.vignetteStart)
        glUniform1f(shaders.loc(prog, "uSaturation"), s.saturation)
        glUniform1f(shaders.loc(prog, "uContrast"), s.contrast)
        // The CPU's RGBAImage.scaleBrightness: bytes × ⌊alpha·256⌋ / 256, rounded.
        let alpha: GLuint = brightness < 1 ? GLuint(max(0, brightness) * 256) : 256
        glUniform1ui(shaders.loc(prog, "uAlpha"), alpha)
        Self.dispatch2D(outputWidth, outputHeight)
        Self.barrier()
    }
}
