/// Where the set list is, for the panel, speech and `--state-file`.
public struct SetListStatus: Equatable, Sendable {
    public var transport = SetListTransport.stopped
    public var current: Int?
    public var next: Int?
    /// Bars until the next cue comes in (with a tempo), and seconds.
    public var barsLeft: Double?
    public var secondsLeft: Double?

    public init() {}
}

/// One frame of the set list: actions to post, the output brightness (a
/// fade transition) and where the list is.
public struct SetListOutput: Equatable, Sendable {
    public var actions: [AppAction] = []
    public var brightness = 1.0
    public var status = SetListStatus()
}

/// Plays a set list against the tempo: a pure state machine, one `tick` per
/// frame with the frame's time and tempo reading (Link, MIDI clock or the
/// beat tracker, `TempoClock`).
///
/// - A cue of N bars ends N bars after the downbeat of the bar it came in
///   (a cue started by go counts the bar it was started in); the next cue
///   comes in on that downbeat, on the first frame whose beat reaches it.
/// - A cue of S seconds ends S seconds after it came in; with a tempo
///   locked, the next one comes in on the first downbeat after that.
/// - With no tempo locked, bars are counted in time at the last tempo known
///   (120 BPM before any), and cues change at once when their time is up.
/// - go/skip/back while playing (`SetListState.pending`) bring their cue in
///   on the next downbeat; hold keeps the current cue (its remaining bars
///   count again from the bar where play resumes); a source that restarts
///   its count (MIDI Start) moves the grid with it.
/// - Transitions of the incoming cue: cut switches on the downbeat; fade N
///   dims over the N beats before it and lights over the N after; morph N
///   blends from the look on the downbeat into the cue's preset over N beats.
public struct SetListPlayer: Equatable, Sendable {
    private var startsSeen = 0
    /// The cue whose timing is kept.
    private var cue: Int?
    /// The beat (on the tempo source's timeline) the next cue comes in, with a tempo locked.
    private var boundary: Double?
    /// The frame time the next cue comes in, without one (or the end of a seconds cue before its downbeat).
    private var boundaryTime: Double?
    /// A seconds cue: its time is up at this frame time (then the next downbeat is the boundary).
    private var secondsEnd: Double?
    /// Beats left when held (counted again from the bar where play resumes).
    private var heldBeats: Double?
    /// The fade in after a fade transition: from this beat (or time) over these beats.
    private var fadeIn: (beat: Double?, time: Double, beats: Double)?
    /// A morph in progress: the preset, from this beat (or time) over these beats.
    private var morph: (preset: String, beat: Double?, time: Double, beats: Double)?
    private var lastBeat: Double?
    private var lastBPM = 120.0

    public init() {}

    public mutating func tick(time: Double, tempo: TempoReading, model: AppModel) -> SetListOutput {
        let s = model.setList
        let cues = s.list.cues
        var out = SetListOutput()
        out.status.transport = s.transport
        guard s.transport != .stopped, let current = s.current, cues.indices.contains(current) else {
            self = SetListPlayer(startsSeen: s.starts, lastBPM: lastBPM)
            return out
        }
        if tempo.bpm > 0 { lastBPM = tempo.bpm }
        let bpb = max(tempo.beatsPerBar, 1), bpm = lastBPM
        let beat = tempo.beat
        func downbeat(atOrBefore b: Double) -> Double { ((b / bpb) + 1e-9).rounded(.down) * bpb }
        func nextDownbeat(after b: Double) -> Double { ((b / bpb) - 1e-9).rounded(.up) * bpb }

        // A source that restarted its count (or jumped) moves the grid with it.
        if let b = beat, let last = lastBeat, b < last - 1 || b > last + 4 * bpb, let bound = boundary {
            let left = max(bound - last, 0)
            boundary = downbeat(atOrBefore: b) + max((left / bpb).rounded(.up), 1) * bpb
        }
        // Go while stopped: the selected cue comes in now.
        if s.starts != startsSeen || cue == nil {
            startsSeen = s.starts
            out.actions += enter(current, at: beat.map(downbeat(atOrBefore:)), time: time, bpb: bpb, cues: cues, model: model, immediate: true)
        }
        // Locked ↔ unlocked: carry the boundary over.
        if let b = beat, boundary == nil, let t = boundaryTime {
            boundary = max(nextDownbeat(after: b + (t - time) * bpm / 60 - bpb / 2), nextDownbeat(after: b))
            boundaryTime = nil
        } else if beat == nil, let bound = boundary, let last = lastBeat {
            boundaryTime = time + (bound - last) * 60 / bpm
            boundary = nil
        }
        if s.transport == .held {
            if heldBeats == nil {
                heldBeats = boundary.map { max($0 - (beat ?? 0), 0) } ?? boundaryTime.map { max($0 - time, 0) * bpm / 60 }
            }
            lastBeat = beat
            out.status = status(s, beat: beat, time: time, bpm: bpm, bpb: bpb)
            out.brightness = fadeLevel(beat: beat, time: time, bpm: bpm)
            return out
        }
        if let left = heldBeats {
            heldBeats = nil
            let bars = max((left / bpb).rounded(.up), 1)
            if let b = beat { boundary = downbeat(atOrBefore: b) + bars * bpb } else { boundaryTime = time + bars * bpb * 60 / bpm }
        }
        // A seconds cue whose time is up waits for the next downbeat.
        if let end = secondsEnd, time >= end - 1e-9 {
            secondsEnd = nil
            if let b = beat { boundary = nextDownbeat(after: b) } else { boundaryTime = time }
        }
        // go/skip/back while playing: the next downbeat.
        if let p = s.pending, cues.indices.contains(p) {
            if let b = beat { boundary = min(boundary ?? .infinity, nextDownbeat(after: b)) } else { boundaryTime = time }
            secondsEnd = nil
        }
        let incoming = s.pending ?? (current + 1)
        let due = beat.flatMap { b in boundary.map { b >= $0 - 1e-9 } } ?? boundaryTime.map { time >= $0 - 1e-9 } ?? false
        if due {
            if cues.indices.contains(incoming) {
                out.actions += enter(incoming, at: boundary, time: boundaryTime ?? time, bpb: bpb, cues: cues, model: model, immediate: false)
                out.actions.append(.setList(.entered(incoming)))
            } else {
                out.actions.append(.setList(.finished))
                boundary = nil
                boundaryTime = nil
            }
        }
        // The morph in progress.
        if let m = morph {
            let progress = m.beat.flatMap { from in beat.map { ($0 - from) / m.beats } } ?? (time - m.time) * bpm / 60 / m.beats
            let t = min(max(progress, 0), 1)
            out.actions.append(.morph(presetID: m.preset, t: t))
            if t >= 1 { morph = nil }
        }
        // Fading out toward a fade cue's downbeat, or in after it.
        out.brightness = fadeLevel(beat: beat, time: time, bpm: bpm)
        if !due, cues.indices.contains(incoming), case .fade(let f) = cues[incoming].transition {
            if let b = beat, let bound = boundary, bound - b < f { out.brightness = min(out.brightness, max(bound - b, 0) / f) }
            if beat == nil, let t = boundaryTime, (t - time) * bpm / 60 < f { out.brightness = min(out.brightness, max(t - time, 0) * bpm / 60 / f) }
        }
        lastBeat = beat
        var st = model.setList
        if due, cues.indices.contains(incoming) { st.current = incoming; st.pending = nil }
        out.status = status(st, beat: beat, time: time, bpm: bpm, bpb: bpb)
        return out
    }

    /// Brings cue `i` in on the downbeat `at` (nil: without a tempo, at `time`); `immediate`: started by go.
    private mutating func enter(_ i: Int, at b: Double?, time: Double, bpb: Double, cues: [Cue], model: AppModel, immediate: Bool) -> [AppAction] {
        let c = cues[i]
        cue = i
        boundary = nil
        boundaryTime = nil
        secondsEnd = nil
        heldBeats = nil
        morph = nil
        fadeIn = nil
        let bpm = lastBPM
        switch c.length {
        case .bars(let n):
            let beats = Double(n) * bpb
            if let b { boundary = b + beats } else { boundaryTime = time + beats * 60 / bpm }
        case .seconds(let sec):
            secondsEnd = time + sec
        }
        var actions: [AppAction] = []
        switch c.transition {
        case .morph(let beats) where !immediate:
            morph = (c.preset, b, time, beats)
        case .fade(let beats) where !immediate:
            fadeIn = (b, time, beats)
            actions.append(.jumpTo(c.preset))
        default:
            actions.append(.jumpTo(c.preset))
        }
        if let name = c.audioConfig, name != model.audio.config.name {
            if let e = model.audio.entries.first(where: { $0.name == name && $0.isValid }) {
                actions.append(.audio(.applyConfig(e.url)))
            } else {
                actions.append(.notice("Set list: cue \(i + 1) names the audio config '\(name)', which is not saved here", .warning))
            }
        }
        return actions
    }

    /// The fade in after a fade cue came in (1 when none).
    private mutating func fadeLevel(beat: Double?, time: Double, bpm: Double) -> Double {
        guard let f = fadeIn else { return 1 }
        let gone = f.beat.flatMap { from in beat.map { $0 - from } } ?? (time - f.time) * bpm / 60
        if gone >= f.beats { fadeIn = nil; return 1 }
        return min(max(gone / f.beats, 0), 1)
    }

    private func status(_ s: SetListState, beat: Double?, time: Double, bpm: Double, bpb: Double) -> SetListStatus {
        var st = SetListStatus()
        st.transport = s.transport
        st.current = s.current
        st.next = s.next
        if let b = beat, let bound = boundary {
            st.barsLeft = max(bound - b, 0) / bpb
            st.secondsLeft = max(bound - b, 0) * 60 / bpm
        } else if let t = boundaryTime {
            st.secondsLeft = max(t - time, 0)
            st.barsLeft = st.secondsLeft! * bpm / 60 / bpb
        } else if let end = secondsEnd {
            st.secondsLeft = max(end - time, 0)
        }
        if let h = heldBeats { st.barsLeft = h / bpb }
        return st
    }

    public static func == (a: SetListPlayer, b: SetListPlayer) -> Bool {
        a.startsSeen == b.startsSeen && a.cue == b.cue && a.boundary == b.boundary && a.boundaryTime == b.boundaryTime
            && a.secondsEnd == b.secondsEnd && a.heldBeats == b.heldBeats && a.lastBeat == b.lastBeat && a.lastBPM == b.lastBPM
    }

    private init(startsSeen: Int, lastBPM: Double) {
        self.startsSeen = startsSeen
        self.lastBPM = lastBPM
    }
}

/// The set list as a session source: after the live controls (it reads the
/// tick's tempo), each tick plays the list (`SetListPlayer`), posts its
/// actions (preset changes, morph steps, the cue it entered) and dims the
/// frame for fade transitions. The live window registers it (through
/// `SetListShell`, which also reads and saves the file); the headless host
/// has no set list. Main thread only.
public final class SetListSource: ActionSource {
    public private(set) var player = SetListPlayer()
    /// This tick's status (the panel, speech and the state file show it).
    public private(set) var status = SetListStatus()

    public init() {}

    public func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        let out = player.tick(time: inputs.tick.time, tempo: inputs.tempo, model: inbox.model)
        inbox.post(out.actions)
        inputs.brightness *= out.brightness
        status = out.status
    }
}
