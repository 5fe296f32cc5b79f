import Engine

/// The preset library and the live-set controls inside the app's one state
/// machine. `AppModel.handle` forwards `.library` and `.live` actions here.
extension AppModel {
    /// A model whose presets are the library's (user slots, then factory).
    public init(library: LibraryModel, start: Preset? = nil) {
        self.init(presets: library.playOrder, start: start)
        self.library = library
    }

    /// Applies a library action: the library changes, `presets` follows it,
    /// notices are posted, file work comes back as `.library` effects.
    public mutating func handleLibrary(_ action: LibraryAction) -> [AppEffect] {
        let look = LibraryLook(params: base, tags: currentPreset?.tags ?? [])
        let out = library.handle(action, look: look)
        presets = library.playOrder
        var effects = out.effects.map(AppEffect.library)
        for n in out.notices where notices.post(n.text, n.level) { effects.append(.logNotice(n.text)) }
        if let id = out.adopt { adoptSavedLook(as: id) }
        if let id = out.load { effects += handle(.jumpTo(id)) }
        return effects
    }

    /// Applies a live-set action.
    public mutating func handleLive(_ action: LiveAction) -> [AppEffect] {
        switch action {
        case .toggleBlackout, .toggleHideAll, .toggleKeyHelp, .toggleSlotPicker, .toggleLibraryPanel, .toggleHostToken, .toggleSpeech:
            let flag: WritableKeyPath<LiveState, Bool> = switch action {
            case .toggleBlackout: \.blackout
            case .toggleHideAll: \.allHidden
            case .toggleKeyHelp: \.keyHelpVisible
            case .toggleSlotPicker: \.slotPickerOpen
            case .toggleHostToken: \.hostTokenShown
            case .toggleSpeech: \.speechOn
            default: \.libraryPanelVisible
            }
            live[keyPath: flag].toggle()
            return []
        case .setBlackout(let on):
            live.blackout = on
            return []
        case .setCycling(let on):
            return on == playlistOn ? [] : handle(.togglePlaylist)
        case .setDwell(let s):
            let r = CycleSettings.dwellRange
            live.cycle.dwell = s.isFinite ? min(max(s, r.lowerBound), r.upperBound) : live.cycle.dwell
            return []
        case .setPinnedOnly(let on):
            live.cycle.pinnedOnly = on
            return []
        case .screenshot:
            return [.capture(.screenshot)]
        case .toggleRecording:
            return [.capture(.toggleRecording)]
        case .speakHelp:
            return live.speechOn ? [.speakHelp] : []
        }
    }

    /// The auto-cycle's input with this frame's tempo (synced when a tempo is locked).
    public func cycleInput(tempo: TempoReading) -> CycleInput {
        var input = cycleInput
        input.beat = tempo.beat
        input.bpm = tempo.bpm
        input.beatsPerBar = tempo.beatsPerBar
        return input
    }

    /// What the auto-cycle needs from the model each frame.
    public var cycleInput: CycleInput {
        let order = presets.map(\.id)
        let pinned = Set(library.pinnedIDs)
        let usePins = live.cycle.pinnedOnly && order.contains { pinned.contains($0) }
        return CycleInput(enabled: playlistOn, blackout: live.blackout, order: order,
                          eligible: usePins ? pinned : Set(order), current: currentPreset?.id, settings: live.cycle, sync: control.sync)
    }
}
