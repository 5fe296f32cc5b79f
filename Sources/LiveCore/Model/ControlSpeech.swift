import Engine
import Foundation

/// What is said aloud for a control the panels report by its key (the name
/// of its rectangle: `slider:global.exposure`, `lock:effects.bloom`,
/// `button:randomize` …): its label and value with unit, from
/// `ControlWordTable` and the model; and its help. Pure.
public enum ControlSpeech {
    /// The printf format a scalar parameter's value is shown (and spoken) with.
    public static func valueFormat(_ spec: ParamSpec) -> String {
        spec.integer ? "%.0f" : (spec.span >= 100 ? "%.1f" : (spec.span >= 10 ? "%.2f" : "%.3f"))
    }

    /// A scalar parameter's value as shown and spoken (no unit).
    public static func valueText(_ spec: ParamSpec, _ v: Double) -> String { String(format: valueFormat(spec), v) }

    /// The words for control `key` as the model has it now: `text` (label,
    /// value and unit, or what the control is) and `hint` (its help); nil
    /// for a key that names no control. `context`: what the panels drew this
    /// frame (open sections, menus; `PanelSpeech`).
    public static func describe(_ key: String, model: AppModel, context: SpeechContext = SpeechContext()) -> (text: String, hint: String)? {
        let colon = key.firstIndex(of: ":")
        let kind = colon.map { String(key[..<$0]) } ?? "", id = colon.map { String(key[key.index(after: $0)...]) } ?? key
        if ["window", "spectrum", "captureSource", "captureStatus", "beatLight"].contains(key) { return nil }
        if let d = PanelSpeech.describe(key, model: model, context: context) { return d }
        if let d = AudioControlWords.describe(key, model: model) { return d }
        if let d = SetListWords.describe(key, model: model) { return d }
        if ["route", "config", "sourceRow"].contains(kind) { return nil }  // the audio panel's: gone
        let words = ControlWordTable.words(id)
        let label = words?.label ?? humanized(id)
        let hint = words?.hint ?? ""
        switch kind {
        case "slider":
            if let v = scalarValue(id, model) { return (words!.spoken(value: v), hint) }
            if id == "dwell" { return (words!.spoken(value: String(format: "%.0f", model.live.cycle.dwell)), hint) }
            return ("\(label), slider", hint)
        case "choice", "color":
            return ("\(label), \(otherValue(id, model) ?? "")", hint)
        case "lock":
            let on = model.locks.contains(id) || (id.hasPrefix("species.*.") && (0..<3).allSatisfy {
                model.locks.contains(id.replacingOccurrences(of: "*", with: String($0)))
            })
            return ("Lock \(label), \(on ? "locked" : "unlocked")", ControlWordTable.lockHint(label))
        case "help":
            return ("Help for \(label), button", hint)
        case "button":
            return ("\(label), button", hint)
        case "combo":
            if id == "preset" { return ("\(label), \(model.currentPreset?.name ?? "none")\(model.isEdited ? ", edited" : "")", hint) }
            return ("\(label), list", hint)
        case "header":
            return ("\(id) section", "")
        case "tab":
            return ("\(id) tab", "")
        case "label", "meter", "thumb":
            return nil
        default:
            return ("\(label)", hint)
        }
    }

    /// The value of scalar parameter `id` (or of species 1 for `species.*.x`), formatted.
    static func scalarValue(_ id: String, _ model: AppModel) -> String? {
        let concrete = id.hasPrefix("species.*.") ? id.replacingOccurrences(of: "*", with: "0") : id
        guard let key = ParamRegistry.key(id: concrete) else { return nil }
        return valueText(key.spec, model.base[key])
    }

    /// The value of a non-scalar parameter in words.
    static func otherValue(_ id: String, _ model: AppModel) -> String? {
        let p = model.base
        switch id {
        case "spawn.pattern": return p.spawnPattern.rawValue
        case "render.blendMode": return p.blendMode.rawValue
        case "render.background": return p.background.hex
        default:
            let parts = id.split(separator: ".")
            guard parts.count == 3, parts[0] == "species", parts[2] == "color", let i = Int(parts[1]),
                  p.speciesColors.indices.contains(i) else { return nil }
            return p.speciesColors[i].hex
        }
    }

    /// "routeDepth2" → "route depth 2": a key without table words, readable.
    static func humanized(_ id: String) -> String {
        var out = ""
        for c in id {
            if c.isUppercase || (c.isNumber && !(out.last?.isNumber ?? true)) { out += " " }
            out += c == "." || c == "_" || c == "-" ? " " : String(c).lowercased()
        }
        return out.trimmingCharacters(in: .whitespaces)
    }
}
