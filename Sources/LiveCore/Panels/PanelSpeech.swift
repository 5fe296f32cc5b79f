import Foundation

/// What the panels know about a frame that the model does not, for speech:
/// which section headers are open, the help popover on screen, the menus
/// as drawn.
public struct SpeechContext: Sendable {
    /// Header keys ("header:Source") whose section is open.
    public var expanded: Set<String> = []
    /// The help popover on screen: its title and text.
    public var popover: (title: String, text: String)?
    /// The menus of the menu bar this frame.
    public var menus: [MenuBarModel.Menu] = []

    public init(expanded: Set<String> = [], popover: (title: String, text: String)? = nil, menus: [MenuBarModel.Menu] = []) {
        self.expanded = expanded
        self.popover = popover
        self.menus = menus
    }
}

/// The words for the panels' own parts: section headers (with their state),
/// menus and menu items, library rows (slot, name, pinned), the notices'
/// band and window. `ControlSpeech.describe` asks here first. Pure.
public enum PanelSpeech {
    public static func describe(_ key: String, model: AppModel, context: SpeechContext) -> (text: String, hint: String)? {
        if key.hasPrefix("header:") {
            let title = String(key.dropFirst(7))
            let open = context.expanded.contains(key)
            return ("\(title) section, \(open ? "expanded" : "collapsed")", open ? "Space collapses it" : "Space expands it")
        }
        if let m = MenuBarModel.spoken(key, menus: context.menus) { return m }
        if key.hasPrefix("row:") { return row(String(key.dropFirst(4)), model) }
        if let n = notice(key, model.notices) { return n }
        return nil
    }

    /// A library row ("slot:2", "factory:ember") or a notices-window row ("12").
    static func row(_ id: String, _ model: AppModel) -> (text: String, hint: String)? {
        let lib = model.library
        if id.hasPrefix("slot:"), let i = Int(id.dropFirst(5)), lib.slots.indices.contains(i) {
            guard let s = lib.slots[i] else { return ("Slot \(i + 1), empty", "Space selects it; Save here saves the look into it") }
            var words = ["Slot \(i + 1)", s.preset.name]
            if s.pinned { words.append("pinned") }
            if model.currentPreset?.id == s.preset.id { words.append("playing") }
            return (words.joined(separator: ", "), "Space loads it")
        }
        if id.hasPrefix("factory:") {
            let pid = String(id.dropFirst(8))
            guard let item = lib.items.first(where: { $0.slot == nil && $0.preset.id == pid }) else { return nil }
            var words = ["Factory preset \(item.preset.name)"]
            if item.pinned { words.append("pinned") }
            if model.currentPreset?.id == pid { words.append("playing") }
            return (words.joined(separator: ", "), "Space loads it")
        }
        if let n = Int(id), let i = model.notices.history.firstIndex(where: { $0.id == n }) {
            let all = model.notices.history
            return ("\(spokenLevel(all[i].level))\(all[i].text), notice \(all.count - i) of \(all.count)", "")
        }
        return nil
    }

    /// The notices band's buttons and the window's.
    static func notice(_ key: String, _ board: NoticeBoard) -> (text: String, hint: String)? {
        if key.hasPrefix("dismiss:"), let id = Int(key.dropFirst(8)), let n = board.history.first(where: { $0.id == id }) {
            return ("Dismiss \(spokenLevel(n.level))\(n.text), button", "Removes it from the band; the notices window keeps it")
        }
        switch key {
        case "more": return ("\(board.hiddenCount) more notices, button", "Opens the notices window")
        case "all": return ("All notices, \(board.history.count), button", "Opens the notices window: the whole session's notices")
        case "dismissAll", "clear": return ("Dismiss all notices on screen, button", "The notices window keeps them")
        default: return nil
        }
    }

    static func spokenLevel(_ l: NoticeLevel) -> String {
        switch l {
        case .info: ""
        case .warning: "Warning: "
        case .error: "Error: "
        }
    }
}
