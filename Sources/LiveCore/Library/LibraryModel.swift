import Engine
import Foundation
import Storage

/// One row of the library as the panel and search list it.
public struct LibraryItem: Equatable, Sendable {
    /// The user slot (0-based), nil for a factory preset.
    public var slot: Int?
    public var preset: Preset
    public var pinned: Bool
}

/// The preset library: read-only factory presets plus 24 user slots, pins,
/// and the questions destructive actions ask. A pure state machine:
/// `handle(action, look:) -> LibraryOutcome` (effects are file work for the
/// I/O worker). Value type; main thread (or a test) owns it.
public struct LibraryModel: Equatable, Sendable {
    /// Longest preset name in the library.
    public static let maxNameLength = 64

    /// The factory presets (from the catalog), in catalog order.
    public private(set) var factory: [Preset]
    /// What is persisted.
    public private(set) var document: LibraryDocument
    /// A destructive action waiting for `.confirm` / `.cancel`.
    public private(set) var pending: LibraryConfirmation?
    /// Why the library file could not be read at start, if it could not (shown in the panel).
    public var loadProblem: String?

    public init(factory: [Preset], document: LibraryDocument = LibraryDocument(), loadProblem: String? = nil) {
        self.factory = factory
        self.document = document
        self.loadProblem = loadProblem
    }

    /// The 24 user slots (nil = empty).
    public var slots: [UserSlot?] { document.slots }
    /// The first empty slot, if any.
    public var firstFreeSlot: Int? { document.slots.firstIndex { $0 == nil } }
    /// Number of occupied user slots.
    public var userCount: Int { document.slots.lazy.filter { $0 != nil }.count }

    /// Whether a preset (user or factory) is pinned.
    public func isPinned(_ id: String) -> Bool {
        if let i = slot(of: id) { return document.slots[i]!.pinned }
        return document.pinnedFactory.contains(id)
    }

    /// The slot holding user preset `id`.
    public func slot(of id: String) -> Int? { document.slots.firstIndex { $0?.preset.id == id } }

    /// Every preset in play order: user slots in slot order, then factory.
    public var playOrder: [Preset] { document.slots.compactMap { $0?.preset } + factory }

    /// Every row: user slots in slot order, then factory presets.
    public var items: [LibraryItem] {
        document.slots.enumerated().compactMap { i, s in s.map { LibraryItem(slot: i, preset: $0.preset, pinned: $0.pinned) } }
            + factory.map { LibraryItem(slot: nil, preset: $0, pinned: document.pinnedFactory.contains($0.id)) }
    }

    /// Ids of the pinned presets, in play order.
    public var pinnedIDs: [String] { items.filter(\.pinned).map(\.preset.id) }

    /// Rows whose name or tags contain every word of `query` (case- and
    /// accent-insensitive); all rows for an empty query.
    public func search(_ query: String) -> [LibraryItem] {
        let words = query.split(whereSeparator: \.isWhitespace).map { Self.fold(String($0)) }
        guard !words.isEmpty else { return items }
        return items.filter { item in
            let hay = ([item.preset.name] + item.preset.tags).map(Self.fold)
            return words.allSatisfy { w in hay.contains { $0.contains(w) } }
        }
    }

    private static func fold(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Applies an action. Never fails: what cannot be done becomes a notice
    /// and changes nothing.
    public mutating func handle(_ action: LibraryAction, look: LibraryLook) -> LibraryOutcome {
        if case .confirm = action {} else if case .cancel = action {} else if case .importLoaded = action {} else {
            pending = nil  // any other action abandons an unanswered question
        }
        switch action {
        case .saveToSlot(let slot, let rawName):
            guard let slot = valid(slot) else { return refuse("There is no slot \(slot + 1) (slots are 1–\(LibraryDocument.slotCount))") }
            guard let name = Self.cleanName(rawName) else { return refuse(Self.nameProblem(rawName)) }
            if document.slots[slot] != nil {
                pending = .overwrite(slot: slot, name: name)
                return LibraryOutcome()
            }
            return save(slot, name: name, look)
        case .renameSlot(let slot, let rawName):
            guard let slot = occupied(slot) else { return refuse("Slot \(slot + 1) is empty") }
            guard let name = Self.cleanName(rawName) else { return refuse(Self.nameProblem(rawName)) }
            guard name != document.slots[slot]!.preset.name else { return LibraryOutcome() }
            document.slots[slot]!.preset.name = name
            return written()
        case .setSlotTags(let slot, let tags):
            guard let slot = occupied(slot) else { return refuse("Slot \(slot + 1) is empty") }
            let clean = Self.cleanTags(tags)
            guard clean != document.slots[slot]!.preset.tags else { return LibraryOutcome() }
            document.slots[slot]!.preset.tags = clean
            return written()
        case .moveSlot(let slot, let by):
            guard let from = valid(slot), by == -1 || by == 1, let to = valid(from + by) else { return LibraryOutcome() }
            guard document.slots[from] != nil || document.slots[to] != nil else { return LibraryOutcome() }
            document.slots.swapAt(from, to)
            return written()
        case .deleteSlot(let slot):
            guard occupied(slot) != nil else { return refuse("Slot \(slot + 1) is empty") }
            pending = .delete(slot: slot)
            return LibraryOutcome()
        case .togglePin(let id):
            if let i = slot(of: id) {
                document.slots[i]!.pinned.toggle()
            } else if factory.contains(where: { $0.id == id }) {
                if let k = document.pinnedFactory.firstIndex(of: id) { document.pinnedFactory.remove(at: k) } else { document.pinnedFactory.append(id) }
            } else {
                return refuse("There is no preset '\(id)' to pin")
            }
            return written()
        case .importPreset(let path):
            guard firstFreeSlot != nil else { return refuse(Self.fullMessage) }
            return LibraryOutcome(effects: [.readPreset(path: path)])
        case .importLoaded(let preset, let file):
            guard let slot = firstFreeSlot else { return refuse(Self.fullMessage) }
            let name = String((Self.cleanName(preset.name) ?? "Imported").prefix(Self.maxNameLength))
            let id = newID()
            document.slots[slot] = UserSlot(preset: Preset(id: id, name: name, tags: Self.cleanTags(preset.tags), params: preset.params),
                                            pinned: false)
            var out = written()
            out.notices.append(LibraryNotice(text: "Imported \"\(name)\" from \(file) into slot \(slot + 1)", level: .info))
            return out
        case .exportPreset(let id, let path):
            guard let p = playOrder.first(where: { $0.id == id }) else { return refuse("There is no preset '\(id)' to export") }
            return LibraryOutcome(effects: [.writePreset(p, path: path)])
        case .keepOnlyPinned:
            let n = document.slots.lazy.filter { $0 != nil && !$0!.pinned }.count
            guard n > 0 else { return refuse("Every preset in your slots is pinned; nothing to delete", .info) }
            pending = .keepOnlyPinned(removing: n)
            return LibraryOutcome()
        case .resetToFactory:
            guard userCount > 0 || !document.pinnedFactory.isEmpty else { return refuse("The library is already as shipped", .info) }
            pending = .resetToFactory(removing: userCount)
            return LibraryOutcome()
        case .jumpToSlot(let slot):
            guard let slot = occupied(slot) else { return refuse("Slot \(slot + 1) is empty") }
            return LibraryOutcome(load: document.slots[slot]!.preset.id)
        case .cancel:
            pending = nil
            return LibraryOutcome()
        case .confirm:
            guard let q = pending else { return LibraryOutcome() }
            pending = nil
            return perform(q, look)
        }
    }

    private mutating func perform(_ q: LibraryConfirmation, _ look: LibraryLook) -> LibraryOutcome {
        switch q {
        case .overwrite(let slot, let name):
            return save(slot, name: name, look)
        case .delete(let slot):
            guard let s = document.slots[slot] else { return LibraryOutcome() }
            document.slots[slot] = nil
            var out = written()
            out.effects.append(.removeThumbnails([s.preset.id]))
            return out
        case .keepOnlyPinned:
            return remove { !$0.pinned }
        case .resetToFactory:
            document.pinnedFactory = []
            return remove { _ in true }
        }
    }

    private mutating func remove(where doomed: (UserSlot) -> Bool) -> LibraryOutcome {
        var gone: [String] = []
        for i in document.slots.indices {
            if let s = document.slots[i], doomed(s) {
                gone.append(s.preset.id)
                document.slots[i] = nil
            }
        }
        var out = written()
        if !gone.isEmpty { out.effects.append(.removeThumbnails(gone)) }
        return out
    }

    /// Saves the look into `slot` (overwriting keeps the slot's id and pin).
    private mutating func save(_ slot: Int, name: String, _ look: LibraryLook) -> LibraryOutcome {
        let old = document.slots[slot]
        let id = old?.preset.id ?? newID()
        let tags = old == nil ? Self.cleanTags(look.tags) : old!.preset.tags
        document.slots[slot] = UserSlot(preset: Preset(id: id, name: name, tags: tags, params: look.params), pinned: old?.pinned ?? false)
        var out = written()
        out.effects.append(.writeThumbnail(presetID: id))
        out.adopt = id
        out.notices.append(LibraryNotice(text: "Saved \"\(name)\" in slot \(slot + 1)", level: .info))
        return out
    }

    private mutating func newID() -> String {
        defer { document.nextSerial += 1 }
        return LibraryDocument.userPrefix + String(document.nextSerial)
    }

    private func written() -> LibraryOutcome { LibraryOutcome(effects: [.writeLibrary(document)]) }

    private func refuse(_ text: String, _ level: NoticeLevel = .warning) -> LibraryOutcome {
        LibraryOutcome(notices: [LibraryNotice(text: text, level: level)])
    }

    private func valid(_ slot: Int) -> Int? { document.slots.indices.contains(slot) ? slot : nil }
    private func occupied(_ slot: Int) -> Int? { valid(slot).flatMap { document.slots[$0] == nil ? nil : $0 } }

    public static let fullMessage = "All \(LibraryDocument.slotCount) slots are full: delete or overwrite a slot first (nothing was imported)"

    /// A name with control characters removed and spaces trimmed, if it is 1…64 characters.
    public static func cleanName(_ raw: String) -> String? {
        let s = String(String.UnicodeScalarView(raw.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })).trimmingSpaces
        guard !s.isEmpty, s.count <= maxNameLength else { return nil }
        return String(s)
    }

    public static func nameProblem(_ raw: String) -> String {
        raw.trimmingSpaces.isEmpty ? "A preset needs a name" : "A preset name has at most \(maxNameLength) characters"
    }

    /// Tags trimmed, non-empty, unique, at most `Preset.maxTags` of at most `Preset.maxTagLength` characters.
    public static func cleanTags(_ tags: [String]) -> [String] {
        var out: [String] = []
        for t in tags {
            let s = String(t.trimmingSpaces.prefix(Preset.maxTagLength))
            if !s.isEmpty, !out.contains(s) { out.append(s) }
        }
        return Array(out.prefix(Preset.maxTags))
    }
}
