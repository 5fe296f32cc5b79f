import AppTestSupport
import CSDL2
import Engine
import Foundation
import ImGuiShim
import TestSupport
import Testing
@testable import LiveApp

/// The library panel and the key overlay drawn by the real OpenGL backend of
/// Dear ImGui over a real rendered frame, read back with glReadPixels. Uses
/// SDL's "offscreen" video driver (Mesa EGL), so it needs no X display.
///
/// With PHYSARUM_DOCS_DIR set it also writes the screenshots for the docs:
///     PHYSARUM_DOCS_DIR=$PWD/docs swift test --filter LivePanelScreenshotTests
@Suite(.serialized) struct LivePanelScreenshotTests {
    /// A real look: a short simulation rendered by the engine (reduced agents).
    static func frame(width: Int, height: Int) -> RGBAImage {
        var p = PresetParams()
        p[.agents] = 60_000
        let sim = Simulation(width: width, height: height, params: p, seed: 11, threads: 2)
        sim.step(p, count: 80)
        return Renderer(width: width, height: height, threads: 2).render(sim: sim, params: p)
    }

    /// The GL back buffer as an image (row 0 = top).
    static func readBack(width: Int, height: Int) -> RGBAImage {
        var raw = [UInt8](repeating: 0, count: width * height * 4)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        raw.withUnsafeMutableBytes { glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress) }
        var out = RGBAImage(width: width, height: height)
        for y in 0..<height {
            let src = (height - 1 - y) * width * 4
            out.pixels.replaceSubrange(y * width * 4..<(y + 1) * width * 4, with: raw[src..<(src + width * 4)])
        }
        return out
    }

    /// Pixels inside `r` that differ from `base`, and pixels outside it that differ.
    static func changed(_ a: RGBAImage, _ base: RGBAImage, inside r: UI.Rect) -> (inside: Int, outside: Int) {
        var inside = 0, outside = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let i = (y * a.width + x) * 4
                let same = a.pixels[i] == base.pixels[i] && a.pixels[i + 1] == base.pixels[i + 1] && a.pixels[i + 2] == base.pixels[i + 2]
                if same { continue }
                if r.contains(Float(x), Float(y)) { inside += 1 } else { outside += 1 }
            }
        }
        return (inside, outside)
    }

    /// A hidden SDL window with a GL 3.3 core context on the offscreen driver.
    final class OffscreenGL {
        let window: OpaquePointer
        let context: SDL_GLContext

        init(width: Int, height: Int) throws {
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen")  // a hint, not the environment: spawned processes are unaffected
            defer { SDL_ResetHint(SDL_HINT_VIDEODRIVER) }
            guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { throw SDLError.current("SDL_InitSubSystem") }
            SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3)
            SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3)
            SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, Int32(SDL_GL_CONTEXT_PROFILE_CORE.rawValue))
            guard let w = SDL_CreateWindow("physarum panels", 0, 0, Int32(width), Int32(height),
                                           SDL_WINDOW_OPENGL.rawValue | SDL_WINDOW_HIDDEN.rawValue) else {
                SDL_QuitSubSystem(SDL_INIT_VIDEO)
                throw SDLError.current("SDL_CreateWindow")
            }
            guard let c = SDL_GL_CreateContext(w) else {
                SDL_DestroyWindow(w)
                SDL_QuitSubSystem(SDL_INIT_VIDEO)
                throw SDLError.current("SDL_GL_CreateContext")
            }
            window = w
            context = c
            SDL_GL_MakeCurrent(w, c)
        }

        deinit {
            SDL_GL_DeleteContext(context)
            SDL_DestroyWindow(window)
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
        }
    }

    @Test func panelsDrawOnlyInsideTheirWindowsOverTheOutput() throws {
        let (w, h) = (1280, 720)
        let dir = LibraryTestDir()
        let image = Self.frame(width: 640, height: 360)
        try HeadlessImGui.run(width: Float(w), height: Float(h)) { _ in
            let gl = try OffscreenGL(width: w, height: h)
            let presenter = try GLPresenter()
            ig_style_dark(1, 0.88)
            #expect(ig_init_sdl_gl(UnsafeMutableRawPointer(gl.window), UnsafeMutableRawPointer(gl.context), "#version 330 core"))
            defer { ig_shutdown_sdl_gl() }
            image.pixels.withUnsafeBytes { presenter.upload(pixels: $0.baseAddress!, width: image.width, height: image.height) }

            let rig = LivePanelRig(dir: dir.path)
            for (i, name) in ["Night Drive", "Slow Bloom", "Ink Rain"].enumerated() {
                // Each thumbnail from a different part of the rendered frame.
                rig.shell.frame = image.cropped(x: i * 150, y: i * 60, width: 320, height: 180)
                rig.shell.dispatch(.setParam(.exposure, 0.8 + Double(i) * 0.4))
                rig.shell.dispatch(.library(.saveToSlot(i, name: name)))
            }
            rig.shell.dispatch(.library(.togglePin("user:1")))
            rig.shell.dispatch(.library(.togglePin("cellar")))
            rig.shell.dispatch(.library(.jumpToSlot(1)))
            rig.panels.library.selection = .slot(1)
            rig.panels.library.name = "Slow Bloom"
            rig.shell.settle()
            // Thumbnails as GL textures, loaded from the files just written (as after a restart).
            let thumbs = ThumbnailTextures(store: LibraryStore(directory: dir.url.appendingPathComponent("physarum")))
            rig.panels.library.thumbnailTexture = { thumbs.texture(for: $0) }
            for id in ["user:1", "user:2", "user:3"] { _ = thumbs.texture(for: id) }
            #expect(poll(seconds: 10) {
                thumbs.update()
                return ["user:1", "user:2", "user:3"].allSatisfy { thumbs.texture(for: $0) != nil }
            })

            func shot(_ draw: () -> Void) -> RGBAImage {
                var last = RGBAImage(width: 1, height: 1)
                for _ in 0..<3 {  // let window sizes settle
                    presenter.draw(viewport: (0, 0, w, h), drawable: (w, h))
                    ig_new_frame_sdl_gl()
                    draw()
                    ig_render()
                    ig_render_gl()
                    last = Self.readBack(width: w, height: h)
                    SDL_GL_SwapWindow(gl.window)
                }
                return last
            }
            let bare = shot {}
            // The picture fills the output (not a black screen).
            #expect(bare.luma().reduce(0, +) / Float(w * h) > 0.02)

            var library = rig.panels.library
            let withLibrary = shot { library.draw(model: rig.model) { _ in } }
            #expect(library.rects["thumb:slot:0"] != nil && library.rects["thumb:slot:2"] != nil)
            var keys = KeyHelpOverlay()
            let withKeys = shot { keys.draw { _ in } }
            let panel = try #require(library.rects["window"])
            let win = try #require(keys.rects["window"])
            let c1 = Self.changed(withLibrary, bare, inside: panel)
            #expect(c1.inside > 50_000 && c1.outside == 0, "library panel pixels: \(c1)")
            let c2 = Self.changed(withKeys, bare, inside: win)
            #expect(c2.inside > 50_000 && c2.outside == 0, "key overlay pixels: \(c2)")

            if let docs = ProcessInfo.processInfo.environment["PHYSARUM_DOCS_DIR"] {
                func margin(_ r: UI.Rect) -> RGBAImage {
                    withLibrary.cropped(x: Int(r.x0) - 60, y: Int(r.y0) - 12, width: Int(r.x1 - r.x0) + 120, height: Int(r.y1 - r.y0) + 24)
                }
                try PNGCodec.write(margin(panel), to: docs + "/library-panel.png")
                try PNGCodec.write(withKeys.cropped(x: Int(win.x0) - 60, y: Int(win.y0) - 12, width: Int(win.x1 - win.x0) + 120,
                                                    height: Int(win.y1 - win.y0) + 24), to: docs + "/key-overlay.png")
            }
        }
    }
}
