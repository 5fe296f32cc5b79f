import Engine

/// What the user (panel, keys, remote) can ask of the preset library. Slot
/// numbers are 0-based here (shown to the user as 1…24).
public enum LibraryAction: Equatable, Sendable {
    /// Saves the current look into a slot under `name`; an occupied slot asks first.
    case saveToSlot(Int, name: String)
    /// Renames a user preset (1…64 characters).
    case renameSlot(Int, String)
    /// Replaces a user preset's tags (for search).
    case setSlotTags(Int, [String])
    /// Moves a slot's content up (−1) or down (+1), swapping with its neighbour.
    case moveSlot(Int, by: Int)
    /// Empties a slot (asks first).
    case deleteSlot(Int)
    /// Pins or unpins a preset (user or factory) for the auto-cycle.
    case togglePin(String)
    /// Reads a preset JSON file into the first free slot.
    case importPreset(path: String)
    /// Writes a preset (user or factory) as a preset JSON file.
    case exportPreset(id: String, path: String)
    /// Empties every slot whose preset is not pinned (asks first).
    case keepOnlyPinned
    /// Empties every slot and removes every pin (asks first).
    case resetToFactory
    /// Loads the preset in a slot.
    case jumpToSlot(Int)
    /// Answers the pending question with yes.
    case confirm
    /// Answers the pending question with no.
    case cancel
    /// From the I/O worker: an import file was read and is a valid preset.
    case importLoaded(Preset, file: String)
}

/// A destructive library action waiting for the user's yes.
public enum LibraryConfirmation: Equatable, Sendable {
    case overwrite(slot: Int, name: String)
    case delete(slot: Int)
    case keepOnlyPinned(removing: Int)
    case resetToFactory(removing: Int)

    /// The question to show.
    public func question(_ lib: LibraryModel) -> String {
        switch self {
        case .overwrite(let slot, let name):
            "Replace \"\(lib.slots[slot]?.preset.name ?? "")\" in slot \(slot + 1) with the current look as \"\(name)\"?"
        case .delete(let slot):
            "Delete \"\(lib.slots[slot]?.preset.name ?? "")\" from slot \(slot + 1)?"
        case .keepOnlyPinned(let n):
            "Delete the \(n) unpinned preset\(n == 1 ? "" : "s") from your slots?"
        case .resetToFactory(let n):
            "Reset the library to factory: delete all \(n) of your preset\(n == 1 ? "" : "s") and every pin?"
        }
    }
}

/// File work the library asks for; the I/O worker does it off the frame path.
public enum LibraryEffect: Equatable, Sendable {
    /// Write this snapshot as the library file (latest wins).
    case writeLibrary(LibraryDocument)
    /// Capture the frame on screen now as the thumbnail of this user preset.
    case writeThumbnail(presetID: String)
    /// Delete the thumbnails of these user presets.
    case removeThumbnails([String])
    /// Read and validate a preset file; answer with `.importLoaded` or a notice.
    case readPreset(path: String)
    /// Write a preset as a preset JSON file.
    case writePreset(Preset, path: String)
}

/// A message for the user from the library.
public struct LibraryNotice: Equatable, Sendable {
    public var text: String
    public var level: NoticeLevel
}

/// The result of one library action.
public struct LibraryOutcome: Equatable, Sendable {
    public var effects: [LibraryEffect] = []
    public var notices: [LibraryNotice] = []
    /// A preset to load (jump to a slot).
    public var load: String?
    /// The current look was saved as this preset (it becomes the loaded preset).
    public var adopt: String?
}

/// What the library needs to know about the current look when saving.
public struct LibraryLook: Equatable, Sendable {
    /// The edited base parameters (what a preset saves; modulation excluded).
    public var params: PresetParams
    /// Tags of the loaded preset (a saved variation keeps them).
    public var tags: [String]
}
