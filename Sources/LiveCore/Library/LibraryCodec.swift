import Engine
import Foundation
import Storage

/// The library file (`library.json`) as JSON, with migration of older formats.
///
/// Format 2 (written):
/// `{"format":2,"nextSerial":N,"pinnedFactory":[id…],"slots":[{"slot":1…24,
/// "id":"user:N","name":…,"tags":[…],"pinned":bool,"params":{…}}…]}` —
/// only occupied slots are listed.
/// Format 1 (an older layout, read and migrated): `{"format":1,"slots":[{"slot",
/// "name","tags","params"}…]}` — no ids, no pins; migration numbers the presets
/// `user:1…` in slot order, unpinned.
/// Any error makes the whole file unusable (a half-read library must never be
/// written back over the file). Pure; any thread.
public enum LibraryCodec {
    /// Largest accepted library file (24 presets are ≈ 60 KB).
    public static let maxBytes = 4 * 1024 * 1024

    /// A decoded library and the format it was read from (< current ⇒ migrated).
    public struct Loaded: Equatable, Sendable {
        public var document: LibraryDocument
        public var fromFormat: Int
    }

    /// The file text of `doc` (pretty JSON, newline at the end).
    public static func encode(_ doc: LibraryDocument) -> String {
        var slots: [JSONNode] = []
        for (i, s) in doc.slots.enumerated() {
            guard let s else { continue }
            slots.append(.object([
                ("slot", .number(Double(i + 1))),
                ("id", .string(s.preset.id)),
                ("name", .string(s.preset.name)),
                ("tags", .array(s.preset.tags.map { .string($0) })),
                ("pinned", .bool(s.pinned)),
                ("params", s.preset.params.jsonNode),
            ]))
        }
        return JSONWriter.pretty(.object([
            ("format", .number(Double(LibraryDocument.formatVersion))),
            ("nextSerial", .number(Double(doc.nextSerial))),
            ("pinnedFactory", .array(doc.pinnedFactory.map { .string($0) })),
            ("slots", .array(slots)),
        ]))
    }

    /// Decodes a library file; `file` names it in errors. Throws every problem found.
    public static func decode(_ data: Data, file: String) throws(JSONErrorList) -> Loaded {
        let d = JSONDiagnostics(file: file)
        let root = try StrictJSON.document(data, limit: maxBytes, file: file)
        guard var r = d.object(root, at: .root) else { throw JSONErrorList(d.errors) }
        guard let format = r.int("format", required: true, in: 0...Int(Int32.max)) else { throw JSONErrorList(d.errors) }
        guard (1...LibraryDocument.formatVersion).contains(format) else {
            d.error("library format \(format) is newer than this build reads (up to \(LibraryDocument.formatVersion))",
                    at: JSONPath.root.appending("format"), position: r.object["format"]?.position ?? .unknown)
            throw JSONErrorList(d.errors)
        }
        var doc = LibraryDocument()
        var serials: [Int] = []
        if format >= 2 {
            doc.nextSerial = r.int("nextSerial", required: true, in: 1...999_999_999) ?? 1
            if let pins = r.array("pinnedFactory", required: true, maxCount: 10_000) {
                for (k, p) in pins.enumerated() {
                    guard let id = d.string(p, at: JSONPath.root.appending("pinnedFactory").appending(k), maxLength: 200, nonEmpty: true)
                    else { continue }
                    if !doc.pinnedFactory.contains(id) { doc.pinnedFactory.append(id) }
                }
            }
        }
        let slotsPath = JSONPath.root.appending("slots")
        for (k, node) in (r.array("slots", required: true, maxCount: LibraryDocument.slotCount) ?? []).enumerated() {
            let path = slotsPath.appending(k)
            guard var s = d.object(node, at: path) else { continue }
            guard let number = s.int("slot", required: true, in: 1...LibraryDocument.slotCount) else { continue }
            if doc.slots[number - 1] != nil {
                d.error("slot \(number) is listed twice", at: path.appending("slot"), position: s.object["slot"]?.position ?? node.position)
                continue
            }
            var id = ""
            var pinned = false
            if format >= 2 {
                id = s.string("id", required: true) ?? ""
                if !id.isEmpty, LibraryDocument.serial(of: id) == nil {
                    d.error("a user preset id looks like \"user:12\", got \"\(id.prefix(40))\"", at: path.appending("id"),
                            position: s.object["id"]?.position ?? node.position)
                }
                pinned = s.bool("pinned", required: true) ?? false
            }
            let name = s.name("name", required: true, maxLength: LibraryModel.maxNameLength)
            var tags: [String] = []
            for (t, tag) in (s.array("tags", maxCount: Preset.maxTags) ?? []).enumerated() {
                if let v = d.name(tag, at: path.appending("tags").appending(t), maxLength: Preset.maxTagLength) {
                    tags.append(v)
                }
            }
            let params = s.value("params", required: true).flatMap {
                PresetParams(strict: $0, path: path.appending("params"), diagnostics: d)
            }
            _ = s.unknownMembers()
            guard let name, let params else { continue }
            if let n = LibraryDocument.serial(of: id) {
                if serials.contains(n) {
                    d.error("id \"\(id)\" is used twice", at: path.appending("id"), position: s.object["id"]?.position ?? node.position)
                }
                serials.append(n)
            }
            doc.slots[number - 1] = UserSlot(preset: Preset(id: id, name: name, tags: tags, params: params), pinned: pinned)
        }
        _ = r.unknownMembers()
        try d.throwIfErrors()
        if format == 1 { migrateFrom1(&doc) }
        // Never hand out an id that is already taken.
        doc.nextSerial = max(doc.nextSerial, (serials.max() ?? 0) + 1)
        return Loaded(document: doc, fromFormat: format)
    }

    /// Format 1 had no ids and no pins: number the presets in slot order.
    private static func migrateFrom1(_ doc: inout LibraryDocument) {
        var serial = 1
        for i in doc.slots.indices {
            guard let s = doc.slots[i] else { continue }
            let p = s.preset
            doc.slots[i] = UserSlot(preset: Preset(id: LibraryDocument.userPrefix + String(serial), name: p.name, tags: p.tags, params: p.params),
                                    pinned: false)
            serial += 1
        }
        doc.nextSerial = serial
        doc.pinnedFactory = []
    }
}
