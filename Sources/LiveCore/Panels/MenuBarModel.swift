/// The main menu bar as data: its menus and items, each with its label,
/// shortcut, check state and action, made from the model. The menu bar
/// draws it; spoken feedback reads the same items (one description, not two).
public enum MenuBarModel {
    /// One entry of a menu: an item with an action, or a submenu.
    public struct Item: Equatable, Sendable {
        /// "View/Fullscreen", "View/Theme/Dark room": the path of labels.
        public var path: String
        public var label: String
        public var shortcut: String?
        /// On or off for toggles and choices; nil for commands.
        public var checked: Bool?
        public var enabled = true
        public var action: AppAction?
        /// A submenu's items (empty for an item).
        public var submenu: [Item] = []
        /// A separator is drawn above it.
        public var separated = false

        public var isSubmenu: Bool { !submenu.isEmpty }
    }

    /// A menu of the bar.
    public struct Menu: Equatable, Sendable {
        public var title: String
        public var items: [Item]
    }

    /// The panel background opacities offered in View ▸ Panel background.
    public static let opacities: [Double] = [1, 0.96, 0.92, UITheme.opacityRange.lowerBound]

    /// The menus for `model` with `displayCount` displays connected.
    public static func menus(_ model: AppModel, displayCount: Int) -> [Menu] {
        func item(_ menu: String, _ label: String, _ shortcut: String? = nil, checked: Bool? = nil, enabled: Bool = true,
                  _ action: AppAction?, separated: Bool = false) -> Item {
            Item(path: "\(menu)/\(label)", label: label, shortcut: shortcut, checked: checked, enabled: enabled, action: action,
                 separated: separated)
        }
        let ui = model.ui
        let themes = UITheme.ID.allCases.map { t in item("View/Theme", t.label, checked: ui.theme == t, .ui(.setTheme(t))) }
        let opacity = opacities.map { o in
            item("View/Panel background", o == 1 ? "Opaque" : "\(Int((o * 100).rounded())) %", checked: abs(ui.panelOpacity - o) < 0.005,
                 .ui(.setPanelOpacity(o)))
        }
        let view: [Item] = [
            item("View", "Fullscreen", "F11", checked: model.fullscreen, .toggleFullscreen),
            item("View", "Panels", "Tab", checked: model.uiVisible, .toggleUI),
            item("View", "Stats overlay", "F3", checked: model.overlayVisible, .toggleOverlay),
            item("View", "Audio panel", "A", checked: model.audio.panelVisible, .audio(.togglePanel)),
            item("View", "Library", "L", checked: model.live.libraryPanelVisible, .live(.toggleLibraryPanel)),
            item("View", "MIDI & live control", checked: model.control.panelVisible, .control(.togglePanel)),
            item("View", "Set list", "S", checked: model.setList.panelVisible, .setList(.togglePanel)),
            item("View", "Keys", "?", .live(.toggleKeyHelp)),
            item("View", "Notices (\(model.notices.history.count))", checked: model.notices.windowOpen, .toggleNoticesWindow),
            item("View", "Speak controls", checked: model.live.speechOn, .live(.toggleSpeech)),
            Item(path: "View/Theme", label: "Theme", action: nil, submenu: themes, separated: true),
            Item(path: "View/Panel background", label: "Panel background", action: nil, submenu: opacity),
            item("View", "UI larger", "Ctrl +", .uiScaleStep(1), separated: true),
            item("View", "UI smaller", "Ctrl -", .uiScaleStep(-1)),
        ]
        var output = (0..<max(1, displayCount)).map { d in
            item("Output", "Projector window on display \(d + 1)", checked: model.outputDisplay == d, .outputWindow(model.outputDisplay == d ? nil : d))
        }
        output.append(item("Output", "Close projector window", enabled: model.outputDisplay != nil, .outputWindow(nil)))
        // Video out beside the window (docs/video-out.md); the stream and the device need their command-line destination.
        for (i, kind) in VideoOutKind.allCases.enumerated() {
            let label = switch kind {
            case .pipewire: "PipeWire camera"
            case .stream: model.videoOut.streamURL == nil ? "Network stream (start with --stream URL)" : "Network stream"
            case .v4l2: model.videoOut.v4l2Device == nil ? "v4l2loopback (start with --v4l2 DEVICE)" : "v4l2loopback"
            }
            output.append(item("Output", label, checked: model.videoOut.on.contains(kind), enabled: model.videoOut.available(kind),
                               .videoOut(.toggle(kind)), separated: i == 0))
        }
        let look: [Item] = [
            item("Look", "Undo", "Ctrl+Z", .undo), item("Look", "Redo", "Ctrl+Shift+Z", .redo),
            item("Look", "Next preset", "PageDown", .next), item("Look", "Previous preset", "PageUp", .previous),
        ]
        return [Menu(title: "View", items: view), Menu(title: "Output", items: output), Menu(title: "Look", items: look)]
    }

    /// The item at `path` ("View/Theme/Dark room"), searched through submenus.
    public static func item(_ path: String, in menus: [Menu]) -> Item? {
        func find(_ items: [Item]) -> Item? {
            for i in items {
                if i.path == path { return i }
                if let f = find(i.submenu) { return f }
            }
            return nil
        }
        for m in menus { if let f = find(m.items) { return f } }
        return nil
    }

    /// What is said for a menu ("menu:View") or an item ("menuItem:View/Fullscreen")
    /// of `menus`: "View menu"; "Fullscreen, F11, off"; "Theme, submenu";
    /// "Close projector window, unavailable". Nil for another key.
    public static func spoken(_ key: String, menus: [Menu]) -> (text: String, hint: String)? {
        if key.hasPrefix("menu:") {
            let title = String(key.dropFirst(5))
            if menus.contains(where: { $0.title == title }) { return ("\(title) menu", "Down or Space opens it; Left and Right move along the menu bar") }
            guard let sub = item(title, in: menus), sub.isSubmenu else { return nil }
            return ("\(sub.label), submenu", "Right or Space opens it")
        }
        guard key.hasPrefix("menuItem:"), let i = item(String(key.dropFirst(9)), in: menus) else { return nil }
        var words = [i.label]
        if i.isSubmenu { words.append("submenu") }
        if let s = i.shortcut { words.append(s) }
        if let c = i.checked { words.append(c ? "on" : "off") }
        if !i.enabled { words.append("unavailable") }
        return (words.joined(separator: ", "), "")
    }
}
