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
        case .templatesLoaded(let list, let problems):
            control.templates = list
            return problems.flatMap { handle(.notice($0, .error)) }
        case .templatesChosen(let ids):
            control.chosenTemplates = ids
            return []
        case .chooseTemplate(let id, let on):
            guard control.templates.contains(where: { $0.id == id }), control.chosenTemplates.contains(id) != on else { return [] }
            if on { control.chosenTemplates.append(id) } else { control.chosenTemplates.removeAll { $0 == id } }
            return saveBindings()
        case .portsConnected(let ports):
            guard ports != control.connectedPorts else { return [] }
            let before = Set(control.activeTemplates.map(\.id))
            control.connectedPorts = ports
            var effects: [AppEffect] = []
            for t in control.activeTemplates where !before.contains(t.id) {
                let port = ports.first(where: t.matches).map { " for \($0)" } ?? ""
                effects += handle(.notice("MIDI: \(t.name) template in use\(port) (\(t.bindings.count) controls)", .info))
            }
            return effects
        case .importMapping(let path):
            return [.control(.importMapping(path))]
        case .exportMapping(let path):
            return [.control(.exportMapping(control.active, to: path))]
        case .mappingImported(let list, let from):
            for b in list {
                control.bindings.removeAll { $0.control == b.control }
                control.bindings.append(b)
            }
            return handle(.notice("MIDI: \(list.count) binding\(list.count == 1 ? "" : "s") imported from \(from)", .info)) + saveBindings()
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
        case .setLink(let on):
            guard on != control.link.enabled else { return [] }
            control.link.enabled = on
            return handle(.notice(on ? "Link: joined (quantum \(Self.beats(control.link.quantum)))" : "Link: left; the tempo comes from MIDI clock or the beat tracker again", .info))
        case .toggleLink:
            return handleControl(.setLink(!control.link.enabled))
        case .setLinkQuantum(let q):
            let r = LinkSettings.quantumRange
            if q.isFinite { control.link.quantum = min(max(q.rounded(), r.lowerBound), r.upperBound) }
            return []
        case .setLinkStartStopSync(let on):
            control.link.startStopSync = on
            return []
        case .linkTransport(let playing):
            return control.link.enabled ? [.control(.linkTransport(playing))] : []
        }
    }

    /// "4", "3.5": a beat count as the panel and notices print it.
    public static func beats(_ q: Double) -> String { q == q.rounded() ? String(Int(q)) : String(q) }

    /// Saves the bindings, unless the file on disk is broken (it is never overwritten).
    private mutating func saveBindings() -> [AppEffect] {
        if let p = control.bindingsFileProblem {
            return handle(.notice("MIDI bindings not saved: the bindings file is broken (\(p)); fix or remove it", .warning))
        }
        return [.control(.saveBindings(control.bindings, templates: control.chosenTemplates))]
    }
}
