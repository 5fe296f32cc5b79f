import ImGuiShim
import LiveCore

/// Puts the open panels in their tiles each frame (`PanelLayout`: never
/// overlapping, below the menu bar and the notices band, above the status
/// band), turns a width the user dragged into the panel's new width, and
/// moves the keyboard focus to the menu bar (Alt, F10) or the next panel
/// (Ctrl+Tab) without activating anything. Main thread only, in an ImGui frame.
struct PanelArrangement {
    typealias Panel = PanelLayout.Panel

    /// The tiles of this frame, by panel.
    private(set) var tiles: [Panel: UI.Rect] = [:]
    /// Focus moves asked for, done in the next frame.
    var menuFocusRequested = false
    var panelSteps = 0
    /// The panel that had the focus before the menu bar took it (Alt again goes back).
    private var lastPanel: Panel?

    /// The ImGui window id of a panel (its title may be cut; the id stays).
    static func windowID(_ p: Panel) -> String {
        switch p {
        case .parameters: "Parameters"
        case .audio: "Audio"
        case .midi: MidiPanel.windowID
        case .setList: SetListPanel.windowName
        case .library: "Library"
        case .notices: NoticesPanel.windowName
        }
    }

    /// The panel whose window is named `id` (the part after "###" when there is one).
    static func panel(window id: String) -> Panel? { Panel.allCases.first { windowID($0) == id } }

    /// Whether a window (by id) is the main menu bar or one of its open menus.
    static func isMenu(_ id: String) -> Bool { id == "##MainMenuBar" || id.hasPrefix("##Menu_") }

    /// Computes the tiles for the `open` panels in the window's `area` (UI pixels).
    mutating func layout(open: [Panel], area: UI.Rect, widths: PanelWidths) {
        let u = Double(UI.unit)
        let gap = (4 * u).rounded()
        let r = PanelLayout.Rect(x: Double(area.x0), y: Double(area.y0) + gap, width: Double(area.x1 - area.x0),
                                 height: Double(area.y1 - area.y0) - gap)
        // A panel's least: 320 design pixels wide, its title and four rows tall.
        tiles = PanelLayout.tiles(open: open, area: r, widths: { widths.width($0) * u }, minWidth: 320 * u,
                                  minHeight: 5 * Double(ig_get_frame_height()), gap: gap).mapValues(UI.Rect.init)
    }

    /// After the panels were drawn: a panel whose window width differs from
    /// its tile while a resize grip is held was resized by the user; its new
    /// width (at scale 1) is the old one scaled by what the drag did.
    func resized(windows: [Panel: UI.Rect], widths: PanelWidths) -> [AppAction] {
        guard ig_is_any_item_active() else { return [] }
        var out: [AppAction] = []
        for (p, w) in windows {
            guard let t = tiles[p], t.x1 > t.x0 else { continue }
            let drawn = w.x1 - w.x0, tile = t.x1 - t.x0
            if abs(drawn - tile) > 1 { out.append(.ui(.setPanelWidth(p, widths.width(p) * Double(drawn / tile)))) }
        }
        return out
    }

    /// Moves the keyboard focus as asked: to the menu bar (or back to the
    /// panel it came from when the menu bar has it), or `panelSteps` panels
    /// on from the focused one among `open` (layout order). Call at the start
    /// of the frame, before the menu bar and panels are drawn (ImGui picks the
    /// first control of the window while its items are submitted);
    /// `focusedWindow` is the window holding the focus.
    mutating func moveFocus(open: [Panel], focusedWindow: String) {
        let current = Self.panel(window: focusedWindow)
        if let current { lastPanel = current }
        if menuFocusRequested {
            menuFocusRequested = false
            if Self.isMenu(focusedWindow), let back = lastPanel ?? open.first {
                _ = ("###" + Self.windowID(back)).withCString { ig_focus_window_nav($0) }
            } else {
                _ = ig_focus_main_menu_bar()
            }
        }
        guard panelSteps != 0, !open.isEmpty else { return }
        let order = Panel.allCases.filter(open.contains)
        let from = current.flatMap { order.firstIndex(of: $0) } ?? (panelSteps > 0 ? -1 : 0)
        let to = ((from + panelSteps) % order.count + order.count) % order.count
        panelSteps = 0
        _ = ("###" + Self.windowID(order[to])).withCString { ig_focus_window_nav($0) }
    }
}
