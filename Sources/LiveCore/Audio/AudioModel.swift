import AudioReactive
import Engine
import Foundation

/// The result of one audio action.
public struct AudioOutcome: Equatable, Sendable {
    public var effects: [AudioEffect] = []
    public var notices: [LibraryNotice] = []
}

/// The audio panel's state machine: the edited audio config (controls,
/// tuning, routes, with undo), the file it is followed on, the saved configs,
/// the pending yes/no question and the capture sources. Pure: no I/O, no
/// clocks; file and capture work comes back as `AudioEffect`s.
/// A value type owned by `AppModel`.
public struct AudioModel: Sendable {
    /// The config in use and being edited.
    public private(set) var config: AudioConfig
    /// The file it came from or was saved to (live reload follows it); nil = not saved yet.
    public private(set) var file: URL?
    /// The config as last loaded or saved (depth resets; ignoring our own writes on reload).
    public private(set) var saved: AudioConfig
    public private(set) var history = UndoHistory<AudioConfig>()
    /// The saved configs, as last listed.
    public private(set) var entries: [AudioConfigStore.Entry] = []
    public private(set) var pending: AudioConfirmation?
    /// Capture sources, as last listed, and why listing failed (if it did).
    public private(set) var sources: [PulseSourceInfo] = []
    public private(set) var sourcesProblem: String?
    /// The capture source asked for (nil = the server's default).
    public private(set) var source: String?
    public private(set) var panelVisible = false
    /// A source shortcut waiting for the next listing.
    private var pendingShortcut: AudioAction?
    private var dragStart: AudioConfig?

    /// Depth of a new route.
    public static let newRouteDepth = 0.3

    public init(config: AudioConfig = .builtInDefault, file: URL? = nil, source: String? = nil) {
        self.config = config
        self.file = file
        self.source = source
        saved = config.withoutSolo
    }

    /// True when the edited config differs from the file it follows.
    public var isEdited: Bool { config.withoutSolo != saved }

    /// Applies an action.
    public mutating func handle(_ action: AudioAction) -> AudioOutcome {
        switch action {
        case .togglePanel:
            panelVisible.toggle()
            return AudioOutcome(effects: panelVisible ? [.listConfigs, .listSources] : [])
        case .beat(let c):
            return AudioOutcome(effects: [.beat(c)])
        case .setEnabled(let on):
            return edit { $0.enabled = on }
        case .setReactivity(let v):
            return edit { $0.reactivity = Self.clamp(v, AudioConfig.reactivityRange, $0.reactivity) }
        case .setAutoGain(let on):
            return edit { $0.tuning.autoGain = on }
        case .setTuning(let key, let v):
            guard let field = AudioTuning.field(key) else {
                return note("There is no tuning field '\(key)'", .warning)
            }
            return edit { $0.tuning.set(field, clamped: v) }
        case .addRoute:
            guard config.routes.count < AudioConfig.maxRoutes else {
                return note("An audio config holds at most \(AudioConfig.maxRoutes) routes", .warning)
            }
            return edit { $0.routes.append(Route(source: .bass, target: .allSpecies(.moveSpeed), mode: .level, depth: Self.newRouteDepth)) }
        case .removeRoute(let i):
            return editRoute(i) { c, i in c.routes.remove(at: i) }
        case .duplicateRoute(let i):
            guard config.routes.count < AudioConfig.maxRoutes else {
                return note("An audio config holds at most \(AudioConfig.maxRoutes) routes", .warning)
            }
            return editRoute(i) { c, i in
                var copy = c.routes[i]
                copy.solo = false
                c.routes.insert(copy, at: i + 1)
            }
        case .toggleMute(let i):
            return editRoute(i) { c, i in c.routes[i].muted.toggle() }
        case .toggleSolo(let i):
            return editRoute(i) { c, i in c.routes[i].solo.toggle() }
        case .setSource(let i, let s):
            return editRoute(i) { c, i in c.routes[i].source = s }
        case .setTarget(let i, let id):
            switch RouteTarget.parse(id) {
            case .failure(let why):
                return note("Route \(i + 1): \(why)", .warning)
            case .success(let t):
                return editRoute(i) { c, i in c.routes[i].target = t }
            }
        case .setMode(let i, let m):
            return editRoute(i) { c, i in c.routes[i].mode = m }
        case .setDepth(let i, let v):
            return editRoute(i) { c, i in c.routes[i].depth = Self.clamp(v, Route.depthRange, c.routes[i].depth) }
        case .resetDepth(let i):
            let d = i < saved.routes.count ? saved.routes[i].depth : Self.newRouteDepth
            return editRoute(i) { c, i in c.routes[i].depth = d }
        case .setSmoothing(let i, let v):
            return editRoute(i) { c, i in
                let ms = Self.clamp(v, Route.smoothingRange, c.routes[i].smoothing ?? 0)
                c.routes[i].smoothing = ms > 0 ? ms : nil
            }
        case .setCurve(let i, let v):
            return editRoute(i) { c, i in c.routes[i].curve = Self.clamp(v, Route.curveRange, c.routes[i].curve) }
        case .setInvert(let i, let on):
            return editRoute(i) { c, i in c.routes[i].invert = on }
        case .applyDefaultWiring:
            return edit { $0.routes = DefaultWiring.routes }
        case .beginEdit:
            if dragStart == nil { dragStart = config }
            return AudioOutcome()
        case .endEdit:
            if let start = dragStart, start != config { history.record(start) }
            dragStart = nil
            return AudioOutcome()
        case .undo:
            guard let c = history.undo(from: config) else { return AudioOutcome() }
            config = c
            return AudioOutcome(effects: [.configure])
        case .redo:
            guard let c = history.redo(from: config) else { return AudioOutcome() }
            config = c
            return AudioOutcome(effects: [.configure])
        default:
            return handleFiles(action)
        }
    }

    /// Saved configs, replies and capture sources.
    private mutating func handleFiles(_ action: AudioAction) -> AudioOutcome {
        switch action {
        case .refreshConfigs:
            return AudioOutcome(effects: [.listConfigs])
        case .configsListed(let list):
            entries = list
            return AudioOutcome()
        case .applyConfig(let url):
            return AudioOutcome(effects: [.load(url)])
        case .save:
            guard let file else { return note("The config has no file yet: use Save as", .warning) }
            if entries.contains(where: { $0.url == file && $0.origin == .shipped }) {
                return note("\(file.path) is a shipped config and cannot be changed (use Save as)", .warning)
            }
            return AudioOutcome(effects: [.overwrite(config, file)])
        case .saveAs(let name):
            let clean = name.trimmingCharacters(in: .whitespacesAndNewlines)
            let fileName = AudioConfigStore.fileName(for: clean)
            if !clean.isEmpty, entries.contains(where: { $0.origin == .user && $0.url.lastPathComponent == fileName }) {
                pending = .replace(name: clean)
                return AudioOutcome()
            }
            return AudioOutcome(effects: [.saveAs(config, name: clean, replace: false)])
        case .rename(let url, let name):
            return AudioOutcome(effects: [.rename(url, name)])
        case .export(let path):
            let p = path.trimmingCharacters(in: .whitespaces)
            guard !p.isEmpty else { return note("Export: type a file or folder path first", .warning) }
            return AudioOutcome(effects: [.export(config, path: p)])
        case .importConfig(let path):
            let p = path.trimmingCharacters(in: .whitespaces)
            guard !p.isEmpty else { return note("Import: type the path of a config file first", .warning) }
            return AudioOutcome(effects: [.importFile(path: p)])
        case .delete(let url):
            let name = entries.first { $0.url == url }?.name ?? url.deletingPathExtension().lastPathComponent
            pending = .delete(url, name: name)
            return AudioOutcome()
        case .confirm:
            guard let q = pending else { return AudioOutcome() }
            pending = nil
            switch q {
            case .delete(let url, _): return AudioOutcome(effects: [.delete(url)])
            case .replace(let name): return AudioOutcome(effects: [.saveAs(config, name: name, replace: true)])
            }
        case .cancel:
            pending = nil
            return AudioOutcome()
        case .loaded(let c, let url):
            if c != config { history.record(config) }
            config = c
            saved = c.withoutSolo
            file = url
            var out = AudioOutcome(effects: [.configure, .watch(url)])
            out.notices.append(LibraryNotice(text: "Audio config \"\(c.name)\" in use (\(url.path))", level: .info))
            return out
        case .saved(let c, let url):
            saved = c.withoutSolo
            file = url
            config.name = c.name
            return AudioOutcome(effects: [.watch(url), .listConfigs])
        case .renamed(let from, let to, let name):
            guard file == from else { return AudioOutcome(effects: [.listConfigs]) }
            file = to
            config.name = name
            saved.name = name
            return AudioOutcome(effects: [.watch(to), .listConfigs])
        case .deleted(let url):
            guard file == url else { return AudioOutcome(effects: [.listConfigs]) }
            file = nil
            return AudioOutcome(effects: [.watch(nil), .listConfigs])
        case .reloaded(let c, let url):
            // Our own save, or a touch without change: nothing to do.
            guard url == file, c.withoutSolo != saved else { return AudioOutcome() }
            history.record(config)
            config = c
            saved = c.withoutSolo
            var out = AudioOutcome(effects: [.configure])
            out.notices.append(LibraryNotice(text: "Reloaded \(url.path) (changed on disk)", level: .info))
            return out
        case .refreshSources:
            return AudioOutcome(effects: [.listSources])
        case .sourcesListed(let list):
            sources = list
            sourcesProblem = nil
            if let s = pendingShortcut {
                pendingShortcut = nil
                return handle(s)
            }
            return AudioOutcome()
        case .sourcesFailed(let why):
            sourcesProblem = why
            pendingShortcut = nil
            return AudioOutcome()
        case .selectSource(let name):
            source = name
            return AudioOutcome(effects: [.switchSource(name)])
        case .selectMachineOutput:
            guard !sources.isEmpty else { return waitForSources(action) }
            guard let m = sources.first(where: \.isDefaultSinkMonitor) ?? sources.first(where: \.isMonitor) else {
                return note("No output monitor found: the sound server lists no monitor source", .warning)
            }
            return handle(.selectSource(m.name))
        case .selectMicrophone:
            guard !sources.isEmpty else { return waitForSources(action) }
            let mic = sources.first { $0.isDefault && !$0.isMonitor } ?? sources.first { !$0.isMonitor }
            guard let mic else { return note("No microphone found: every source is a monitor of an output", .warning) }
            return handle(.selectSource(mic.name))
        default:
            return AudioOutcome()
        }
    }

    private mutating func waitForSources(_ shortcut: AudioAction) -> AudioOutcome {
        pendingShortcut = shortcut
        return AudioOutcome(effects: [.listSources])
    }

    /// Changes the config; one undo step unless a drag is in progress.
    private mutating func edit(_ body: (inout AudioConfig) -> Void) -> AudioOutcome {
        var c = config
        body(&c)
        guard c != config else { return AudioOutcome() }
        if dragStart == nil { history.record(config) }
        config = c
        return AudioOutcome(effects: [.configure])
    }

    private mutating func editRoute(_ i: Int, _ body: (inout AudioConfig, Int) -> Void) -> AudioOutcome {
        guard config.routes.indices.contains(i) else { return AudioOutcome() }
        return edit { body(&$0, i) }
    }

    private func note(_ text: String, _ level: NoticeLevel) -> AudioOutcome {
        AudioOutcome(notices: [LibraryNotice(text: text, level: level)])
    }

    public static func clamp(_ v: Double, _ r: ClosedRange<Double>, _ fallback: Double) -> Double {
        v.isFinite ? min(max(v, r.lowerBound), r.upperBound) : fallback
    }
}

extension AudioConfig {
    /// The config with every route's solo off (solo is never saved).
    public var withoutSolo: AudioConfig {
        var c = self
        for i in c.routes.indices { c.routes[i].solo = false }
        return c
    }
}
