import Engine

/// What a control is called and what it does, in words: its label, its
/// unit, and the hint a tooltip shows (and a screen reader would speak).
public struct ControlWords: Equatable, Sendable {
    public var label: String
    public var hint: String
    public var unit = ""

    public init(label: String, hint: String, unit: String = "") {
        self.label = label
        self.hint = hint
        self.unit = unit
    }

    /// "Exposure, 1.50" / "Sim speed, 2.00 steps/frame": the control and its value.
    public func spoken(value: String) -> String {
        "\(label), \(value)" + (unit.isEmpty || value.hasSuffix(unit) ? "" : " \(unit)")
    }
}

/// The one table of words for the editor's controls, shared by tooltips,
/// help popovers and anything that reads controls aloud. Parameters take
/// theirs from `ParamRegistry` (scalars and the others); the editor's own
/// tools are listed here. Ids are those the panels report rectangles for.
public enum ControlWordTable {
    /// The words for control `id`, or nil for an unknown id.
    public static func words(_ id: String) -> ControlWords? {
        if let w = tools[id] { return w }
        if let spec = ParamRegistry.spec(id: id) { return ControlWords(label: spec.label, hint: spec.help, unit: spec.unit) }
        if let o = ParamRegistry.others.first(where: { $0.id == id }) { return ControlWords(label: o.label, hint: o.help) }
        // "species.*.<field>": the All tab edits every species at once.
        let parts = id.split(separator: ".")
        if parts.count == 3, parts[0] == "species", parts[1] == "*", let spec = ParamRegistry.spec(id: "species.0.\(parts[2])") {
            return ControlWords(label: spec.label + " (all species)", hint: spec.help + " The All tab sets every species to one value.", unit: spec.unit)
        }
        return nil
    }

    /// The hint of `id` (empty for an unknown id).
    public static func hint(_ id: String) -> String { words(id)?.hint ?? "" }

    /// The hint of a parameter's lock box.
    public static func lockHint(_ label: String) -> String {
        "Lock \(label): Randomize, Mutate and Morph leave it alone"
    }

    /// The hint of a parameter's label (double-click resets it).
    public static let resetHint = "Double-click to reset to the preset's value"

    /// The editor's own controls.
    public static let tools: [String: ControlWords] = [
        "preset": ControlWords(label: "Preset", hint: "The loaded preset (* when edited). Pick another to load it; < and > step through them."),
        "randomize": ControlWords(label: "Randomize", hint: "New random values for every unlocked parameter and species colour (Ctrl+R). Lock what you want to keep."),
        "mutate": ControlWords(label: "Mutate", hint: "Nudge every unlocked parameter a little (M); the amount beside it sets how far."),
        "mutateAmount": ControlWords(label: "Mutate amount", hint: "How far Mutate moves each unlocked parameter (fraction of its range)"),
        "undo": ControlWords(label: "Undo", hint: "Undo the last edit (Ctrl+Z)"),
        "redo": ControlWords(label: "Redo", hint: "Redo the edit undone last (Ctrl+Shift+Z)"),
        "resetAll": ControlWords(label: "Reset all", hint: "Every parameter back to the loaded preset's values"),
        "morphTarget": ControlWords(label: "Morph target", hint: "The preset the Morph slider blends toward"),
        "morph": ControlWords(label: "Morph", hint: "Blend the current look toward the chosen preset (locked parameters stay)"),
        "cycle": ControlWords(label: "Auto-cycle", hint: "Space: show each preset for the dwell time, fade to black, switch, fade in"),
        "pinnedOnly": ControlWords(label: "Pinned only", hint: "Cycle through pinned presets only (all presets when none is pinned)"),
        "dwell": ControlWords(label: "Dwell", hint: "How long the auto-cycle shows each preset", unit: "s"),
        "save": ControlWords(label: "Save here", hint: "Save the current look into the selected slot (asks before replacing)"),
    ]
}
