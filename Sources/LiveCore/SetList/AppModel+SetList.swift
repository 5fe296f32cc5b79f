/// The set list inside the app's one state machine: `AppModel.handle`
/// forwards `.setList` actions here.
extension AppModel {
    /// Applies a set list action; the file write comes back as a `.setList` effect.
    public mutating func handleSetList(_ action: SetListAction) -> [AppEffect] {
        let count = setList.list.cues.count
        switch action {
        case .go:
            switch setList.transport {
            case .stopped:
                guard count > 0 else { return handle(.notice("Set list: no cues yet (Add current in the set list panel)", .warning)) }
                let start = min(max(setList.selected, 0), count - 1)
                setList.transport = .playing
                setList.current = start
                setList.pending = nil
                setList.starts += 1
                var effects: [AppEffect] = []
                if playlistOn { effects += handle(.live(.setCycling(false))) }  // the set list drives the presets now
                return effects + handle(.notice("Set list: cue \(start + 1) of \(count)", .info))
            case .held:
                setList.transport = .playing
                return []
            case .playing:
                return request((setList.pending ?? setList.current ?? -1) + 1)
            }
        case .skip:
            if setList.transport == .stopped {
                setList.selected = min(setList.selected + 1, max(count - 1, 0))
                return []
            }
            return request((setList.pending ?? setList.current ?? -1) + 1)
        case .back:
            if setList.transport == .stopped {
                setList.selected = max(setList.selected - 1, 0)
                return []
            }
            return request(max((setList.pending ?? setList.current ?? 1) - 1, 0))
        case .hold:
            switch setList.transport {
            case .playing: setList.transport = .held
            case .held: setList.transport = .playing
            case .stopped: break
            }
            return []
        case .stop:
            setList.transport = .stopped
            setList.current = nil
            setList.pending = nil
            return []
        case .togglePanel:
            setList.panelVisible.toggle()
            return []
        case .select(let i):
            if setList.list.cues.indices.contains(i) { setList.selected = i }
            return []
        case .addCurrent:
            guard let id = currentPreset?.id else { return handle(.notice("Set list: no preset loaded to add", .warning)) }
            guard count < SetList.maxCues else { return handle(.notice("Set list: full (\(SetList.maxCues) cues)", .warning)) }
            let at = count == 0 ? 0 : min(setList.selected + 1, count)
            setList.list.cues.insert(Cue(preset: id, audioConfig: audio.config.name.isEmpty ? nil : audio.config.name), at: at)
            setList.selected = at
            shiftPlaying(insertedAt: at)
            return save()
        case .move(let i, let by):
            let j = i + by
            guard setList.list.cues.indices.contains(i), setList.list.cues.indices.contains(j), i != j else { return [] }
            setList.list.cues.swapAt(i, j)
            if setList.selected == i { setList.selected = j } else if setList.selected == j { setList.selected = i }
            if setList.current == i { setList.current = j } else if setList.current == j { setList.current = i }
            return save()
        case .duplicate(let i):
            guard setList.list.cues.indices.contains(i), count < SetList.maxCues else { return [] }
            setList.list.cues.insert(setList.list.cues[i], at: i + 1)
            setList.selected = i + 1
            shiftPlaying(insertedAt: i + 1)
            return save()
        case .delete(let i):
            guard setList.list.cues.indices.contains(i) else { return [] }
            setList.list.cues.remove(at: i)
            if let c = setList.current {
                if c == i { setList.transport = .stopped; setList.current = nil; setList.pending = nil } else if c > i { setList.current = c - 1 }
            }
            setList.pending = nil
            setList.selected = min(setList.selected, max(setList.list.cues.count - 1, 0))
            return save()
        case .setLength(let i, let l):
            guard setList.list.cues.indices.contains(i), setList.list.cues[i].length != l else { return [] }
            setList.list.cues[i].length = Self.clamped(l)
            return save()
        case .setTransition(let i, let t):
            guard setList.list.cues.indices.contains(i), setList.list.cues[i].transition != t else { return [] }
            setList.list.cues[i].transition = Self.clamped(t)
            return save()
        case .loaded(let list, let problem):
            setList.list = list
            setList.fileProblem = problem
            setList.selected = 0
            return problem.map { handle(.notice($0, .error)) } ?? []
        case .entered(let i):
            guard setList.list.cues.indices.contains(i), setList.transport != .stopped else { return [] }
            setList.current = i
            setList.selected = i
            if setList.pending == i { setList.pending = nil }
            return []
        case .finished:
            setList.transport = .stopped
            setList.current = nil
            setList.pending = nil
            return handle(.notice("Set list: the last cue ended", .info))
        }
    }

    /// A cue asked for while playing: it comes in on the next downbeat.
    private mutating func request(_ i: Int) -> [AppEffect] {
        guard setList.list.cues.indices.contains(i) else { return handle(.notice("Set list: no cue \(i + 1)", .info)) }
        setList.pending = i
        return []
    }

    /// Keeps the playing cue's index right after an insertion.
    private mutating func shiftPlaying(insertedAt at: Int) {
        if let c = setList.current, c >= at { setList.current = c + 1 }
        if let p = setList.pending, p >= at { setList.pending = p + 1 }
    }

    static func clamped(_ l: CueLength) -> CueLength {
        switch l {
        case .bars(let n): .bars(min(max(n, CueLength.barsRange.lowerBound), CueLength.barsRange.upperBound))
        case .seconds(let s): .seconds(s.isFinite ? min(max(s, CueLength.secondsRange.lowerBound), CueLength.secondsRange.upperBound) : 30)
        }
    }

    static func clamped(_ t: CueTransition) -> CueTransition {
        let r = CueTransition.beatsRange
        func c(_ b: Double) -> Double { b.isFinite ? min(max(b, r.lowerBound), r.upperBound) : 4 }
        switch t {
        case .cut: return .cut
        case .fade(let b): return .fade(beats: c(b))
        case .morph(let b): return .morph(beats: c(b))
        }
    }

    /// Saves the list, unless the file on disk is broken (it is never overwritten).
    private mutating func save() -> [AppEffect] {
        if let p = setList.fileProblem {
            return handle(.notice("Set list not saved: the set list file is broken (\(p)); fix or remove it", .warning))
        }
        return [.setList(.save(setList.list))]
    }
}
