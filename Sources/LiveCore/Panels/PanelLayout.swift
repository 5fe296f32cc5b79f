/// Where the open panels go: tiles that never overlap, placed by the app.
///
/// The screen below the menu bar (and below the notices band, when notices
/// are on screen) is split into columns. The parameter editor takes the
/// left column; the other open panels take columns packed against the
/// right edge, in `Panel.allCases` order, so the picture shows between
/// them. Each panel asks for its preferred width (the user's, when they
/// resized it: `PanelWidths`); when the widths do not fit they shrink in
/// proportion, and when a column would be narrower than `minWidth` panels
/// share columns instead, stacked top to bottom (one column at the most
/// cramped). Pure: the shell calls it each frame with the window's size.
public enum PanelLayout {
    /// A panel the layout places.
    public enum Panel: String, CaseIterable, Equatable, Hashable, Sendable {
        case parameters, audio, midi, setList, library, notices

        /// Width in UI pixels at scale 1 when the user did not choose one.
        public var defaultWidth: Double {
            switch self {
            case .parameters: 470
            case .audio: 520
            case .midi: 470
            case .setList: 420
            case .library: 430
            case .notices: 520
            }
        }

        /// What the user reads (menus, speech).
        public var title: String {
            switch self {
            case .parameters: "Parameters"
            case .audio: "Audio"
            case .midi: "MIDI & live control"
            case .setList: "Set list"
            case .library: "Library"
            case .notices: "Notices"
            }
        }
    }

    /// A rectangle in window pixels (top-left origin).
    public struct Rect: Equatable, Sendable {
        public var x: Double, y: Double, width: Double, height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        public var maxX: Double { x + width }
        public var maxY: Double { y + height }

        /// Whether the two share any area (touching edges do not).
        public func overlaps(_ o: Rect) -> Bool { x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY }
    }

    /// Tiles for `open` panels in `area`. `widths` are the preferred widths
    /// in pixels (already at the UI scale); `gap` separates tiles. Of the
    /// ways to put the panels in 1…n columns (`group`), the one whose
    /// narrowest column and shortest tile come closest to `minWidth` and
    /// `minHeight` is used (the most columns among equals): side by side
    /// while there is room, sharing columns when columns would get too
    /// narrow, never stacked so deep that a panel shows only its title.
    public static func tiles(open: [Panel], area: Rect, widths: (Panel) -> Double, minWidth: Double, minHeight: Double,
                             gap: Double) -> [Panel: Rect] {
        let panels = Panel.allCases.filter(open.contains)
        guard !panels.isEmpty, area.width > 0, area.height > 0 else { return [:] }
        var best: (score: Double, tiles: [Panel: Rect])?
        for count in stride(from: panels.count, through: 1, by: -1) {
            let columns = group(panels, into: count)
            let room = area.width - gap * Double(columns.count - 1)
            let w = fit(columns.map { col in col.map(widths).max() ?? 0 }, into: room, least: min(minWidth, room / Double(columns.count)))
            let t = place(columns, widths: w, area: area, gap: gap)
            let score = t.values.map { min(1, $0.width / max(1, minWidth), $0.height / max(1, minHeight)) }.min() ?? 0
            if best == nil || score > best!.score + 1e-9 { best = (score, t) }
        }
        return best?.tiles ?? [:]
    }

    /// `panels` in `count` columns, in order: the editor alone in the first
    /// when it is open and there are two columns or more, the rest spread as
    /// evenly as their order allows (earlier columns take the extra one).
    static func group(_ panels: [Panel], into count: Int) -> [[Panel]] {
        guard count > 1 else { return [panels] }
        var rest = panels
        var columns: [[Panel]] = []
        if rest.first == .parameters {
            columns.append([rest.removeFirst()])
        }
        let left = count - columns.count
        guard left > 0, !rest.isEmpty else { return columns + (rest.isEmpty ? [] : [rest]) }
        var start = 0
        for c in 0..<left {
            let n = rest.count / left + (c < rest.count % left ? 1 : 0)
            if n > 0 { columns.append(Array(rest[start..<start + n])) }
            start += n
        }
        return columns
    }

    /// Column widths: as preferred when they fit `room`; otherwise each keeps
    /// `least` and the rest of the room is shared in proportion to how much
    /// more than that each one wanted. Never wider than the room.
    static func fit(_ preferred: [Double], into room: Double, least: Double) -> [Double] {
        let wanted = preferred.map { min(max($0, least), room) }
        guard wanted.reduce(0, +) > room else { return wanted }
        let excess = wanted.map { $0 - least }, spare = room - least * Double(wanted.count)
        let total = excess.reduce(0, +)
        return excess.map { (least + (total > 0 ? max(0, spare) * $0 / total : 0)).rounded(.down) }
    }

    /// The editor's column at the left edge, the others packed against the
    /// right edge; panels of one column stacked with equal heights.
    static func place(_ columns: [[Panel]], widths: [Double], area: Rect, gap: Double) -> [Panel: Rect] {
        var out: [Panel: Rect] = [:]
        var left = area.x, right = area.maxX
        var xs = [Double](repeating: 0, count: columns.count)
        var firstRight = 0
        if columns.first?.first == .parameters {
            xs[0] = left
            left += widths[0] + gap
            firstRight = 1
        }
        for c in stride(from: columns.count - 1, through: firstRight, by: -1) {
            xs[c] = right - widths[c]
            right = xs[c] - gap
        }
        for (c, column) in columns.enumerated() {
            let n = Double(column.count)
            let h = ((area.height - gap * (n - 1)) / n).rounded(.down)
            for (i, p) in column.enumerated() {
                out[p] = Rect(x: xs[c], y: area.y + Double(i) * (h + gap), width: widths[c], height: h)
            }
        }
        return out
    }
}

extension PanelLayout {
    /// What speech calls the window with id `window` when the focus enters it:
    /// "Audio panel", "Notices window", "Menu bar"; nil for an unknown one.
    public static func spokenName(window: String) -> String? {
        if window == "##MainMenuBar" || window.hasPrefix("##Menu_") { return "Menu bar" }
        if window == "##notices" { return "Notices" }
        guard let p = Panel.allCases.first(where: { $0.title == window }) else { return nil }
        return p == .notices ? "Notices window" : "\(p.title) panel"
    }
}

/// The widths the user gave panels by resizing them (UI pixels at scale 1);
/// a panel not listed takes its default. Kept in the session.
public struct PanelWidths: Equatable, Sendable {
    public private(set) var values: [PanelLayout.Panel: Double] = [:]
    /// The widths a user can choose, at scale 1.
    public static let range = 200.0...1600.0

    public init(_ values: [PanelLayout.Panel: Double] = [:]) {
        for (p, w) in values { set(p, w) }
    }

    /// The width of `panel` at scale 1.
    public func width(_ panel: PanelLayout.Panel) -> Double { values[panel] ?? panel.defaultWidth }

    /// Sets a panel's width (clamped; a non-finite width is ignored).
    public mutating func set(_ panel: PanelLayout.Panel, _ width: Double) {
        guard width.isFinite else { return }
        values[panel] = min(max(width, Self.range.lowerBound), Self.range.upperBound).rounded()
    }
}
