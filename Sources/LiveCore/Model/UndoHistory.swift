/// Undo/redo of whole values (snapshots). A snapshot of the parameters is a
/// few hundred bytes, so exact restores cost nothing worth optimising.
public struct UndoHistory<State: Equatable & Sendable>: Sendable {
    public private(set) var undoStack: [State] = []
    public private(set) var redoStack: [State] = []
    /// Most snapshots kept.
    public var limit = 500

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Records `before` as the state to return to; clears redo.
    public mutating func record(_ before: State) {
        if undoStack.last == before { return }
        undoStack.append(before)
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        redoStack.removeAll()
    }

    /// The state to restore for undo, given the current one (which becomes redoable).
    public mutating func undo(from current: State) -> State? {
        guard let s = undoStack.popLast() else { return nil }
        redoStack.append(current)
        return s
    }

    /// The state to restore for redo.
    public mutating func redo(from current: State) -> State? {
        guard let s = redoStack.popLast() else { return nil }
        undoStack.append(current)
        return s
    }
}
