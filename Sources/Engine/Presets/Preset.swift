import Storage
/// A named look: a complete parameter set with a display name and tags.
/// Saved as `{"format":1,"name":…,"tags":[…],"params":{flat object keyed by
/// parameter id}}`.
public struct Preset: Sendable, Hashable, Identifiable {
    /// Stable id: the file name without `.json` (e.g. `neon-veins`).
    public let id: String
    /// Display name.
    public var name: String
    /// Free-form tags for search and filtering (e.g. "paint", "calm").
    public var tags: [String]
    /// The look.
    public var params: PresetParams

    /// The file format version this build writes and reads.
    public static let formatVersion = 1

    public init(id: String, name: String, tags: [String] = [], params: PresetParams) {
        self.id = id
        self.name = name
        self.tags = tags
        self.params = params
    }
}

/// A preset file that could not be used: which file, where in it, and why.
public struct PresetLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's name (as listed in its directory).
    public let file: String
    /// Line and column of the offending value; `.unknown` when the file could
    /// not be read as text at all.
    public let position: SourcePosition
    /// JSON path of the offending value, e.g. `params.global.exposure`;
    /// "(top level)" for problems with the document as a whole.
    public let path: String
    /// What is wrong, in plain words.
    public let reason: String

    public init(file: String, position: SourcePosition = .unknown, path: String, reason: String) {
        self.file = file
        self.position = position
        self.path = path
        self.reason = reason
    }

    /// The strict reader's error, attributed to its file.
    init(_ e: JSONError) {
        self.init(file: e.file ?? "?", position: e.position, path: e.path.description, reason: e.reason)
    }

    /// `FILE:LINE:COL: path: reason` (the position left out when unknown);
    /// `FILE: reason` for a problem with the file as a whole (unreadable, too large).
    public var description: String {
        let line = if position.isKnown {
            "\(file):\(position.line):\(position.column): \(path): \(reason)"
        } else {
            path == JSONPath.root.description ? "\(file): \(reason)" : "\(file): \(path): \(reason)"
        }
        return line.visibleOnOneLine
    }
}

extension PresetParams {
    /// The field size presets are tuned for; their agent counts mean this size.
    public static let referenceField = (width: 1280, height: 720)

    /// `global.agents` scaled by field area relative to 1280×720 (at least
    /// 1000), so a smaller or larger field keeps the preset's density — and
    /// with it its look.
    public func agents(forFieldWidth w: Int, height h: Int) -> Int {
        let ratio = Double(w * h) / Double(Self.referenceField.width * Self.referenceField.height)
        return max(1000, Int((self[.agents] * ratio).rounded()))
    }
}
