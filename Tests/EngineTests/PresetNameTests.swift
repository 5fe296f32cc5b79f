import Engine
import Foundation
import Testing

/// Preset names and tags hold nothing invisible: an escaped `\u0000` or a
/// byte-order mark inside a name would make two names that look the same
/// differ (and pass the duplicate-name check).
@Suite struct PresetNameTests {
    static func catalog(_ files: [String: String]) throws -> PresetCatalog {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("preset-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return PresetCatalog.load(directory: dir.path)
    }

    static func preset(_ name: String, tags: String = "[]") -> String {
        #"{"format":1,"name":"\#(name)","tags":\#(tags),"params":{}}"#
    }

    @Test(arguments: [(#"Neon\u0000"#, "U+0000"), (#"\ufeffNeon"#, "U+FEFF"), (#"Ne\u200bon"#, "U+200B"), (#"Neon\u007f"#, "U+007F")])
    func invisibleCharactersInANameAreRefused(_ name: String, _ code: String) throws {
        let c = try Self.catalog(["a.json": Self.preset("Neon"), "b.json": Self.preset(name)])
        #expect(c.presets.map(\.id) == ["a"])
        let p = try #require(c.problems.first)
        #expect(p.file == "b.json" && p.path == "name" && p.reason.contains("invisible character \(code)"), "\(p)")
    }

    @Test func invisibleCharactersInATagAreRefusedAndEmojiJoinersAllowed() throws {
        let c = try Self.catalog(["a.json": Self.preset("Neon", tags: #"["ok\u0000"]"#),
                                  "b.json": Self.preset(#"Coder \ud83d\udc69\u200d\ud83d\udcbb"#)])
        #expect(c.presets.map(\.id) == ["b"], "a ZWJ emoji sequence is a visible name")
        #expect(c.problems.first?.path == "tags[0]")
    }

    @Test func namesDifferingOnlyInCaseOrSpacesAreDuplicates() throws {
        let c = try Self.catalog(["a.json": Self.preset("Neon"), "b.json": Self.preset(" neon ")])
        #expect(c.presets.map(\.id) == ["a"])
        #expect(c.problems.first?.reason.contains("already used by a.json") == true, "\(c.problems)")
    }
}
