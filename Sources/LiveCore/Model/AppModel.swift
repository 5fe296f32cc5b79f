import Engine

/// What undo/redo restores: the loaded preset and the edited parameters.
public struct EditState: Equatable, Sendable {
    public var presetID: String?
    /// The loaded preset's own values (reset targets).
    public var presetParams: PresetParams
    /// The edited look (the base that modulation starts from and presets save).
    public var base: PresetParams
}

/// The app's state and its one state machine: `handle(action) -> effects`.
/// Pure: no I/O, no clocks, no randomness except from seeds in the actions.
public struct AppModel: Sendable {
    /// The presets `next`/`previous`/`jumpTo` choose from, in order.
    public var presets: [Preset]
    public private(set) var edit: EditState
    public private(set) var locks: Set<String> = []
    public private(set) var history = UndoHistory<EditState>()
    public var notices = NoticeBoard()
    public private(set) var uiVisible = true
    public private(set) var overlayVisible = false
    public private(set) var fullscreen = false
    public private(set) var uiScale = 1.0
    public private(set) var playlistOn = false
    /// The preset library (AppModel+Library.swift); `presets` follows its play order.
    public var library = LibraryModel(factory: [])
    /// Live-set controls: blackout, hide all, key overlay, auto-cycle settings.
    public var live = LiveState()
    /// The audio config being edited, saved configs, capture sources (AppModel+Audio.swift).
    public var audio = AudioModel()
    /// MIDI bindings and learn, OSC, tempo sync, visual offset (AppModel+Control.swift).
    public var control = ControlState()
    /// Video outputs beside the window (AppModel+VideoOut.swift).
    public var videoOut = VideoOutState()
    /// The set list: cues, transport, the panel (AppModel+SetList.swift).
    public var setList = SetListState()
    /// Theme, panel opacity and widths (LiveCore/Panels/UISettings.swift).
    public internal(set) var ui = UISettings()
    /// `--agents N`: the agent count of every preset loaded (nil: each preset's own).
    public var agentOverride: Int? {
        didSet {
            guard let n = agentOverride else { return }
            edit.presetParams[.agents] = Double(n)
            edit.base[.agents] = Double(n)
            _ = holdAgentCount()
        }
    }
    /// The most agents the engine runs here (set by the shell once it knows
    /// the backend and the free memory). Every agent count the model takes —
    /// a preset, an edit, a remote, a session, `--agents` — is held to it,
    /// with a notice naming the limit.
    public var agentLimit: AgentLimit? {
        didSet { _ = holdAgentCount() }
    }
    /// Display of the output-only window, nil when there is none.
    public private(set) var outputDisplay: Int?
    /// Edit state at the start of the current continuous edit (slider drag).
    private var dragStart: EditState?
    /// Look at the start of the current morph, and its target.
    private var morphOrigin: (presetID: String, base: PresetParams)?

    /// The edited parameters.
    public var base: PresetParams { edit.base }
    /// The loaded preset (nil when the look did not come from a preset).
    public var currentPreset: Preset? { edit.presetID.flatMap { id in presets.first { $0.id == id } } }
    /// True when the base differs from the loaded preset.
    public var isEdited: Bool { edit.base != edit.presetParams }

    public init(presets: [Preset], start: Preset? = nil, base: PresetParams? = nil) {
        self.presets = presets
        let p = start ?? presets.first
        edit = EditState(presetID: p?.id, presetParams: p?.params ?? .defaults, base: base ?? p?.params ?? .defaults)
    }

    /// Applies an action; returns the work the shell must do. Whatever the
    /// action, the agent count that results is held to `agentLimit`.
    public mutating func handle(_ action: AppAction) -> [AppEffect] {
        let effects = apply(action)
        return effects + holdAgentCount()
    }

    /// Holds the look's agent count (and its preset's) to `agentLimit`; a
    /// notice when the look's count was lowered.
    private mutating func holdAgentCount() -> [AppEffect] {
        guard let limit = agentLimit else { return [] }
        edit.presetParams = edit.presetParams.held(to: limit).params
        let (base, notice) = edit.base.held(to: limit)
        guard let notice else { return [] }
        edit.base = base
        return post(notice, .warning)
    }

    private mutating func apply(_ action: AppAction) -> [AppEffect] {
        if case .morph = action {} else if action.changesLook { morphOrigin = nil }
        switch action {
        case .setParam(let key, let value):
            return change { $0[key] = value }
        case .setParams(let keys, let value):
            return change { p in for k in keys { p[k] = value } }
        case .beginEdit:
            if dragStart == nil { dragStart = edit }
            return []
        case .endEdit:
            guard let start = dragStart else { return [] }
            dragStart = nil
            if start != edit { history.record(start) }
            return []
        case .resetParam(let key):
            let v = edit.presetParams[key]
            return change { $0[key] = v }
        case .setSpawnPattern(let p):
            return change { $0.spawnPattern = p }
        case .setBlendMode(let m):
            return change { $0.blendMode = m }
        case .setBackground(let c):
            return change { $0.background = c }
        case .setSpeciesColor(let s, let c):
            guard (0..<ParamKey.speciesCount).contains(s) else { return [] }
            return change { $0.setColor(c, species: s) }
        case .toggleLock(let id):
            if locks.contains(id) { locks.remove(id) } else { locks.insert(id) }
            return []
        case .randomize(let seed):
            let locked = locks
            return change { $0 = LookGenerator.randomized($0, seed: seed, locked: locked) }
        case .mutate(let amount, let seed):
            let locked = locks
            return change { $0 = LookGenerator.mutated($0, amount: amount, seed: seed, locked: locked) }
        case .morph(let id, let t):
            guard let target = presets.first(where: { $0.id == id }) else {
                return post("Morph: there is no preset '\(id)'", .warning)
            }
            if morphOrigin?.presetID != id {
                morphOrigin = (id, edit.base)
                history.record(edit)
            }
            let origin = morphOrigin!.base
            let locked = locks
            edit.base = LookGenerator.blend(origin, params(of: target), t: t, locked: locked)
            return []
        case .resetAll:
            let p = edit.presetParams
            return change { $0 = p }
        case .undo:
            guard let s = history.undo(from: edit) else { return [] }
            return restore(s)
        case .redo:
            guard let s = history.redo(from: edit) else { return [] }
            return restore(s)
        case .jumpTo(let id):
            guard let p = presets.first(where: { $0.id == id }) else {
                return post("There is no preset '\(id)'", .warning)
            }
            return load(p)
        case .next, .previous:
            guard !presets.isEmpty else { return post("No presets to play", .warning) }
            let i = edit.presetID.flatMap { id in presets.firstIndex { $0.id == id } } ?? -1
            let step = action == .next ? 1 : -1
            let j = ((i + step) % presets.count + presets.count) % presets.count
            return load(presets[j])
        case .togglePlaylist:
            playlistOn.toggle()
            return []
        case .adoptRemoteLook(let id, let base, let reseed):
            adoptRemoteLook(presetID: id, base: base)
            return reseed ? [.reseed] : []
        case .toggleUI:
            uiVisible.toggle()
            return []
        case .toggleOverlay:
            overlayVisible.toggle()
            return []
        case .toggleFullscreen:
            fullscreen.toggle()
            return [.setFullscreen(fullscreen)]
        case .uiScale(let s):
            let v = min(max(s.isFinite ? s : 1, 0.5), 3)
            uiScale = (v * 20).rounded() / 20
            return [.applyUIScale(uiScale)]
        case .outputWindow(let d):
            outputDisplay = d
            return [.setOutputWindow(d)]
        case .uiScaleStep(let n):
            return apply(.uiScale(uiScale + 0.1 * Double(n)))
        case .dismissNotice(let id):
            notices.dismiss(id)
            return []
        case .dismissAllNotices:
            notices.dismissAll()
            return []
        case .toggleNoticesWindow:
            notices.windowOpen.toggle()
            return []
        case .expireNotices(let now):
            notices.expire(now: now)
            return []
        case .notice(let text, let level):
            return post(text, level)
        case .quit:
            return [.quit]
        case .library(let a):
            return handleLibrary(a)
        case .live(let a):
            return handleLive(a)
        case .audio(let a):
            return handleAudio(a)
        case .control(let a):
            return handleControl(a)
        case .videoOut(let a):
            return handleVideoOut(a)
        case .setList(let a):
            return handleSetList(a)
        case .ui(let a):
            return handleUI(a)
        }
    }

    /// The current look was just saved as preset `id` (already in `presets`):
    /// it becomes the loaded preset, unedited. No undo step, no reseed.
    public mutating func adoptSavedLook(as id: String) {
        guard let p = presets.first(where: { $0.id == id }) else { return }
        edit = EditState(presetID: p.id, presetParams: p.params, base: edit.base)
    }

    /// Applies `body` to the base; one undo step unless a drag is in progress.
    private mutating func change(_ body: (inout PresetParams) -> Void) -> [AppEffect] {
        var p = edit.base
        body(&p)
        guard p != edit.base else { return [] }
        if dragStart == nil { history.record(edit) }
        edit.base = p
        return []
    }

    /// A preset's parameters as loaded here (with the agent override).
    public func params(of p: Preset) -> PresetParams {
        var v = p.params
        if let n = agentOverride { v[.agents] = Double(n) }
        return v
    }

    private mutating func load(_ p: Preset) -> [AppEffect] {
        let v = params(of: p)
        let new = EditState(presetID: p.id, presetParams: v, base: v)
        if new != edit { history.record(edit) }
        edit = new
        return [.reseed]
    }

    private mutating func restore(_ s: EditState) -> [AppEffect] {
        let reseed = s.presetID != edit.presetID
        edit = s
        return reseed ? [.reseed] : []
    }

    private mutating func post(_ text: String, _ level: NoticeLevel) -> [AppEffect] {
        notices.post(text, level) ? [.logNotice(text)] : []
    }

    /// Restores a saved session's look (no undo step, no reseed effect).
    public mutating func restoreSession(presetID: String?, base: PresetParams, locks: Set<String>, uiScale: Double) {
        let preset = presetID.flatMap { id in presets.first { $0.id == id } }
        edit = EditState(presetID: preset?.id, presetParams: preset?.params ?? base, base: base)
        self.locks = locks
        self.uiScale = min(max(uiScale, 0.5), 3)
        _ = holdAgentCount()
    }
}

extension AppAction {
    /// Whether the action edits the look (and so ends a morph in progress).
    public var changesLook: Bool {
        switch self {
        case .setParam, .setParams, .resetParam, .setSpawnPattern, .setBlendMode, .setBackground, .setSpeciesColor,
             .randomize, .mutate, .resetAll, .undo, .redo, .jumpTo, .next, .previous:
            true
        default:
            false
        }
    }
}
