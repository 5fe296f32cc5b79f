import LiveCore

/// The window's own input as a session source, drained first: the panels'
/// actions from the frame before (they were drawn while it was presented),
/// the window closing (quit) or the projector window closing, the frame's
/// key presses as shortcuts, and the render size (the window's drawable,
/// at most 1920×1080 pixels' worth, times the governor's resolution).
/// Main thread only.
final class WindowInput: ActionSource {
    let editorWindow: EditorWindow
    let pipeline: FramePipeline
    private var shortcuts = ShortcutRouter()

    init(editorWindow: EditorWindow, pipeline: FramePipeline) {
        self.editorWindow = editorWindow
        self.pipeline = pipeline
    }

    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        inbox.post(editorWindow.takePanelActions())
        let window = editorWindow.window
        let input = SDLEvents.poll(forward: ImGuiLayer.process)
        if input.quit || input.closedWindows.contains(window.windowID) { inbox.post(.quit) }
        if let p = editorWindow.projector, input.closedWindows.contains(p.window.windowID) { inbox.post(.outputWindow(nil)) }
        inbox.post(shortcuts.actions(for: input.keys, now: inputs.tick.time))
        inputs.outputSize = Self.renderSize(drawable: window.drawableSize, scale: pipeline.governor.resolutionFactor)
    }

    /// Render size for a drawable: at most 1920×1080 pixels' worth, same aspect.
    static func renderSize(drawable: (width: Int, height: Int), scale: Double = 1) -> (width: Int, height: Int) {
        let w = max(16, drawable.width), h = max(16, drawable.height)
        let limit = 1920.0 * 1080.0
        let s = min(1, (limit / Double(w * h)).squareRoot()) * scale
        return (max(16, Int(Double(w) * s)), max(16, Int(Double(h) * s)))
    }
}
