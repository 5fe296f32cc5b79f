import Engine
import Foundation
import LiveCore
import Storage

/// `present-720p`: what showing a finished 1280×720 frame costs the live
/// loop — texture upload, the textured quad and the buffer swap — in a real
/// SDL window (vsync off). Under Xvfb the GL is software (llvmpipe) and takes
/// CPU from the simulation, which is why it is measured at all. Needs a
/// display; without one the scenario says so and reports no figures.
enum PresentBench {
    static let scenarios: [BenchScenario] = [
        BenchScenario(name: "present-720p", summary: "upload + draw + swap of a 1280x720 frame in an SDL window (needs a display)") { o in
            try measure(o, editor: nil)
        },
        BenchScenario(name: "present-720p-editor", summary: "present-720p with the menu bar and parameter editor over it (ImGui through the retained layer, as live)") { o in
            try measure(o, editor: .still)
        },
        BenchScenario(name: "present-720p-editor-busy", summary: "present-720p-editor with a slider moving every frame (the layer redraws what changed)") { o in
            try measure(o, editor: .busy)
        },
        BenchScenario(name: "present-720p-editor-direct", summary: "present-720p-editor rasterised by ImGui's GL backend every frame (the baseline)") { o in
            try measure(o, editor: .direct)
        },
    ]

    enum Editor {
        /// The editor as drawn when nobody touches it.
        case still
        /// One slider moving every frame (a drag, a remote, a morph).
        case busy
        /// `still`, without the retained layer.
        case direct
    }

    static let framesPerRepeat = 60

    /// Bench scenarios run on the main thread, where SDL and GL must live.
    static func measure(_ o: BenchOptions, editor mode: Editor?) throws -> [(String, JSONNode)] {
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
        let gui = mode == nil ? nil : try ImGuiLayer(window: window, scale: 1)
        if mode == .direct { gui?.setComposite(.direct) }
        var model = AppModel(presets: PresetCatalog.factory().presets)
        var frameIndex = 0
        var uiPixels = (redrawn: 0, composited: 0)
        var editor = ParamEditor()
        var menu = MenuBar()
        // A real picture (a rendered frame), so upload costs are representative.
        var p = PresetParams()
        p[.agents] = 100_000
        let sim = Simulation(width: w, height: h, params: p, seed: 1, threads: o.threads)
        sim.step(p, count: 20)
        let image = Renderer(width: w, height: h, threads: o.threads).render(sim: sim, params: p)
        // The live loop renders a fresh frame each time; here the panels'
        // boxes of the last frame are restored from `image` instead.
        var work = image
        let clock = ContinuousClock()
        var split = (ui: 0.0, upload: 0.0, swap: 0.0)
        func frame() {
            let drawable = window.drawableSize
            let t0 = clock.now
            var panelsInImage = false
            if let gui {
                _ = SDLEvents.poll(forward: ImGuiLayer.process)
                if mode == .busy {
                    frameIndex += 1
                    _ = model.handle(.setParam(.exposure, 0.5 + Double(frameIndex % 120) / 100))
                }
                gui.beginFrame()
                menu.draw(model: model, displayCount: 1, badges: []) { _ in }
                editor.draw(model: model) { _ in }
                let boxes = gui.layerBoxes(max: 64)
                work.pixels.withUnsafeMutableBytes { out in
                    image.pixels.withUnsafeBytes { src in
                        for (x, y, bw, bh) in boxes {
                            for row in y..<min(y + bh, h) {
                                let i = (row * w + x) * 4
                                (out.baseAddress! + i).copyMemory(from: src.baseAddress! + i, byteCount: min(bw, w - x) * 4)
                            }
                        }
                    }
                }
                panelsInImage = gui.endFrame(blendingInto: &work)
                uiPixels.redrawn += gui.layerPixels.redrawn
                uiPixels.composited += gui.layerPixels.composited
            }
            let t1 = clock.now
            work.pixels.withUnsafeBytes { presenter.upload(pixels: $0.baseAddress!, width: w, height: h) }
            presenter.draw(viewport: (0, 0, drawable.width, drawable.height), drawable: drawable)
            if let gui, !panelsInImage { gui.drawOverPicture() }
            let t2 = clock.now
            window.swap()
            let t3 = clock.now
            split.ui += (t1 - t0).seconds; split.upload += (t2 - t1).seconds; split.swap += (t3 - t2).seconds
        }
        for _ in 0..<10 { frame() }
        split = (0, 0, 0)
        uiPixels = (0, 0)
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
                ("presentMsPerFrame", JSONNode.rounded(median(times) * 1000, 3)),
                ("cpuMsPerFrame", JSONNode.rounded(median(cpu) * 1000, 3)),
                // Mean per frame; a software GL rasterises inside the swap. ui:
                // building the ImGui frame, updating the layer, a CPU blend;
                // upload: texture upload, the picture's draw, a GL composite.
                ("splitMs", .object([("ui", JSONNode.rounded(split.ui * perFrame, 3)), ("upload", JSONNode.rounded(split.upload * perFrame, 3)),
                                     ("swap", JSONNode.rounded(split.swap * perFrame, 3))])),
                ("uiVertices", .int(gui?.vertexCount ?? 0)),
                ("uiComposite", .string(gui?.composite.rawValue ?? "none")),
                // Per frame: pixels the retained layer rasterised again, and blended over the picture.
                ("uiRedrawnPixels", .int(uiPixels.redrawn / (o.repeats * framesPerRepeat))),
                ("uiCompositedPixels", .int(uiPixels.composited / (o.repeats * framesPerRepeat))),
                ("glRenderer", .string(presenter.rendererName))]
    }


}
