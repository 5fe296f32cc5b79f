/// How serious a notice is (colour in the window).
public enum NoticeLevel: String, Sendable, Equatable {
    case info, warning, error
}

/// A dismissable message shown in the window (and printed once on stderr).
public struct Notice: Equatable, Sendable, Identifiable {
    public let id: Int
    public let text: String
    public let level: NoticeLevel
}

/// The list of notices on screen: newest last, at most `limit`; the same text
/// twice in a row is not repeated.
public struct NoticeBoard: Equatable, Sendable {
    public private(set) var items: [Notice] = []
    private var nextID = 1
    public var limit = 6

    /// Adds a notice; returns false when it repeats the newest one.
    @discardableResult
    public mutating func post(_ text: String, _ level: NoticeLevel) -> Bool {
        if items.last?.text == text { return false }
        items.append(Notice(id: nextID, text: text, level: level))
        nextID += 1
        if items.count > limit { items.removeFirst(items.count - limit) }
        return true
    }

    public mutating func dismiss(_ id: Int) { items.removeAll { $0.id == id } }
}
