import AppTestSupport
import AudioReactive
import Engine
import Foundation
import ImGuiShim
import Testing
@testable import LiveCore
@testable import LiveApp
import TestSupport

/// The audio panel in real (headless) ImGui frames with the real action
/// layer, `AudioShell` (modulator + AudioIO on a real file worker and a real
/// config store in temporary folders), and a fake source lister. Effects go
/// through the shell as in the live loop; `switchSource` effects are recorded.
final class AudioPanelRig: PanelDriving {
    var model: AppModel
    let shell: AudioShell
    let worker: FileWorker<AppAction>
    let dir: URL
    var switched: [String?] = []
    let preset: Preset

    /// A rig whose user configs live in `dir/user`; starts with `config`.
    init(dir: URL, config: AudioConfig = AudioConfig(name: "Empty"), sources: [PulseSourceInfo] = []) {
        self.dir = dir
        var p = PresetParams()
        p[.simSpeed] = 1
        preset = Preset(id: "test", name: "Test", params: p)
        model = AppModel(presets: [preset])
        model.audio = AudioModel(config: config)
        worker = FileWorker(name: "test.audio")
        let store = AudioConfigStore(userDirectory: dir.appendingPathComponent("user"), shippedDirectory: nil)
        var small = p
        small[.agents] = 1_000
        let pipeline = FramePipeline(field: (64, 36), output: (64, 36), params: small, seed: 1, threads: 1)
        shell = AudioShell(io: AudioIO(store: store, files: worker, listSources: { sources }), pipeline: pipeline)
        shell.configure(model)
    }

    /// Runs `body` in a headless ImGui of `height` with a fresh rig whose folder is a new temporary
    /// folder named after `name`, after two frames; the folder is removed afterwards.
    static func run(_ name: String, height: Float, config: AudioConfig = AudioConfig(name: "Empty"),
                    _ body: (HeadlessImGui, AudioPanelRig, URL) throws -> Void) throws {
        let dir = makeTempDir(name)
        defer { try? FileManager.default.removeItem(at: dir) }
        try HeadlessImGui.run(height: height) { ui in
            let rig = AudioPanelRig(dir: dir, config: config)
            ui.frames(2, rig.draw)
            try body(ui, rig, dir)
        }
    }

    deinit {
        shell.shutdown()
        worker.shutdown(timeout: 10)
    }

    /// One action through the model; its effects through the shell, as the loop does.
    func dispatch(_ a: AppAction) {
        for e in model.handle(a) {
            guard case .audio(let ae) = e else { continue }
            if case .switchSource(let s) = ae { switched.append(s) }
            for r in shell.perform(ae, model: model) { dispatch(r) }
        }
    }

    func draw() {
        shell.panel.draw(model: model, live: shell.liveView) { dispatch($0) }
    }

    /// Waits for file and source work and applies the replies (and live reloads).
    func settle() {
        _ = poll(seconds: 10) { worker.isIdle && shell.io.sourceWorker.isIdle }
        for r in worker.drainReplies() + shell.drainActions() { dispatch(r) }
        _ = poll(seconds: 10) { worker.isIdle && shell.io.sourceWorker.isIdle }
        for r in worker.drainReplies() + shell.drainActions() { dispatch(r) }
    }

    func rect(_ name: String) throws -> UI.Rect { try #require(shell.panel.rects[name], "no item \(name) in \(shell.panel.rects.keys.sorted())") }

    /// Ctrl+click a slider, type a value, Enter.
    func typeValue(_ ui: HeadlessImGui, into slider: String, _ text: String) throws {
        try hover(ui, slider)
        ui.mods(ctrl: true)
        ui.click(draw)
        ui.mods()
        ui.mods(ctrl: true)
        ui.tap(ScanCode.a, draw)
        ui.mods()
        ui.type(text)
        ui.frame(draw)
        ui.tap(ScanCode.enter, draw)
        ui.frame(draw)
    }

    /// The effective parameters for one frame of synthetic features.
    func effective(_ features: AudioFeatures) -> PresetParams {
        shell.modulator.process(base: model.base, features: features)
    }

    /// Features at `time` with one source's level and transient set.
    static func features(_ id: AudioSourceID, level: Float = 0, transient: Float = 0, time: Double) -> AudioFeatures {
        var f = AudioFeatures.silent
        f.time = time
        f[id] = SourceFeatures(level: level, transient: transient, gate: 1)
        return f
    }
}
