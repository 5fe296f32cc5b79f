import Engine

/// One occupied user slot: a preset of the user's (id `user:N`) and its pin.
public struct UserSlot: Equatable, Sendable {
    public var preset: Preset
    public var pinned: Bool

    public init(preset: Preset, pinned: Bool) {
        self.preset = preset
        self.pinned = pinned
    }
}

/// Everything the preset library persists: the 24 user slots (nil = empty),
/// the pins on factory presets and the next user-preset serial number. A value;
/// the library model edits it and the I/O worker writes snapshots of it.
public struct LibraryDocument: Equatable, Sendable {
    /// Number of user slots.
    public static let slotCount = 24
    /// The library file format this build writes (1 is migrated on load).
    public static let formatVersion = 2

    /// Slot i (0-based; shown as i + 1) holds a preset or nothing.
    public var slots: [UserSlot?] = Array(repeating: nil, count: slotCount)
    /// Ids of pinned factory presets, in the order they were pinned. Ids of
    /// factory presets that no longer exist are kept (harmless, not lost).
    public var pinnedFactory: [String] = []
    /// The serial number of the next user preset id (`user:N`); ids are never reused.
    public var nextSerial = 1

    /// An empty library.
    public init() {}

    /// The id prefix of user presets.
    public static let userPrefix = "user:"

    /// N of `user:N`, or nil.
    public static func serial(of id: String) -> Int? {
        guard id.hasPrefix(userPrefix) else { return nil }
        let rest = id.dropFirst(userPrefix.count)
        guard !rest.isEmpty, rest.count <= 9, rest.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(rest)
    }

    /// The thumbnail file of a user preset, relative to the library directory
    /// (derived from the id, never read from the file, so a crafted library
    /// cannot point the app at other files).
    public static func thumbnailName(for id: String) -> String? {
        serial(of: id).map { "thumbnails/user-\($0).png" }
    }
}
