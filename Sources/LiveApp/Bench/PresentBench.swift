import ImGuiShim
import Engine
import Foundation

/// `present-720p`: what showing a finished 1280×720 frame costs the live
/// loop — texture upload, the textured quad and the buffer swap — in a real
/// SDL window (vsync off). Under Xvfb the GL is software (llvmpipe) and takes
/// CPU from the simulation, which is why it is measured at all. Needs a
/// display; without one the scenario says so and reports no figures.
enum PresentBench {
    static let scenarios: [BenchScenario] = [
        BenchScenario(name: "present-720p", summary: "upload + draw + swap of a 1280x720 frame in an SDL window (needs a display)") { o in
            try measure(o, editor: false)
        },
        BenchScenario(name: "present-720p-editor", summary: "present-720p with the menu bar and parameter editor drawn over it (ImGui)") { o in
            try measure(o, editor: true)
        },
    ]

    static let framesPerRepeat = 60

    /// Bench scenarios run on the main thread, where SDL and GL must live.
    static func measure(_ o: BenchOptions, editor withEditor: Bool) throws -> [(String, JSONValue)] {
        let (w, h) = o.size ?? (1280, 720)
        let window: SDLWindow
        do {
            window = try SDLWindow(title: "physarum bench", width: w, height: h, swapInterval: 0)
        } catch {
            return [("skipped", .string("no display: \(error)"))]
        }
        let presenter = try GLPresenter()
        // The live window's panels as a user first sees them: menu bar and the
        // parameter editor (ImGui frame built and drawn every frame).
        let gui = withEditor ? try ImGuiLayer(window: window, scale: 1) : nil
        let model = AppModel(presets: PresetCatalog.factory().presets)
        var editor = ParamEditor()
        // A real picture (a rendered frame), so upload costs are representative.
        var p = PresetParams()
        p[.agents] = 100_000
        let sim = Simulation(width: w, height: h, params: p, seed: 1, threads: o.threads)
        sim.step(p, count: 20)
        let image = Renderer(width: w, height: h, threads: o.threads).render(sim: sim, params: p)
        let clock = ContinuousClock()
        var split = (upload: 0.0, draw: 0.0, swap: 0.0)
        func frame() {
            let drawable = window.drawableSize
            let t0 = clock.now
            image.pixels.withUnsafeBytes { presenter.upload(pixels: $0.baseAddress!, width: w, height: h) }
            let t1 = clock.now
            presenter.draw(viewport: (0, 0, drawable.width, drawable.height), drawable: drawable)
            if let gui {
                _ = SDLEvents.poll(feedImGui: true)
                gui.beginFrame()
                MenuBar.draw(model: model, displayCount: 1) { _ in }
                editor.draw(model: model) { _ in }
                gui.endFrame()
            }
            let t2 = clock.now
            window.swap()
            let t3 = clock.now
            split.upload += (t1 - t0).seconds; split.draw += (t2 - t1).seconds; split.swap += (t3 - t2).seconds
        }
        for _ in 0..<10 { frame() }
        split = (0, 0, 0)
        var times: [Double] = [], cpu: [Double] = []
        for _ in 0..<o.repeats {
            let c0 = processCPUSeconds()
            times.append(timeSeconds { for _ in 0..<framesPerRepeat { frame() } } / Double(framesPerRepeat))
            cpu.append((processCPUSeconds() - c0) / Double(framesPerRepeat))
        }
        let d = window.drawableSize
        let perFrame = 1000 / Double(o.repeats * framesPerRepeat)
        return [("width", .int(w)), ("height", .int(h)), ("drawable", .string("\(d.width)x\(d.height)")),
                ("framesPerRepeat", .int(framesPerRepeat)), ("repeats", .int(o.repeats)),
                ("presentMsPerFrame", rounded(median(times) * 1000, 3)),
                ("cpuMsPerFrame", rounded(median(cpu) * 1000, 3)),
                // Mean per frame; a software GL rasterises inside the swap. draw
                // includes building the ImGui frame when the editor is on.
                ("splitMs", .object([("upload", rounded(split.upload * perFrame, 3)), ("draw", rounded(split.draw * perFrame, 3)),
                                     ("swap", rounded(split.swap * perFrame, 3))])),
                ("uiVertices", .int(gui == nil ? 0 : Int(ig_draw_vertex_count()))),
                ("glRenderer", .string(presenter.rendererName))]
    }


}
