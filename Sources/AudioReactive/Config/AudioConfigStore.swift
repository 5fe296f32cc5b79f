import Engine
import Foundation
import Storage

/// Why a config store operation failed.
public enum AudioConfigStoreError: Error, Sendable, CustomStringConvertible {
    /// The config file is invalid (every error listed).
    case invalid(JSONErrorList)
    /// The file system refused.
    case file(FileError)
    /// A config with that file name exists already.
    case exists(name: String, path: String)
    /// Shipped configs cannot be renamed, deleted or overwritten.
    case readOnly(path: String)
    /// The name is not usable.
    case badName(String)
    /// An existing file that does not load is never overwritten.
    case wouldOverwriteInvalid(path: String, errors: JSONErrorList)

    public var description: String {
        switch self {
        case .invalid(let list): list.description
        case .file(let e): "\(e.path): \(e.reason)"
        case .exists(let name, let path): "a config named '\(name)' already exists (\(path))"
        case .readOnly(let path): "\(path) is a shipped config and cannot be changed (save a copy under another name)"
        case .badName(let reason): reason
        case .wouldOverwriteInvalid(let path, let errors):
            "\(path) holds a config that does not load, so it is left alone (fix or delete it first): \(errors.errors.first?.description ?? "")"
        }
    }
}

/// The saved audio configs: read-only shipped ones (`configs/audio/`) and the
/// user's own in `$XDG_CONFIG_HOME/physarum/audio/` (fallback
/// `~/.config/physarum/audio/`). List, save as, export, import, rename,
/// delete; every write is atomic and a file that does not load is never
/// overwritten. Stateless apart from its two directories; any thread, but
/// concurrent writers to one directory race like any two programs would.
public struct AudioConfigStore: Sendable {
    /// Where user configs live (created on the first save).
    public let userDirectory: URL
    /// Where the shipped configs are, if found.
    public let shippedDirectory: URL?

    public init(userDirectory: URL = AudioConfigStore.defaultUserDirectory(), shippedDirectory: URL? = AudioConfigStore.findShippedDirectory()) {
        self.userDirectory = userDirectory
        self.shippedDirectory = shippedDirectory
    }

    /// `audio/` in the app's config folder (`$XDG_CONFIG_HOME/physarum/audio`,
    /// default `~/.config/physarum/audio`; see `UserFolders`).
    public static func defaultUserDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        UserFolders.app(.config, environment).appendingPathComponent("audio", isDirectory: true)
    }

    /// The shipped configs: `audio/` in the `configs/` folder that
    /// `ConfigDirectory` finds (the same search as the factory presets).
    public static func findShippedDirectory() -> URL? {
        ConfigDirectory.subdirectory("audio").path.map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// One config file as listed.
    public struct Entry: Sendable, Hashable {
        /// Where a config comes from.
        public enum Origin: String, Sendable, Hashable { case shipped, user }
        /// The config's name (the file name when it does not load).
        public var name: String
        public var url: URL
        public var origin: Origin
        /// The first error when the file does not load, else nil.
        public var problem: String?
        /// Number of errors when the file does not load.
        public var errorCount: Int
        /// Whether it loads.
        public var isValid: Bool { problem == nil }
    }

    /// Every `*.json` config, shipped first, each group sorted by name;
    /// temporary files of unfinished saves are skipped.
    public func list() -> [Entry] {
        var out: [Entry] = []
        for (dir, origin) in [(shippedDirectory, Entry.Origin.shipped), (userDirectory, .user)] {
            guard let dir, let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { continue }
            var group: [Entry] = []
            for n in names where n.hasSuffix(".json") && !n.hasPrefix(".") {
                let url = dir.appendingPathComponent(n)
                do {
                    let loaded = try AudioConfig.load(contentsOf: url)
                    group.append(Entry(name: loaded.config.name, url: url, origin: origin, problem: nil, errorCount: 0))
                } catch {
                    group.append(Entry(name: String(n.dropLast(5)), url: url, origin: origin,
                                       problem: error.errors.first?.description, errorCount: error.errors.count))
                }
            }
            out += group.sorted { ($0.name.lowercased(), $0.url.path) < ($1.name.lowercased(), $1.url.path) }
        }
        return out
    }

    /// The file name a config called `name` is saved under (lower-case
    /// letters, digits, `-` and `_`; `.json`).
    public static func fileName(for name: String) -> String {
        var slug = ""
        for u in name.lowercased().unicodeScalars {
            switch u {
            case "a"..."z", "0"..."9", "_": slug.unicodeScalars.append(u)
            default: if !slug.isEmpty && !slug.hasSuffix("-") { slug += "-" }
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return (slug.isEmpty ? "config" : String(slug.prefix(64))) + ".json"
    }

    /// Saves `config` under `name` in the user directory ("save current as").
    /// An existing file is replaced only with `replace` and only if it loads.
    @discardableResult
    public func save(_ config: AudioConfig, as name: String, replace: Bool = false) throws(AudioConfigStoreError) -> URL {
        let clean = try Self.checkName(name)
        var c = config
        c.name = clean
        let url = userDirectory.appendingPathComponent(Self.fileName(for: clean))
        try ensureUserDirectory()
        try checkReplaceable(url, name: clean, replace: replace)
        try write(c, to: url)
        return url
    }

    /// Writes `config` to any path (atomically), e.g. to share it.
    public func export(_ config: AudioConfig, to url: URL) throws(AudioConfigStoreError) {
        try write(config, to: url)
    }

    /// Copies a config file into the user directory after validating it; the
    /// bytes are kept as they are (comments aside, JSON has none). Returns the new path.
    @discardableResult
    public func importConfig(from source: URL, replace: Bool = false) throws(AudioConfigStoreError) -> URL {
        let data: Data
        do { data = try SafeFile.read(source, limit: AudioConfig.maxFileSize) } catch { throw .file(error) }
        let loaded: LoadedAudioConfig
        do { loaded = try AudioConfig.decode(data: data, file: source.path) } catch { throw .invalid(error) }
        let url = userDirectory.appendingPathComponent(Self.fileName(for: loaded.config.name))
        try ensureUserDirectory()
        try checkReplaceable(url, name: loaded.config.name, replace: replace)
        do { try SafeFile.writeAtomically(data, to: url) } catch { throw .file(error) }
        return url
    }

    /// Renames a user config (its name inside and its file name). A file that
    /// does not load is not touched.
    @discardableResult
    public func rename(_ url: URL, to newName: String) throws(AudioConfigStoreError) -> URL {
        try checkUserFile(url)
        let clean = try Self.checkName(newName)
        var c: AudioConfig
        do { c = try AudioConfig.load(contentsOf: url).config } catch { throw .wouldOverwriteInvalid(path: url.path, errors: error) }
        c.name = clean
        let target = userDirectory.appendingPathComponent(Self.fileName(for: clean))
        if target.standardizedFileURL != url.standardizedFileURL {
            if FileManager.default.fileExists(atPath: target.path) { throw .exists(name: clean, path: target.path) }
        }
        try write(c, to: target)
        if target.standardizedFileURL != url.standardizedFileURL {
            do { try FileManager.default.removeItem(at: url) } catch {
                throw .file(FileError(path: url.path, reason: "renamed copy saved, but the old file could not be removed: \(error.localizedDescription)"))
            }
        }
        return target
    }

    /// Deletes a user config.
    public func delete(_ url: URL) throws(AudioConfigStoreError) {
        try checkUserFile(url)
        do { try FileManager.default.removeItem(at: url) } catch {
            throw .file(FileError(path: url.path, reason: "cannot delete: \(error.localizedDescription)"))
        }
    }

    // MARK: helpers

    static func checkName(_ name: String) throws(AudioConfigStoreError) -> String {
        let clean = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if clean.isEmpty { throw .badName("a config name must not be empty") }
        if clean.count > AudioConfig.maxNameLength {
            throw .badName("a config name has at most \(AudioConfig.maxNameLength) characters, '\(clean.prefix(20))…' has \(clean.count)")
        }
        if clean.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .badName("a config name must not contain control characters")
        }
        return clean
    }

    private func ensureUserDirectory() throws(AudioConfigStoreError) {
        do { try FileManager.default.createDirectory(at: userDirectory, withIntermediateDirectories: true) } catch {
            throw .file(FileError(path: userDirectory.path, reason: "cannot create the config directory: \(error.localizedDescription)"))
        }
    }

    private func checkReplaceable(_ url: URL, name: String, replace: Bool) throws(AudioConfigStoreError) {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        guard replace else { throw .exists(name: name, path: url.path) }
        do { _ = try AudioConfig.load(contentsOf: url) } catch { throw .wouldOverwriteInvalid(path: url.path, errors: error) }
    }

    private func checkUserFile(_ url: URL) throws(AudioConfigStoreError) {
        if let shipped = shippedDirectory,
           url.deletingLastPathComponent().standardizedFileURL.path == shipped.standardizedFileURL.path {
            throw .readOnly(path: url.path)
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .file(FileError(path: url.path, reason: "no such config file"))
        }
    }

    private func write(_ config: AudioConfig, to url: URL) throws(AudioConfigStoreError) {
        do { try SafeFile.writeAtomically(Data(config.jsonText.utf8), to: url) } catch { throw .file(error) }
    }
}
