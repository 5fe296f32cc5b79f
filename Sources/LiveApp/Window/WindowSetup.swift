import Engine
import Foundation
import GLEngine
import LiveCore

/// What the live window needs before anything runs in it: the SDL window
/// with its GL context (4.3 for the GPU engine, else 3.3), the editor window
/// that presents the pipeline's frames with the panels over them, the GPU
/// fence, the engine and its pipeline, and the `--stats` / `--frame-times`
/// files. `open` prints one line and returns nil when the window cannot work.
struct WindowSetup {
    let editorWindow: EditorWindow
    let pipeline: FramePipeline
    /// At most two frames queued on the GPU; one with the CPU engine, whose
    /// picture is presented as soon as it is done.
    let fence: GLFrameFence
    let statsWriter: LineWriter?
    let frameTimesWriter: LineWriter?

    static func open(options: LiveOptions, startup: inout LiveStartup) -> WindowSetup? {
        let session = startup.session
        let size = options.windowSize ?? (session.windowWidth, session.windowHeight)
        // The GPU engine needs an OpenGL 4.3 context; `auto` falls back to 3.3 (and the CPU).
        let versions: [(Int32, Int32)] = switch options.backend {
        case .cpu: [(3, 3)]
        case .gpu: [(4, 3)]
        case .auto: [(4, 3), (3, 3)]
        }
        var window: SDLWindow?
        var lastError: Error?
        for v in versions where window == nil {
            do {
                window = try SDLWindow(title: "Physarum Live", width: size.width, height: size.height,
                                       display: options.display ?? session.display,
                                       fullscreen: options.fullscreen || session.fullscreen,
                                       position: options.display == nil && options.windowSize == nil ? session.windowX.flatMap { x in session.windowY.map { (x, $0) } } : nil,
                                       swapInterval: options.maxFPS == nil ? nil : 0, glVersion: v)
            } catch {
                lastError = error
            }
        }
        guard let window else {
            printError("physarum: no display available (\(lastError.map { "\($0)" } ?? "SDL gave no reason")); use `physarum render` for frames without one")
            return nil
        }
        let editorWindow: EditorWindow
        do {
            editorWindow = EditorWindow(window: window, presenter: try GLPresenter(), gui: try ImGuiLayer(window: window, scale: startup.model.uiScale))
        } catch {
            printError("physarum: OpenGL setup failed: \(error)")
            return nil
        }
        if let n = editorWindow.gui.fontNotice { _ = startup.model.handle(.notice(n, .warning)) }
        editorWindow.gui.reportLayout(options.stateFile != nil)  // the state file's `layout`
        let statsWriter: LineWriter?, frameTimesWriter: LineWriter?
        do {
            statsWriter = try options.stats.map { try LineWriter(path: $0) }
        } catch {
            printError("physarum: --stats: \(error)")
            return nil
        }
        do {
            frameTimesWriter = try options.frameTimes.map { try LineWriter(path: $0, backlog: 4096) }
        } catch {
            printError("physarum: --frame-times: \(error)")
            return nil
        }
        let pipeline: FramePipeline
        do {
            window.makeCurrent()
            let engine = try EngineSetup.make(options.backend, contextCurrent: true, field: options.field ?? (1280, 720), output: (16, 16),
                                              params: startup.model.base, seed: startup.seed,
                                              threads: options.threads ?? Simulation.defaultThreads)
            startup.model.agentLimit = EngineSetup.agentLimit(of: engine)  // holds every agent count from here on, with a notice
            pipeline = FramePipeline(backend: engine, params: startup.model.base)
        } catch {
            printError("physarum: --backend \(options.backend.rawValue): \(error)")
            return nil
        }
        pipeline.governor.enabled = !options.noGovernor
        let fence = GLFrameFence(limit: pipeline.backend.kind == .cpu ? 1 : 2)
        return WindowSetup(editorWindow: editorWindow, pipeline: pipeline, fence: fence,
                           statsWriter: statsWriter, frameTimesWriter: frameTimesWriter)
    }
}
