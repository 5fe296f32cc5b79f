import AudioReactive
import Engine
import Foundation
import LiveCore
import Storage
import Synchronization

/// The library's files: `library.json` and `thumbnails/` in
/// `$XDG_DATA_HOME/physarum/` (default `~/.local/share/physarum/`), plus
/// preset import/export.
///
/// A library file that fails to load is never overwritten: the app starts
/// with an empty user library and leaves the file alone; the first save moves
/// it aside to `library.json.unreadable-<time>` (a rename, so its bytes are
/// kept) and writes the new library in its place, so the next start loads
/// what the user saved. Writes are atomic (temporary file, fsync, rename).
///
/// Thread safety: `load` runs once at start-up; the other methods run on the
/// I/O worker. The one piece of mutable state is behind a Mutex.
final class LibraryStore: Sendable {
    /// The folder holding the library.
    let directory: URL
    /// Whether the file on disk failed to load (so it must be moved aside before the first write).
    private let protectExisting = Mutex(false)

    init(directory: URL) { self.directory = directory }

    /// The default folder from the environment.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        UserFolders.app(.data, environment)
    }

    var fileURL: URL { directory.appendingPathComponent("library.json") }

    /// The result of loading at start-up.
    struct Loaded: Sendable {
        var document: LibraryDocument
        /// Why the file could not be used (the user library starts empty).
        var problem: String?
        /// A one-line notice for the user (a problem, or a migration), if any.
        var notice: String?
    }

    /// Reads the library. A missing file is an empty library; an unreadable or
    /// invalid one is reported, kept, and protected from being overwritten.
    func load() -> Loaded {
        let url = fileURL
        guard FileManager.default.fileExists(atPath: url.path) else { return Loaded(document: LibraryDocument()) }
        let problem: String
        do {
            let data = try SafeFile.read(url, limit: LibraryCodec.maxBytes)
            let loaded = try LibraryCodec.decode(data, file: url.path)
            protectExisting.withLock { $0 = false }
            var out = Loaded(document: loaded.document)
            if loaded.fromFormat < LibraryDocument.formatVersion {
                out.notice = "Preset library upgraded from format \(loaded.fromFormat) to \(LibraryDocument.formatVersion) (written on the next change)"
            }
            return out
        } catch let e as FileError {
            problem = "\(url.path): \(e.reason)"
        } catch let e as JSONErrorList {
            problem = e.errors.first.map(\.description) ?? "\(url.path): invalid"
        } catch {
            problem = "\(url.path): \(error)"
        }
        protectExisting.withLock { $0 = true }
        return Loaded(document: LibraryDocument(), problem: problem,
                      notice: "Preset library not loaded: \(problem) — the file is kept; your first save moves it aside to library.json.unreadable-*")
    }

    /// Writes the library atomically. The first write after a failed load
    /// renames the old file aside. Returns a notice for the user when it did.
    func write(_ doc: LibraryDocument) throws(CaptureError) -> String? {
        try FolderCreation.makeDirectory(directory.path)
        var movedTo: String?
        let mustMove = protectExisting.withLock { $0 }
        if mustMove, FileManager.default.fileExists(atPath: fileURL.path) {
            let aside = try moveAside()
            movedTo = aside
        }
        protectExisting.withLock { $0 = false }
        do {
            try SafeFile.writeAtomically(Data(LibraryCodec.encode(doc).utf8), to: fileURL)
        } catch {
            throw CaptureError("Cannot save the preset library: \(error.reason)")
        }
        return movedTo.map { "The unreadable library file was kept as \($0); a new library.json was written" }
    }

    /// Moves the library file to an unused `library.json.unreadable-<time>[-N]` name.
    private func moveAside() throws(CaptureError) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyyMMdd-HHmmss"
        let base = fileURL.lastPathComponent + ".unreadable-" + f.string(from: Date())
        do {
            // Claims a free name without replacing any file (SafeFile.moveAside).
            return try SafeFile.moveAside(fileURL) { n in n == 0 ? base : base + "-\(n + 1)" }.path
        } catch {
            throw CaptureError("Cannot move the unreadable library aside (nothing was saved): \(error)")
        }
    }

    /// The thumbnail path of a user preset.
    func thumbnailURL(for id: String) -> URL? {
        LibraryDocument.thumbnailName(for: id).map { directory.appendingPathComponent($0) }
    }

    /// Writes a thumbnail PNG atomically.
    func writeThumbnail(_ image: RGBAImage, for id: String) throws(CaptureError) {
        guard let url = thumbnailURL(for: id) else { return }
        try FolderCreation.makeDirectory(url.deletingLastPathComponent().path)
        do {
            try SafeFile.writeAtomically(Data(try PNGCodec.encode(image)), to: url)
        } catch let e as FileError {
            throw CaptureError("Cannot save the thumbnail: \(e.reason)")
        } catch {
            throw CaptureError("Cannot save the thumbnail: \(error)")
        }
    }

    /// Deletes thumbnails (missing files are fine).
    func removeThumbnails(_ ids: [String]) {
        for id in ids { if let url = thumbnailURL(for: id) { unlink(url.path) } }
    }

    /// Reads and validates a preset file for import.
    static func readPreset(path: String) throws(CaptureError) -> Preset {
        let url = URL(fileURLWithPath: expandTilde(path))
        do {
            let data = try SafeFile.read(url, limit: Preset.maxFileBytes)
            return try Preset.parse(data: data, id: "import", file: url.path)
        } catch let e as FileError {
            throw CaptureError("Cannot import \(url.path): \(e.reason)")
        } catch let e as JSONErrorList {
            let first = e.errors.first.map(\.description) ?? url.path
            let more = e.errors.count > 1 ? " (and \(e.errors.count - 1) more)" : ""
            throw CaptureError("Not a valid preset, nothing imported: \(first)\(more)")
        } catch {
            throw CaptureError("Cannot import \(url.path): \(error)")
        }
    }

    /// Writes a preset file. A folder path gets `<name>.json` inside it. An
    /// existing file is replaced only if it is itself a preset file.
    static func writePreset(_ preset: Preset, path: String) throws(CaptureError) -> String {
        var target = expandTilde(path)
        var isDir: ObjCBool = false
        if target.hasSuffix("/") || (FileManager.default.fileExists(atPath: target, isDirectory: &isDir) && isDir.boolValue) {
            target = (target as NSString).appendingPathComponent(slug(preset.name) + ".json")
        }
        if FileManager.default.fileExists(atPath: target), (try? readPreset(path: target)) == nil {
            throw CaptureError("Not exported: \(target) exists and is not a preset file (choose another name)")
        }
        let url = URL(fileURLWithPath: target)
        try FolderCreation.makeDirectory(url.deletingLastPathComponent().path)
        do {
            try SafeFile.writeAtomically(Data(preset.fileText.utf8), to: url)
        } catch {
            throw CaptureError("Cannot export to \(target): \(error.reason)")
        }
        return target
    }

    /// A file-name slug of a preset name: lower-case letters, digits and dashes.
    static func slug(_ name: String) -> String {
        var out = ""
        for ch in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(ch) || ("0"..."9").contains(ch) {
                out.unicodeScalars.append(ch)
            } else if !out.isEmpty, !out.hasSuffix("-") {
                out += "-"
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "preset" : String(out.prefix(60))
    }

    /// `~` and `~/…` expanded with `$HOME`.
    static func expandTilde(_ path: String) -> String {
        if path == "~" || path.hasPrefix("~/") {
            return UserFolders.home(ProcessInfo.processInfo.environment) + path.dropFirst()
        }
        return path
    }
}
