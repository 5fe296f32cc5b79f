/// Walks the keyboard focus over a panel row by row from the top (Left to
/// the row's start, Right along it and back, then Down), opening closed sections with Space,
/// and returns every control reached. Moves are told apart by the focused
/// control and its rectangle together (a colour editor's parts share one
/// control name; in a scrolling panel the next row can land where the last
/// one was). The keys go
/// through `press` — headless ImGui frames or xdotool into the real window.
public struct KeyboardWalk {
    public enum Move { case up, down, left, right, space }

    public var press: (Move) -> Void
    /// The focus rectangle (x0, y0, x1, y1), nil while none is shown.
    public var rect: () -> [Double]?
    /// The control with the focus, nil when none.
    public var focused: () -> String?
    /// Whether a section header's section is open.
    public var isOpen: (String) -> Bool

    public init(press: @escaping (Move) -> Void, rect: @escaping () -> [Double]?, focused: @escaping () -> String?,
                isOpen: @escaping (String) -> Bool) {
        self.press = press
        self.rect = rect
        self.focused = focused
        self.isOpen = isOpen
    }

    /// The focus as the walk tells moves apart: control and rectangle.
    private func focusRect() -> String? { rect().map { "\(focused() ?? "?")@\($0)" } }

    /// `log` gets each move and where the focus went (for a failure's message).
    public func run(maxRows: Int = 400, log: ((String) -> Void)? = nil) -> Set<String> {
        let press: (Move) -> Void = { move in
            self.press(move)
            log?("\(move) → \(self.focusRect() ?? "no focus")")
        }
        var reached: Set<String> = []
        var stuck = 0
        press(.down)  // the focus appears
        // Up to the first row (a panel taller than the window scrolls with the focus).
        for _ in 0..<300 {
            let r = focusRect()
            press(.up)
            if r != nil && focusRect() == r { break }
        }
        for _ in 0..<maxRows {
            guard focusRect() != nil else {
                press(.down)
                continue
            }
            // Down can land anywhere along the next row (ImGui picks the nearest
            // item below, and a Left back that fell short leaves the focus mid-row):
            // to the row's start first, so the items left of the landing are walked too.
            // (The real window once missed Undo, Redo, Reset all and the morph preset
            // while it reached the items right of them.)
            // Never Left on a section header: ImGui closes an open one.
            for _ in 0..<10 where focused()?.hasPrefix("header:") != true {
                let here = focusRect()
                press(.left)
                guard let r = focusRect(), r != here else { break }
                if let name = focused() { reached.insert(name) }
            }
            guard let start = focusRect() else { continue }
            if let name = focused() {
                reached.insert(name)
                if name.hasPrefix("header:"), !isOpen(name) { press(.space) }
            }
            var moves = 0, last = start
            while moves < 10 {
                press(.right)
                guard let r = focusRect(), r != last else { break }
                if let name = focused() { reached.insert(name) }
                last = r
                moves += 1
            }
            for _ in 0..<(moves + 4) where focusRect() != start { press(.left) }
            press(.down)
            stuck = focusRect() == start ? stuck + 1 : 0
            if stuck >= 2 { break }
        }
        return reached
    }
}
