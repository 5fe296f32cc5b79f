import Engine
import Foundation
import Storage
import TestSupport
import Testing
@testable import LiveCore

/// The library file format: exact round trip, migration, and rejection of bad files.
@Suite struct LibraryCodecTests {
    func sampleDocument() -> LibraryDocument {
        var doc = LibraryDocument()
        var p = PresetParams()
        p[.exposure] = 1.234567891
        p.setColor(RGBColor(r: 1, g: 2, b: 3), species: 1)
        doc.slots[0] = UserSlot(preset: Preset(id: "user:3", name: "Ünïcode \"quoted\"", tags: ["a b", "c"], params: p), pinned: true)
        doc.slots[17] = UserSlot(preset: Preset(id: "user:7", name: "Far", tags: [], params: PresetParams()), pinned: false)
        doc.pinnedFactory = ["cellar", "gone-preset"]
        doc.nextSerial = 8
        return doc
    }

    @Test func roundTripIsExact() throws {
        let doc = sampleDocument()
        let text = LibraryCodec.encode(doc)
        #expect(text.contains("\"format\": 2"))
        let back = try LibraryCodec.decode(Data(text.utf8), file: "library.json")
        #expect(back.fromFormat == 2)
        #expect(back.document == doc)
    }

    @Test func migratesFormat1WithoutPinsOrIDs() throws {
        let v1 = """
            {"format": 1, "slots": [
              {"slot": 4, "name": "Later", "tags": ["x"], "params": {"global.exposure": 2}},
              {"slot": 2, "name": "Earlier", "params": {}}
            ]}
            """
        let loaded = try LibraryCodec.decode(Data(v1.utf8), file: "library.json")
        #expect(loaded.fromFormat == 1)
        let d = loaded.document
        #expect(d.slots[1]?.preset.id == "user:1" && d.slots[1]?.preset.name == "Earlier" && d.slots[1]?.pinned == false)
        #expect(d.slots[3]?.preset.id == "user:2" && d.slots[3]?.preset.params[.exposure] == 2 && d.slots[3]?.preset.tags == ["x"])
        #expect(d.nextSerial == 3 && d.pinnedFactory.isEmpty)
        #expect(d.slots.compactMap { $0 }.count == 2)
        // Written back, it is format 2 and reads back equal.
        let again = try LibraryCodec.decode(Data(LibraryCodec.encode(d).utf8), file: "library.json")
        #expect(again.fromFormat == 2 && again.document == d)
    }

    @Test(arguments: [
        ("{\"format\": 3, \"slots\": []}", "format", "newer than this build"),
        ("{\"format\": 2, \"nextSerial\": 1, \"pinnedFactory\": [], \"slots\": [{\"slot\": 25, \"id\": \"user:1\", \"name\": \"x\", \"pinned\": false, \"params\": {}}]}",
         "slots[0].slot", "within 1…24"),
        ("{\"format\": 2, \"nextSerial\": 1, \"pinnedFactory\": [], \"slots\": [{\"slot\": 1, \"id\": \"../x\", \"name\": \"x\", \"pinned\": false, \"params\": {}}]}",
         "slots[0].id", "user:12"),
        ("{\"format\": 2, \"nextSerial\": 1, \"pinnedFactory\": [], \"slots\": [{\"slot\": 1, \"id\": \"user:1\", \"name\": \"x\", \"pinned\": false, \"params\": {\"global.exposure\": 99}}]}",
         "slots[0].params.global.exposure", "within"),
        ("{\"format\": 2, \"nextSerial\": 1, \"pinnedFactory\": [], \"slots\": [{\"slot\": 1, \"id\": \"user:1\", \"name\": \"a\", \"pinned\": false, \"params\": {}}, {\"slot\": 1, \"id\": \"user:2\", \"name\": \"b\", \"pinned\": false, \"params\": {}}]}",
         "slots[1].slot", "listed twice"),
        ("{\"format\": 2, \"nextSerial\": 1, \"pinnedFactory\": [], \"slots\": [{\"slot\": 1, \"id\": \"user:1\", \"name\": \"a\", \"pinned\": false, \"params\": {}}, {\"slot\": 2, \"id\": \"user:1\", \"name\": \"b\", \"pinned\": false, \"params\": {}}]}",
         "slots[1].id", "used twice"),
        ("{\"format\": 2, \"slots\": [", "", "1:"),
    ])
    func badFilesAreRejectedWithPathAndReason(text: String, path: String, reason: String) {
        #expect {
            _ = try LibraryCodec.decode(Data(text.utf8), file: "lib.json")
        } throws: { error in
            let e = (error as! JSONErrorList).errors[0]
            return e.file == "lib.json" && (path.isEmpty || e.path.description == path) && e.description.contains(reason)
        }
    }

    @Test func nextSerialNeverHandsOutATakenID() throws {
        let text = """
            {"format": 2, "nextSerial": 1, "pinnedFactory": [], "slots": [
              {"slot": 1, "id": "user:41", "name": "a", "pinned": true, "params": {}}]}
            """
        #expect(try LibraryCodec.decode(Data(text.utf8), file: "l").document.nextSerial == 42)
    }
}

/// Preset documents read strictly (import) and written (export).
@Suite struct PresetDocumentTests {
    @Test func roundTrip() throws {
        var p = PresetParams()
        p[.exposure] = 0.7071
        p.blendMode = .paint
        let preset = Preset(id: "x", name: "Round", tags: ["t1"], params: p)
        let back = try Preset.parse(data: Data(preset.fileText.utf8), id: "x", file: "r.json")
        #expect(back == preset)
    }

    @Test(arguments: [
        ("{\"format\":1,\"name\":\"a\",\"params\":{},\"extra\":1}", "extra", "unknown key"),
        ("{\"format\":2,\"name\":\"a\",\"params\":{}}", "format", "unsupported format 2"),
        ("{\"format\":1,\"params\":{}}", "(top level)", "missing required field 'name'"),
        ("{\"format\":1,\"name\":\"a\",\"params\":{\"no.such\":1}}", "params.no.such", "unknown parameter id"),
        ("[1,2]", "(top level)", "expected an object"),
        ("{\"format\":1,\"name\":\"a\",\"params\":{}", "(top level)", "1:"),
    ])
    func invalidPresetsNameTheProblem(text: String, path: String, reason: String) {
        #expect {
            _ = try Preset.parse(data: Data(text.utf8), id: "x", file: "in.json")
        } throws: { error in
            let e = (error as! JSONErrorList).errors[0]
            return e.description.hasPrefix("in.json:") && e.path.description == path && e.description.contains(reason)
        }
    }
}
