/// How the panels look and sit, as the user chose (kept in the session):
/// the theme, the panel background's opacity, the panels' widths.
public struct UISettings: Equatable, Sendable {
    public var theme: UITheme.ID = .standard
    /// Alpha of the panels' background only (text and controls stay opaque), within `UITheme.opacityRange`.
    public var panelOpacity = UITheme.defaultOpacity
    public var panelWidths = PanelWidths()

    public init(theme: UITheme.ID = .standard, panelOpacity: Double = UITheme.defaultOpacity, panelWidths: PanelWidths = PanelWidths()) {
        self.theme = theme
        self.panelOpacity = Self.clampOpacity(panelOpacity)
        self.panelWidths = panelWidths
    }

    static func clampOpacity(_ v: Double) -> Double {
        let r = UITheme.opacityRange
        return v.isFinite ? min(max(v, r.lowerBound), r.upperBound) : UITheme.defaultOpacity
    }
}

/// What the user asks of the panels' frame: keyboard focus moves, the
/// theme, the opacity, a panel's width.
public enum UIAction: Equatable, Sendable {
    /// Alt (tap) or F10: the keyboard focus to the menu bar.
    case focusMenuBar
    /// Ctrl+Tab (+1) / Ctrl+Shift+Tab (−1): the keyboard focus to the next open panel.
    case cyclePanel(Int)
    case setTheme(UITheme.ID)
    case setPanelOpacity(Double)
    /// The user resized a panel: its width at UI scale 1.
    case setPanelWidth(PanelLayout.Panel, Double)
    /// The session's settings at start.
    case restore(UISettings)
}

/// Work for the shell: move the keyboard focus, restyle the panels.
public enum UIEffect: Equatable, Sendable {
    case focusMenuBar
    case cyclePanel(Int)
    /// Apply the theme and opacity to the panels' style.
    case applyStyle(UITheme.ID, opacity: Double)
}

extension AppModel {
    /// Applies a panel-frame action.
    public mutating func handleUI(_ action: UIAction) -> [AppEffect] {
        let before = ui
        switch action {
        case .focusMenuBar:
            return [.ui(.focusMenuBar)]
        case .cyclePanel(let step):
            return [.ui(.cyclePanel(step))]
        case .setTheme(let t):
            ui.theme = t
        case .setPanelOpacity(let v):
            ui.panelOpacity = UISettings.clampOpacity(v)
        case .setPanelWidth(let p, let w):
            ui.panelWidths.set(p, w)
        case .restore(let s):
            ui = s
            ui.panelOpacity = UISettings.clampOpacity(s.panelOpacity)
        }
        guard ui.theme != before.theme || ui.panelOpacity != before.panelOpacity else { return [] }
        return [.ui(.applyStyle(ui.theme, opacity: ui.panelOpacity))]
    }
}
