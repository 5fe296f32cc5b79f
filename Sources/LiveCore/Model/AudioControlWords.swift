import AudioReactive
import Foundation

/// The audio panel's words: the help its tooltips show and what is spoken
/// for each of its controls (label and value with unit), by the control's
/// rectangle key (`reactivity`, `tuning:attack`, `route:0:depth`,
/// `config:club.json`, `sourceRow:NAME`, `beatTap` …). One table for both,
/// as `ControlWordTable` is for the editor. Pure.
public enum AudioControlWords {
    /// Help of the controls that are not analysis settings (those come from `AudioTuning.fields`).
    public static let controlHelp: [String: String] = [
        "enabled": "Master switch. Off: every route is ignored and the picture shows the preset's own values exactly.",
        "reactivity": "Global reactivity: multiplies every route's depth (1 = as the routes are written, 0 = still, 3 = three times as strong).",
        AudioTuning.autoGainKey: AudioTuning.autoGainHelp,
    ]

    /// Help of a route's parts.
    public static let routeHelp: [String: String] = [
        "source": "The band (or the whole spectrum, full) this route listens to.",
        "mode": "level follows the band's loudness (a sustained push); transient follows hits (jumps on an onset, then decays).",
        "target": "The parameter moved. Only parameters that can change smoothly are offered (not agent counts, populations or sim speed); \"All species\" moves that parameter of every species.",
        "depth": "How far the route moves its target at full signal, as a fraction of the target's range (−2…2; negative pushes down). Arrows/wheel: 1/100 of the range, Shift ×0.1, Alt ×10; Ctrl+click to type; double-click the label to reset.",
        "smoothing": "Extra smoothing of the signal: the time to reach 63 % of a step (ms, 0 = none).",
        "curve": "Exponent on the signal: above 1 reacts only to the loud parts, below 1 to the quiet parts too.",
        "invert": "Use 1 − signal: push in silence, relax when it is loud.",
        "activity": "How far this route moves its target right now (the bar's half width is the whole range).",
    ]

    /// Buttons and text fields of the panel: label and what it does.
    static let plain: [String: (text: String, hint: String)] = [
        "machine": ("What the machine plays, button", "Capture the default output's monitor: whatever this computer plays"),
        "microphone": ("Microphone, button", "Capture the default input (or the first one that is not a monitor)"),
        "sourceDefault": ("Server default source, button", "Capture the sound server's default source"),
        "refreshSources": ("Refresh sources, button", "List the capture sources again"),
        "addRoute": ("Add route, button", "Add a route: a band moving a parameter"),
        "defaultWiring": ("Apply default wiring, button", "Replace the routes with the starter wiring"),
        "routesUndo": ("Undo, button", "Undo the last change to the routes or tuning"),
        "routesRedo": ("Redo, button", "Redo what Undo took back"),
        "beatTap": ("Tap tempo, button", "Taps set the tempo and put a beat on the last tap"),
        "beatDouble": ("Double tempo, button", "The tempo is twice what the tracker heard"),
        "beatHalf": ("Half tempo, button", "The tempo is half what the tracker heard"),
        "beatLock": ("Lock tempo, button", "Hold the tempo (the beats still follow the music's phase)"),
        "beatBar": ("Bar start, button", "The next beat is the first of a bar"),
        "apply": ("Apply config, button", "Use the selected config"),
        "save": ("Save config, button", "Write the edited config back to its file"),
        "saveAs": ("Save config as, button", "Save the edited config under the name typed"),
        "rename": ("Rename config, button", "Rename the selected config to the name typed"),
        "delete": ("Delete config, button", "Delete the selected config (asks first)"),
        "refreshConfigs": ("Refresh configs, button", "List the saved configs again"),
        "configName": ("Config name, text field", "The name for Save as and Rename"),
        "exportPath": ("Export path, text field", "A file or folder to export the edited config to"),
        "export": ("Export, button", "Export the edited config to the path typed"),
        "importPath": ("Import path, text field", "A config JSON file to import"),
        "import": ("Import, button", "Import the config file typed"),
    ]

    /// The rectangle key of a tuning field's slider: controls at the top
    /// level of a config by their key, the `tuning` object's as `tuning:KEY`.
    public static func key(_ f: AudioTuning.Field) -> String { f.placement == .config ? f.key : "tuning:" + f.key }

    /// The printf format a tuning field's value is shown (and spoken) with, unit included.
    public static func valueFormat(_ f: AudioTuning.Field) -> String {
        f.unit == "s" ? "%.2f s" : (f.unit.isEmpty ? "%.2f" : "%.1f " + f.unit)
    }

    /// A tuning field's value as the panel shows it, with its unit.
    public static func valueText(_ f: AudioTuning.Field, _ v: Double) -> String { String(format: valueFormat(f), v) }

    /// The words for audio panel control `key` (`help:` + key for its help
    /// marker); nil when the key is not one of the panel's controls.
    public static func describe(_ key: String, model: AppModel) -> (text: String, hint: String)? {
        if key.hasPrefix("help:"), let d = describe(String(key.dropFirst(5)), model: model) {
            return ("Help for \(d.text.split(separator: ",").first ?? ""), button", d.hint)
        }
        let c = model.audio.config
        func onOff(_ b: Bool) -> String { b ? "on" : "off" }
        switch key {
        case "enabled": return ("Master, \(onOff(c.enabled))", controlHelp[key]!)
        case AudioTuning.autoGainKey: return ("Auto-gain, \(onOff(c.tuning.autoGain))", controlHelp[key]!)
        case "reactivity": return (String(format: "Reactivity, %.2f", c.reactivity), controlHelp[key]!)
        default: break
        }
        if let f = AudioTuning.fields.first(where: { Self.key($0) == key }) {
            return ("\(f.label), \(valueText(f, c.tuning[field: f]))", f.helpWithUnit)
        }
        if let p = plain[key] { return p }
        if key.hasPrefix("route:") { return route(key, c.routes) }
        if key.hasPrefix("config:") {
            let file = key.dropFirst(7)
            guard let e = model.audio.entries.first(where: { $0.url.lastPathComponent == file }) else { return nil }
            var text = "Config \(e.name)"
            if e.origin == .shipped { text += ", shipped" }
            if !e.isValid { text += ", does not load" }
            if e.url == model.audio.file { text += ", editing" }
            return (text, e.problem ?? "Space selects it; Apply uses it")
        }
        if key.hasPrefix("sourceRow:") {
            let name = String(key.dropFirst(10))
            let s = model.audio.sources.first { $0.name == name }
            let text = "Source \(s.map { $0.description.isEmpty ? $0.name : $0.description } ?? name)"
                + (s?.isDefault == true ? ", default" : "") + (s?.isMonitor == true ? ", monitor" : "")
                + (name == model.audio.source ? ", capturing" : "")
            return (text, "Space captures this source")
        }
        return nil
    }

    /// "route:I:PART" → "Route I+1 depth, 0.500".
    static func route(_ key: String, _ routes: [Route]) -> (text: String, hint: String)? {
        let parts = key.split(separator: ":")
        guard parts.count == 3, let i = Int(parts[1]), routes.indices.contains(i) else { return nil }
        let r = routes[i], part = String(parts[2]), n = "Route \(i + 1)"
        let hint = routeHelp[part] ?? ""
        switch part {
        case "mute": return ("\(n) mute, \(r.muted ? "on" : "off")", "Mute: silence this route (kept and saved)")
        case "solo": return ("\(n) solo, \(r.solo ? "on" : "off")", "Solo: while any route is solo, only solo routes play")
        case "source": return ("\(n) source, \(r.source.rawValue)", hint)
        case "mode": return ("\(n) mode, \(r.mode.rawValue)", hint)
        case "target": return ("\(n) target, \(r.target.id)", hint)
        case "depth": return (String(format: "\(n) depth, %.3f", r.depth), hint)
        case "smoothing": return ("\(n) smoothing, " + (r.smoothing.map { String(format: "%.0f ms", $0) } ?? "none"), hint)
        case "curve": return (String(format: "\(n) curve, %.2f", r.curve), hint)
        case "invert": return ("\(n) invert, \(r.invert ? "on" : "off")", hint)
        case "dup": return ("Duplicate \(n.lowercased()), button", "A copy of this route below it")
        case "remove": return ("Remove \(n.lowercased()), button", "Remove this route (Undo brings it back)")
        default: return nil
        }
    }
}
