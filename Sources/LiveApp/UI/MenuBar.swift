import ImGuiShim
import LiveCore

/// The main menu bar, drawn from `MenuBarModel` (the items spoken feedback
/// reads too), with the live badges (DEMO, recording, blackout, auto-cycle)
/// at its right end while the panels are shown. Main thread only.
struct MenuBar {
    /// Rectangles of the last frame by the window they are in ("##MainMenuBar"
    /// for the bar, "##Menu_00"… for open menus): "menu:View", "menu:View/Theme",
    /// "menuItem:View/Fullscreen", "badge:<text>".
    private(set) var rects: [String: [String: UI.Rect]] = [:]
    /// The menus as drawn in the last frame.
    private(set) var menus: [MenuBarModel.Menu] = []
    /// The bar's rectangle in the last frame (nil when hidden).
    private(set) var bar: UI.Rect?

    /// Draws the bar; the items chosen become actions.
    mutating func draw(model: AppModel, displayCount: Int, badges: [(text: String, red: Bool)], dispatch: (AppAction) -> Void) {
        rects.removeAll(keepingCapacity: true)
        bar = nil
        menus = MenuBarModel.menus(model, displayCount: displayCount)
        guard ig_begin_main_menu_bar() else { return }
        defer { ig_end_main_menu_bar() }
        bar = UI.currentWindowRect
        for m in menus {
            let r = nextMenuRect(m.title, inBar: true)
            record("menu:" + m.title, r)
            fitNextMenu()
            if ig_begin_menu(m.title, true) {
                items(m.items, dispatch)
                ig_end_menu()
            }
        }
        badgesAtTheRight(badges)
    }

    private mutating func items(_ list: [MenuBarModel.Item], _ dispatch: (AppAction) -> Void) {
        for i in list {
            if i.separated { ig_separator() }
            if i.isSubmenu {
                record("menu:" + i.path, nextMenuRect(i.label, inBar: false))
                fitNextMenu()
                if ig_begin_menu(i.label, i.enabled) {
                    items(i.submenu, dispatch)
                    ig_end_menu()
                }
                continue
            }
            let chosen = i.label.withCString { l in
                (i.shortcut ?? "").withCString { s in ig_menu_item(l, i.shortcut == nil ? nil : s, i.checked ?? false, i.enabled) }
            }
            record("menuItem:" + i.path, UI.lastItemRect)
            if chosen, let a = i.action { dispatch(a) }
        }
    }

    /// A menu taller than the window below the bar scrolls instead of running off the screen
    /// (the arrows scroll to the item they reach).
    private func fitNextMenu() {
        var dw: Float = 0, dh: Float = 0
        ig_get_display_size(&dw, &dh)
        ig_set_next_window_size_constraints(0, 0, dw, max(ig_get_frame_height() * 3, dh - (bar?.y1 ?? 0) - 4))
    }

    /// Where a menu's name will be (an open menu's popup becomes the last item, so it is measured before).
    private func nextMenuRect(_ label: String, inBar: Bool) -> UI.Rect {
        var x: Float = 0, y: Float = 0
        ig_get_cursor_screen_pos(&x, &y)
        let w = inBar ? ig_calc_text_width(label) + ig_style_item_spacing_x() : max(UI.lineRoom, ig_calc_text_width(label))
        return UI.Rect(x0: x, y0: y, x1: x + w, y1: y + ig_get_text_line_height())
    }

    private mutating func record(_ key: String, _ r: UI.Rect) {
        rects[UI.currentWindowName, default: [:]][key] = r
    }

    /// The badges right-aligned in the bar, as far as they fit after the menus.
    private mutating func badgesAtTheRight(_ badges: [(text: String, red: Bool)]) {
        guard !badges.isEmpty, let bar else { return }
        let gap = ig_style_item_spacing_x() * 2
        var x = bar.x1 - ig_style_window_padding_x()
        let left = UI.lastItemRect.x1 + gap
        let t = UIStyle.theme.text
        for b in badges.reversed() {
            let w = ig_calc_text_width(b.text)
            guard x - w >= left else { break }
            x -= w
            ig_probe_text_in(x, bar.y0 + (bar.y1 - bar.y0 - ig_get_text_line_height()) / 2, UIStyle.word(b.red ? t.error : t.accent), b.text, x, x + w)
            record("badge:" + b.text, UI.Rect(x0: x, y0: bar.y0, x1: x + w, y1: bar.y1))
            x -= gap
        }
    }
}
