/// The set list in words: the panel's status line, and what speech says for
/// each of the panel's controls (its rectangle keys, "setlist:…").
public enum SetListWords {
    /// A cue's preset by name (its id when the preset is gone).
    public static func presetName(_ id: String, _ model: AppModel) -> String {
        model.presets.first { $0.id == id }?.name ?? id
    }

    /// "Playing cue 2 of 5 (Blue Storm), next: 3 (Cellar) in 1.5 bars" and the like.
    public static func statusLine(_ model: AppModel, _ st: SetListStatus) -> String {
        let s = model.setList, n = s.list.cues.count
        func cue(_ i: Int?) -> String {
            guard let i, s.list.cues.indices.contains(i) else { return "none" }
            return "\(i + 1) (\(presetName(s.list.cues[i].preset, model)))"
        }
        switch s.transport {
        case .stopped:
            return n == 0 ? "Stopped. No cues." : "Stopped. Go plays from cue \(cue(s.selected)) of \(n)."
        case .playing, .held:
            var left = ""
            if let b = st.barsLeft { left = String(format: " in %.1f bars", b) } else if let t = st.secondsLeft { left = String(format: " in %.0f s", t) }
            let next = s.next.map { "next: \(cue($0))\(left)" } ?? "last cue\(left.isEmpty ? "" : ", ends\(left)")"
            return "\(s.transport == .held ? "Holding" : "Playing") cue \(cue(s.current)) of \(n), \(next)."
        }
    }

    /// Speech for a set list control; nil for a key that is not one.
    public static func describe(_ key: String, model: AppModel) -> (text: String, hint: String)? {
        guard key.hasPrefix("setlist:") else { return nil }
        let id = String(key.dropFirst("setlist:".count))
        let s = model.setList
        if id.hasPrefix("cue:"), let i = Int(id.dropFirst(4)), s.list.cues.indices.contains(i) {
            let c = s.list.cues[i]
            let state = s.current == i ? ", playing" : (i == s.selected ? ", selected" : "")
            return ("Cue \(i + 1) of \(s.list.cues.count): \(presetName(c.preset, model)), \(c.length.label), \(c.transition.label)\(state)",
                    "Space selects it; Go plays from the selected cue.")
        }
        let c = s.list.cues.indices.contains(s.selected) ? s.list.cues[s.selected] : nil
        switch id {
        case "go": return ("Go, button", "Stopped: plays from the selected cue. Playing: the next cue on the next downbeat. Held: plays on.")
        case "back": return ("Back, button", "The previous cue on the next downbeat.")
        case "hold": return (s.transport == .held ? "Release, button" : "Hold, button", "Keeps the current cue until pressed again.")
        case "skip": return ("Skip, button", "The next cue on the next downbeat.")
        case "stop": return ("Stop, button", "Stops the set list; the look stays.")
        case "add": return ("Add current, button", "Adds the loaded preset and audio config as a cue after the selected one.")
        case "up": return ("Move up, button", "")
        case "down": return ("Move down, button", "")
        case "duplicate": return ("Duplicate, button", "")
        case "delete": return ("Delete cue, button", "")
        case "unit": return ("In bars, \(c.map { if case .bars = $0.length { "checked" } else { "not checked" } } ?? "")", "Bars of the tempo, or seconds.")
        case "length": return ("Length, \(c?.length.label ?? "")", "How long the selected cue plays.")
        case "transition": return ("Transition, \(c?.transition.kind ?? "")", "Cut on the downbeat, fade through black, or morph into the cue.")
        case "beats": return ("Transition beats, \(c?.transition.beats.map { AppModel.beats($0) } ?? "")", "")
        default: return nil
        }
    }
}
