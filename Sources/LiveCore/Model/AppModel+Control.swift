/// Live controls inside the app's one state machine: `AppModel.handle`
/// forwards `.control` actions here.
extension AppModel {
    /// Applies a control action; file and socket work come back as `.control` effects.
    public mutating func handleControl(_ action: ControlAction) -> [AppEffect] {
        switch action {
        case .learn(let t):
            control.learning = control.learning == t ? nil : t
            return []
        case .cancelLearn:
            control.learning = nil
            return []
        case .bind(let b):
            control.bindings.removeAll { $0.control == b.control }
            control.bindings.append(b)
            control.learning = nil
            var effects = handle(.notice("MIDI: \(b.control.label) → \(b.target.label) (\(b.mode.label))", .info))
            effects += saveBindings()
            return effects
        case .updateBinding(let i, let b):
            guard control.bindings.indices.contains(i), control.bindings[i] != b else { return [] }
            control.bindings[i] = b
            control.bindings.removeAll { $0.control == b.control && $0 != b }
            return saveBindings()
        case .removeBinding(let i):
            guard control.bindings.indices.contains(i) else { return [] }
            control.bindings.remove(at: i)
            return saveBindings()
        case .bindingsLoaded(let list, let problem):
            control.bindings = list
            control.bindingsFileProblem = problem
            return problem.map { handle(.notice($0, .error)) } ?? []
        case .togglePanel:
            control.panelVisible.toggle()
            return []
        case .setSyncBars(let n):
            let r = TempoSyncSettings.barsRange
            control.sync.bars = min(max(n, r.lowerBound), r.upperBound)
            return []
        case .setFadeBeats(let b):
            let r = TempoSyncSettings.fadeBeatsRange
            if b.isFinite { control.sync.fadeBeats = min(max(b, r.lowerBound), r.upperBound) }
            return []
        case .setQuantize(let on):
            control.sync.quantize = on
            return []
        case .setVisualOffset(let ms):
            let r = ControlState.visualOffsetRange
            if ms.isFinite { control.visualOffsetMs = min(max(ms, r.lowerBound), r.upperBound) }
            return []
        case .morph(let t):
            guard let next = ControlTarget.nextPreset(self) else { return [] }
            return handle(.morph(presetID: next, t: t))
        case .setOSC(let s):
            guard s != control.osc else { return [] }
            control.osc = s
            return [.control(.restartOSC(s))]
        }
    }

    /// Saves the bindings, unless the file on disk is broken (it is never overwritten).
    private mutating func saveBindings() -> [AppEffect] {
        if let p = control.bindingsFileProblem {
            return handle(.notice("MIDI bindings not saved: the bindings file is broken (\(p)); fix or remove it", .warning))
        }
        return [.control(.saveBindings(control.bindings))]
    }
}
