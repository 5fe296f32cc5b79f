import AppTestSupport
import CSDL2
import Engine
import Foundation
import ImGuiShim
import Testing
@testable import LiveCore
@testable import LiveApp

/// The retained UI layer (UILayerCache.cpp) against ImGui's own OpenGL
/// backend, in a real GL context (Mesa, SDL's offscreen driver): through a
/// sequence of UI changes — a moving slider, a window opening over the
/// editor, moving, its text shrinking, closing, an image whose texture
/// changes under the same vertices — the picture with the panels is the same
/// whether they are rasterised directly, composited by GL from the layer or
/// blended into the frame on the CPU; and an unchanged UI costs no redraw.
@Suite(.serialized) struct UILayerTests {
    /// Largest per-channel difference between two images, and how many pixels differ by more than `tolerance`.
    static func difference(_ a: RGBAImage, _ b: RGBAImage, tolerance: Int) -> (max: Int, over: Int) {
        var worst = 0, over = 0
        for p in 0..<(a.width * a.height) {
            var d = 0
            for c in 0..<3 { d = max(d, abs(Int(a.pixels[p * 4 + c]) - Int(b.pixels[p * 4 + c]))) }
            worst = max(worst, d)
            if d > tolerance { over += 1 }
        }
        return (worst, over)
    }

    @Test func everyCompositeShowsWhatTheBackendDrawsAndOnlyChangesAreRedrawn() throws {
        let (w, h) = (960, 540)
        let picture = LivePanelScreenshotTests.frame(width: w, height: h)
        var other = picture
        other.pixels = picture.pixels.map { 255 - $0 }
        try HeadlessImGui.run(width: Float(w), height: Float(h)) { _ in
            let gl = try LivePanelScreenshotTests.OffscreenGL(width: w, height: h)
            let presenter = try GLPresenter()
            let thumbnail = try GLPresenter()  // a second texture, shown in an ImGui image
            ig_style_dark(1, 0.88)
            #expect(ig_init_sdl_gl(UnsafeMutableRawPointer(gl.window), UnsafeMutableRawPointer(gl.context), "#version 330 core"))
            defer {
                ig_ui_cache_release()
                ig_shutdown_sdl_gl()
            }
            ig_ui_cache_set_enabled(true)
            ig_ui_cache_invalidate()
            picture.pixels.withUnsafeBytes { thumbnail.upload(pixels: $0.baseAddress!, width: w, height: h) }

            var model = AppModel(presets: PresetCatalog.factory().presets)
            var editor = ParamEditor()
            var menu = MenuBar()
            struct Step { var name: String; var popup: (x: Float, y: Float, text: String)?; var exposure: Double; var thumb: RGBAImage }
            let steps = [
                Step(name: "first frame", popup: nil, exposure: 1.0, thumb: picture),
                Step(name: "settling (ImGui sizes windows on their first frames)", popup: nil, exposure: 1.0, thumb: picture),
                Step(name: "settling", popup: nil, exposure: 1.0, thumb: picture),
                Step(name: "unchanged", popup: nil, exposure: 1.0, thumb: picture),
                Step(name: "slider moved", popup: nil, exposure: 1.7, thumb: picture),
                Step(name: "window opens over the editor", popup: (60, 120, "A window over the editor, with a long line of text"), exposure: 1.7, thumb: picture),
                Step(name: "window moves", popup: (140, 200, "A window over the editor, with a long line of text"), exposure: 1.7, thumb: picture),
                Step(name: "its text shrinks", popup: (140, 200, "Short"), exposure: 1.7, thumb: picture),
                Step(name: "image texture changes", popup: (140, 200, "Short"), exposure: 1.7, thumb: other),
                Step(name: "window closes", popup: nil, exposure: 0.6, thumb: other),
            ]
            var redrawn: [Int] = []
            for step in steps {
                _ = model.handle(.setParam(.exposure, step.exposure))
                step.thumb.pixels.withUnsafeBytes { thumbnail.upload(pixels: $0.baseAddress!, width: w, height: h) }
                ig_new_frame_sdl_gl()
                menu.draw(model: model, displayCount: 1, badges: []) { _ in }
                editor.draw(model: model) { _ in }
                if let p = step.popup {
                    ig_set_next_window_pos(p.x, p.y, 1, 0, 0)  // ImGuiCond_Always
                    ig_set_next_window_size(360, 220, 1)
                    if ig_begin("Popup over the editor", nil, 0) {
                        UI.text(p.text)
                        ig_image(thumbnail.textureID, 160, 90)
                    }
                    ig_end()
                }
                ig_render()

                // Reference: ImGui's backend over the picture.
                picture.pixels.withUnsafeBytes { presenter.upload(pixels: $0.baseAddress!, width: w, height: h) }
                presenter.draw(viewport: (0, 0, w, h), drawable: (w, h))
                ig_render_gl()
                let direct = LivePanelScreenshotTests.readBack(width: w, height: h)

                // The layer (kept incrementally, with its CPU copy).
                #expect(ig_ui_layer_update(true), "\(step.name)")
                redrawn.append(Int(ig_ui_cache_dirty_pixels()))
                presenter.draw(viewport: (0, 0, w, h), drawable: (w, h))
                ig_ui_layer_composite_gl()
                let viaGL = LivePanelScreenshotTests.readBack(width: w, height: h)

                var blended = picture
                let ok = blended.pixels.withUnsafeMutableBytes { ig_ui_layer_composite_cpu($0.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(w), Int32(h)) }
                #expect(ok, "\(step.name)")
                blended.pixels.withUnsafeBytes { presenter.upload(pixels: $0.baseAddress!, width: w, height: h) }
                presenter.draw(viewport: (0, 0, w, h), drawable: (w, h))
                let viaCPU = LivePanelScreenshotTests.readBack(width: w, height: h)
                SDL_GL_SwapWindow(gl.window)

                // The panels are there at all (the comparison means something).
                let bare = Self.difference(direct, picture, tolerance: 8)
                #expect(bare.over > w * h / 50, "\(step.name): the panels cover \(bare.over) pixels")
                // Same picture, up to 8-bit rounding of the blend order.
                for (how, img) in [("GL composite", viaGL), ("CPU blend", viaCPU)] {
                    let d = Self.difference(img, direct, tolerance: 2)
                    #expect(d.over == 0 && d.max <= 3, "\(step.name), \(how): \(d.over) pixels differ by more than 2, worst \(d.max)")
                }
            }
            // What was redrawn: everything first; nothing when nothing changed;
            // a moved slider costs a small part of the editor.
            #expect(redrawn[0] == w * h)
            #expect(redrawn[3] == 0, "unchanged: \(redrawn)")
            #expect(redrawn[4] > 0 && redrawn[4] < w * h / 20, "slider moved: \(redrawn[4]) pixels redrawn")
            #expect(redrawn[8] > 0, "a changed texture is redrawn")
        }
    }

    @Test func theCompositeFollowsTheEnvironmentAndTheKindOfGL() {
        #expect(ImGuiLayer.composite(environment: [:], softwareGL: true) == .cpu)
        #expect(ImGuiLayer.composite(environment: [:], softwareGL: false) == .gl)
        #expect(ImGuiLayer.composite(environment: ["PHYSARUM_UI_CACHE": "0"], softwareGL: true) == .direct)
        #expect(ImGuiLayer.composite(environment: ["PHYSARUM_UI_COMPOSITE": "gl"], softwareGL: true) == .gl)
        #expect(ImGuiLayer.composite(environment: ["PHYSARUM_UI_COMPOSITE": "bogus"], softwareGL: false) == .gl)
    }
}
