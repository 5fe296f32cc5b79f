import AudioReactive
import Engine
import Foundation
import LiveCore
import Storage

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
    /// This window's hold on the state folder (nil: another window has it, or no session).
    let stateLock: FolderLock?
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
            stateLock = nil
        } else {
            let url = Session.defaultURL()
            // One window per state folder autosaves; a second one says so and leaves the session to the first.
            let folder = url.deletingLastPathComponent()
            var owner = true
            switch FolderLock.acquire(folder, name: "session.lock") {
            case .success(let lock):
                stateLock = lock
            case .failure(.held(let pid)):
                stateLock = nil
                owner = false
                notices.append("Another Physarum Live window\(pid.map { " (process \($0))" } ?? "") uses the state folder \(folder.path): "
                               + "this one does not autosave its session, so neither overwrites the other (--no-session to silence this)")
            case .failure(let why):
                stateLock = nil  // no lock to be had (a read-only folder): autosave reports its own failure
                notices.append("The state folder could not be locked (\(why)); two windows on it would overwrite each other's session")
            }
            let restored = Session.load(from: url)
            saved = restored.session
            if let notice = restored.notice {
                if restored.keepAutosaveOff { errorNotices.append(notice) } else { notices.append(notice) }
            }
            autosaver = restored.keepAutosaveOff || !owner ? nil : SessionAutosaver(url: url)
        }
        session = saved ?? Session()
        restored = saved != nil
        var start: Preset?
        let library = liveSet.initialLibrary
        if let name = options.preset {
            let found = PresetSource.starting(name, catalog: catalog, library: library)
            start = found.preset
            if let n = found.notice { notices.append(n) }
        }
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

    /// The OSC endpoints to start with (`--osc-in`, `--osc-in off`, else the
    /// restored session's) and whether OSC in came back from the session.
    func startingOSC(options: LiveOptions) -> (settings: OSCSettings, fromSession: Bool) {
        ControlShell.startingOSC(option: options.oscIn, off: options.oscInOff, outTarget: options.oscOut,
                                 feedbackTarget: options.oscFeedback, saved: restored ? session.osc : nil)
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
        out.append(.control(.setOSC(startingOSC(options: options).settings)))
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
