/// How serious a notice is (colour in the window, how long it stays).
public enum NoticeLevel: String, Sendable, Equatable {
    case info, warning, error
}

/// A message for the user: shown on top of the panels, printed once on
/// stderr, and kept in the session's history (the notices window).
public struct Notice: Equatable, Sendable, Identifiable {
    public let id: Int
    public let text: String
    public let level: NoticeLevel
    /// When the board first saw a clock after the notice came (seconds; nil until then).
    public internal(set) var shownAt: Double?
    /// How many times the same text came again right after it.
    public internal(set) var repeats = 0
}

/// The notices of a session. `items` are on screen: errors stay until
/// dismissed; infos fade after `infoSeconds`, warnings after
/// `warningSeconds` (counted from the first frame that showed them).
/// `history` keeps every notice of the session, dismissed or faded, for the
/// notices window; nothing is dropped without a word: `visible` shows at
/// most `shownLimit` (errors first) and `hiddenCount` says how many more
/// are on the board. The same text twice in a row counts as a repeat.
/// Pure: the shell hands it the time (`expire(now:)`).
public struct NoticeBoard: Equatable, Sendable {
    public private(set) var items: [Notice] = []
    public private(set) var history: [Notice] = []
    /// The notices window (full history) is open.
    public var windowOpen = false
    public var infoSeconds = 5.0
    public var warningSeconds = 12.0
    /// The last second of a notice's time fades it out.
    public var fadeSeconds = 1.0
    /// Notices drawn at once on top of the panels.
    public var shownLimit = 5
    /// History kept (oldest first dropped past this; `droppedFromHistory` counts them).
    public var historyLimit = 10_000
    public private(set) var droppedFromHistory = 0
    private var nextID = 1

    public init() {}

    /// Adds a notice; returns false when it repeats the newest one (then
    /// only its repeat count grows, and it shows again from the start).
    @discardableResult
    public mutating func post(_ text: String, _ level: NoticeLevel) -> Bool {
        if let last = history.last, last.text == text, last.level == level {
            history[history.count - 1].repeats += 1
            if let i = items.firstIndex(where: { $0.id == last.id }) {
                items[i].repeats += 1
                items[i].shownAt = nil
            } else {
                var again = history[history.count - 1]
                again.shownAt = nil
                items.append(again)
            }
            return false
        }
        let n = Notice(id: nextID, text: text, level: level)
        nextID += 1
        items.append(n)
        history.append(n)
        if history.count > historyLimit {
            droppedFromHistory += history.count - historyLimit
            history.removeFirst(history.count - historyLimit)
        }
        return true
    }

    public mutating func dismiss(_ id: Int) { items.removeAll { $0.id == id } }

    /// Dismisses everything on screen (the history keeps it).
    public mutating func dismissAll() { items.removeAll() }

    /// Stamps notices seen for the first time and removes those whose time is up.
    public mutating func expire(now: Double) {
        for i in items.indices where items[i].shownAt == nil { items[i].shownAt = now }
        let (info, warning) = (infoSeconds, warningSeconds)
        items.removeAll { n in
            let life = n.level == .info ? info : (n.level == .warning ? warning : Double.infinity)
            return now - (n.shownAt ?? now) >= life
        }
    }

    /// Seconds a notice of `level` stays on screen (nil: until dismissed).
    public func lifetime(_ level: NoticeLevel) -> Double? {
        switch level {
        case .info: infoSeconds
        case .warning: warningSeconds
        case .error: nil
        }
    }

    /// Opacity of a notice at `now`: 1, falling to 0 over its last `fadeSeconds`.
    public func opacity(_ n: Notice, now: Double) -> Double {
        guard let life = lifetime(n.level), let t0 = n.shownAt else { return 1 }
        let left = life - (now - t0)
        return min(1, max(0, left / fadeSeconds))
    }

    /// The notices drawn on top of the panels: every error first (newest
    /// kept), then the newest others, at most `shownLimit`, in posting order.
    public var visible: [Notice] {
        let errors = items.filter { $0.level == .error }.suffix(shownLimit)
        let others = items.filter { $0.level != .error }.suffix(max(0, shownLimit - errors.count))
        return (Array(errors) + Array(others)).sorted { $0.id < $1.id }
    }

    /// Notices on the board that `visible` leaves out (the strip says how many).
    public var hiddenCount: Int { items.count - visible.count }

    /// Counts of the history by level, for the window's title line.
    public var counts: (errors: Int, warnings: Int, infos: Int) {
        history.reduce(into: (0, 0, 0)) { c, n in
            switch n.level {
            case .error: c.0 += 1
            case .warning: c.1 += 1
            case .info: c.2 += 1
            }
        }
    }
}
