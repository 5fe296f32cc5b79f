import Foundation
import Storage
import Testing
@testable import Engine

/// Loading factory presets: every shipped file loads; a bad file is reported
/// (file, JSON path, reason) and skipped without stopping the others.
@Suite struct PresetCatalogTests {
    /// A fresh temporary folder with the given files.
    static func folder(_ files: [String: String]) throws -> String {
        let dir = NSTemporaryDirectory() + "physarum-presets-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        return dir
    }

    static let good = ##"{"format":1,"name":"Good","tags":["x"],"params":{"global.exposure":2,"render.blendMode":"paint","species.1.color":"#102030"}}"##

    @Test func shippedPresetsAllLoad() throws {
        let catalog = PresetCatalog.factory()
        #expect(catalog.notice == nil)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        #expect(catalog.presets.count >= 16)
        #expect(Set(catalog.presets.map(\.name)).count == catalog.presets.count, "names are unique")
        #expect(catalog.presets.contains { $0.params.blendMode == .paint }, "some paint looks")
        #expect(catalog.presets.contains { $0.params.blendMode == .additive }, "some additive looks")
        #expect(Set(catalog.presets.map(\.params.spawnPattern)).count >= 4, "several spawn patterns")
        for p in catalog.presets { #expect(!p.tags.isEmpty, "\(p.id) has tags") }
    }

    @Test func goodFileLoadsWithItsValues() throws {
        let dir = try Self.folder(["good.json": Self.good])
        let c = PresetCatalog.load(directory: dir)
        let p = try #require(c.preset(named: "good"))
        #expect(p.name == "Good" && p.tags == ["x"])
        #expect(p.params[.exposure] == 2)
        #expect(p.params.blendMode == .paint)
        #expect(p.params.color(species: 1) == RGBColor(r: 0x10, g: 0x20, b: 0x30))
        #expect(p.params[.vignette] == PresetParams.defaults[.vignette], "missing ids keep their defaults")
        #expect(c.preset(named: "GOOD")?.id == "good", "found by name too, any case")
    }

    @Test(arguments: [
        ("syntax.json", #"{"format":1,"name":"S","params":{"#, "params", "end"),
        ("duplicate.json", #"{"format":1,"name":"D","params":{"effects.bloom":1,"effects.bloom":2}}"#, "params", "duplicate"),
        ("range.json", #"{"format":1,"name":"R","params":{"global.exposure":99}}"#, "params.global.exposure", "must be within"),
        ("unknown.json", #"{"format":1,"name":"U","params":{"global.exposur":1}}"#, "params.global.exposur", "unknown parameter id"),
        ("colour.json", #"{"format":1,"name":"C","params":{"render.background":"red"}}"#, "params.render.background", "like \"#ff8800\""),
        ("format.json", #"{"format":7,"name":"F","params":{}}"#, "format", "unsupported format 7"),
        ("noname.json", #"{"format":1,"params":{}}"#, "(top level)", "missing required field 'name'"),
        ("type.json", #"{"format":1,"name":"T","params":{"effects.bloom":"lots"}}"#, "params.effects.bloom", "expected"),
        ("extra.json", #"{"format":1,"name":"E","params":{},"colour":1}"#, "colour", "unknown key 'colour'"),
    ] as [(String, String, String, String)])
    func badFileIsReportedAndSkipped(file: String, text: String, path: String, reason: String) throws {
        let dir = try Self.folder(["good.json": Self.good, file: text])
        let c = PresetCatalog.load(directory: dir)
        #expect(c.presets.map(\.id) == ["good"], "the good file still loads")
        let problem = try #require(c.problems.first)
        #expect(c.problems.count == 1)
        #expect(problem.file == file)
        #expect(problem.path.hasPrefix(path), "\(problem)")
        #expect(problem.reason.contains(reason), "\(problem)")
        #expect(problem.position.line >= 1, "line:column given: \(problem)")
        #expect(problem.description.hasPrefix("\(file):\(problem.position.line):\(problem.position.column): \(problem.path): "))
    }

    @Test func duplicateNamesAreReported() throws {
        let dir = try Self.folder(["a.json": Self.good, "b.json": Self.good])
        let c = PresetCatalog.load(directory: dir)
        #expect(c.presets.map(\.id) == ["a"])
        #expect(c.problems.first?.file == "b.json")
    }

    @Test func presetsRoundTripThroughTheirFileFormat() throws {
        for p in PresetCatalog.factory().presets {
            let again = try Preset.decode(p.encoded(), file: p.id + ".json")
            #expect(again == p)
        }
    }

    @Test func configDirectoryIsFoundFromTheEnvironmentTheExecutableOrTheWorkingDirectory() throws {
        let root = try Self.folder([:])
        try FileManager.default.createDirectory(atPath: root + "/pkg/configs/presets", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/pkg/.build/release", withIntermediateDirectories: true)
        let exe = root + "/pkg/.build/release/physarum"
        // Walking up from the executable finds the package's configs/.
        let up = ConfigDirectory.locate(environment: [:], executable: exe, workingDirectory: "/")
        #expect(up.path == root + "/pkg/configs")
        // The environment variable wins, even over a findable folder.
        let env = ConfigDirectory.locate(environment: ["PHYSARUM_CONFIG_DIR": root + "/pkg/configs/presets"], executable: exe, workingDirectory: "/")
        #expect(env.path == root + "/pkg/configs/presets")
        // Falls back to the working directory.
        let cwd = ConfigDirectory.locate(environment: [:], executable: "/nonexistent/bin/physarum", workingDirectory: root + "/pkg")
        #expect(cwd.path == root + "/pkg/configs")
        // Nothing found: a notice naming the places tried and the variable.
        let none = ConfigDirectory.locate(environment: ["PHYSARUM_CONFIG_DIR": root + "/missing"], executable: exe, workingDirectory: "/")
        #expect(none.path == nil)
        #expect(none.notice?.contains(root + "/missing") == true && none.notice?.contains("PHYSARUM_CONFIG_DIR") == true)
    }
}
