import AudioReactive
import Engine
import Foundation
import LiveCore

/// What the live window starts with, read before the window opens: the
/// factory presets and the library, the restored session, the starting
/// preset and audio config, and every problem found on the way (shown as
/// notices once the window is up). Reads files; main thread, once.
struct LiveStartup {
    var model: AppModel
    /// The restored session (or a fresh one), the base of later autosaves.
    var session: Session
    /// Whether a session file was restored.
    var restored: Bool
    let autosaver: SessionAutosaver?
    let liveSet: LiveSet
    /// Shipped and user audio configs.
    let configStore = AudioConfigStore()
    /// Seed of randomize/mutate and reseeds; the simulation's first seed.
    let seed: UInt64
    var notices: [String] = []
    /// Problems that put something off (shown as errors).
    var errorNotices: [String] = []

    init(options: LiveOptions) {
        let catalog = PresetCatalog.factory()
        if let n = catalog.notice { notices.append(n) }
        for p in catalog.problems { notices.append("Preset skipped: \(p)") }
        liveSet = LiveSet(factory: catalog.presets)
        notices += liveSet.startupNotices
        var saved: Session?
        if options.noSession {
            autosaver = nil
        } else {
            let url = Session.defaultURL()
            let restored = Session.load(from: url)
            saved = restored.session
            if let notice = restored.notice {
                if restored.keepAutosaveOff { errorNotices.append(notice) } else { notices.append(notice) }
            }
            autosaver = restored.keepAutosaveOff ? nil : SessionAutosaver(url: url)
        }
        session = saved ?? Session()
        restored = saved != nil
        var start: Preset?
        if let name = options.preset, name.hasSuffix(".json") {
            // A preset file (e.g. one exported from the library, or configs/bench/all-effects.json).
            do { start = try PresetSource.resolve(name) } catch { notices.append("--preset: \(error); starting with the first preset") }
        } else if let name = options.preset {
            start = catalog.preset(named: name)
            if start == nil { notices.append("There is no preset '\(name)'; starting with the first one") }
        }
        let library = liveSet.initialLibrary
        model = AppModel(library: library, start: start ?? saved?.presetID.flatMap { id in
            catalog.preset(named: id) ?? library.playOrder.first { $0.id == id }
        })
        if start == nil, let s = saved, let p = s.params {
            model.restoreSession(presetID: s.presetID, base: p, locks: Set(s.locks), uiScale: s.uiScale)
        } else if let s = saved {
            model.restoreSession(presetID: model.currentPreset?.id, base: model.base, locks: Set(s.locks), uiScale: s.uiScale)
        }
        model.agentOverride = options.agents
        if let s = options.uiScale ?? (saved == nil ? XResources.desktopScale() : nil) { _ = model.handle(.uiScale(s)) }
        let audio = Self.startingAudioConfig(options: options, session: saved, store: configStore)
        if let n = audio.notice { notices.append(n) }
        model.audio = AudioModel(config: audio.config, file: audio.file, source: options.source ?? saved?.source)
        seed = options.seed ?? UInt64(UInt32(truncatingIfNeeded: Int(Date().timeIntervalSince1970 * 1000)))
        for n in notices { _ = model.handle(.notice(n, .warning)) }
        for n in errorNotices { _ = model.handle(.notice(n, .error)) }
    }

    /// The audio config to start with: `--config` (a file, or the name of a
    /// shipped config), else the session's edit, else the built-in default.
    static func startingAudioConfig(options: LiveOptions, session: Session?, store: AudioConfigStore)
        -> (config: AudioConfig, file: URL?, notice: String?) {
        let fallback = session?.audio ?? .builtInDefault
        let file = session?.audioConfigPath.map { URL(fileURLWithPath: $0) }
        guard let arg = options.config else { return (fallback, file, nil) }
        var url = URL(fileURLWithPath: arg)
        if !FileManager.default.fileExists(atPath: url.path), let shipped = store.shippedDirectory {
            let named = shipped.appendingPathComponent(arg.hasSuffix(".json") ? arg : arg + ".json")
            if FileManager.default.fileExists(atPath: named.path) { url = named }
        }
        do {
            return (try AudioConfig.load(contentsOf: url).config, url, nil)
        } catch {
            let first = error.errors.first?.description ?? "\(error)"
            return (fallback, file, "--config: \(first); using \(session?.audio != nil ? "the last session's config" : "the built-in default")")
        }
    }

    /// What the window applies once it is up: the projector, the restored
    /// session's live-set, panel and live-control settings, and the options
    /// that override them (OSC endpoints, panels, speech).
    func startActions(options: LiveOptions) -> [AppAction] {
        var out: [AppAction] = []
        if let d = options.outputDisplay { out.append(.outputWindow(d)) }
        let saved = restored ? session : nil
        if let saved {
            if let d = saved.dwell { out.append(.live(.setDwell(d))) }
            if let p = saved.pinnedOnly { out.append(.live(.setPinnedOnly(p))) }
            if saved.libraryPanel { out.append(.live(.toggleLibraryPanel)) }
            out.append(.ui(.restore(saved.ui)))
        }
        if let t = options.theme { out.append(.ui(.setTheme(t))) }
        if options.libraryPanel && saved?.libraryPanel != true { out.append(.live(.toggleLibraryPanel)) }
        if options.noticesWindow || saved?.noticesWindow == true { out.append(.toggleNoticesWindow) }
        if options.audioPanel || saved?.audioPanel == true { out.append(.audio(.togglePanel)) }
        // Live controls: OSC endpoints from the options, else the session; sync and offset from the session.
        out.append(.control(.setOSC(OSCSettings(inPort: options.oscIn ?? saved?.osc.inPort,
                                                outTarget: options.oscOut ?? saved?.osc.outTarget,
                                                feedbackTarget: options.oscFeedback ?? saved?.osc.feedbackTarget))))
        if let s = saved?.sync {
            out += [.control(.setSyncBars(s.bars)), .control(.setFadeBeats(s.fadeBeats)), .control(.setQuantize(s.quantize))]
        }
        if let ms = saved?.visualOffsetMs { out.append(.control(.setVisualOffset(ms))) }
        if let l = saved?.link {
            out += [.control(.setLinkQuantum(l.quantum)), .control(.setLinkStartStopSync(l.startStopSync)), .control(.setLink(l.enabled))]
        }
        if options.midiPanel || saved?.midiPanel == true { out.append(.control(.togglePanel)) }
        if options.setListPanel || saved?.setListPanel == true { out.append(.setList(.togglePanel)) }
        if options.noUI && model.uiVisible { out.append(.toggleUI) }
        if options.speak { out.append(.live(.toggleSpeech)) }
        return out
    }
}
