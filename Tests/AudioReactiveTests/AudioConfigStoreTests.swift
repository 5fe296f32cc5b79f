import Foundation
@testable import Storage
import Testing
@testable import AudioReactive
import Engine

@Suite struct AudioConfigStoreTests {
    @Test func userDirectoryFollowsXDG() {
        #expect(AudioConfigStore.defaultUserDirectory(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"]).path == "/x/cfg/physarum/audio")
        #expect(AudioConfigStore.defaultUserDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.config/physarum/audio")
        // A relative or empty XDG_CONFIG_HOME is ignored, as the XDG spec says.
        #expect(AudioConfigStore.defaultUserDirectory(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/home/u"]).path == "/home/u/.config/physarum/audio")
        #expect(AudioConfigStore.defaultUserDirectory(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/u"]).path == "/home/u/.config/physarum/audio")
    }

    @Test func fileNamesAreSafeSlugs() {
        #expect(AudioConfigStore.fileName(for: "Aggressive Club!") == "aggressive-club.json")
        #expect(AudioConfigStore.fileName(for: "../../etc/passwd") == "etc-passwd.json")
        #expect(AudioConfigStore.fileName(for: "☃") == "config.json")
    }

    @Test func saveListExportImportRenameDelete() throws {
        let dir = try ConfigTestDir()
        let user = dir.url.appendingPathComponent("xdg/physarum/audio")
        let shippedDir = configRepoRoot.appendingPathComponent("configs/audio")
        let store = AudioConfigStore(userDirectory: user, shippedDirectory: shippedDir)
        let shippedCount = store.list().count
        #expect(shippedCount >= 4 && store.list().allSatisfy { $0.origin == .shipped && $0.isValid })

        // Save current as: creates the directory, writes a file that loads back equal.
        var mine = AudioConfig.builtInDefault
        mine.reactivity = 1.5
        let url = try store.save(mine, as: "  My Set  ")
        #expect(url.lastPathComponent == "my-set.json")
        var expected = mine
        expected.name = "My Set"
        #expect(try AudioConfig.load(contentsOf: url).config == expected)
        let listed = store.list()
        #expect(listed.count == shippedCount + 1)
        #expect(listed.last?.name == "My Set" && listed.last?.origin == .user)
        // Saving again under the same name needs `replace`.
        #expect(throws: AudioConfigStoreError.self) { try store.save(mine, as: "my set") }
        mine.tuning.gain = 3
        try store.save(mine, as: "My Set", replace: true)
        #expect(try AudioConfig.load(contentsOf: url).config.tuning.gain == 3)

        // Export anywhere, import back under its own name.
        let exported = dir.file("shared.json")
        var other = mine
        other.name = "Shared"
        try store.export(other, to: exported)
        let imported = try store.importConfig(from: exported)
        #expect(imported.lastPathComponent == "shared.json" && imported.deletingLastPathComponent().path == user.path)
        #expect(try Data(contentsOf: imported) == Data(contentsOf: exported))
        #expect(throws: AudioConfigStoreError.self) { try store.importConfig(from: exported) }

        // Rename changes the name inside and the file name; the old file goes.
        let renamed = try store.rename(imported, to: "Shared Too")
        #expect(renamed.lastPathComponent == "shared-too.json")
        #expect(!FileManager.default.fileExists(atPath: imported.path))
        #expect(try AudioConfig.load(contentsOf: renamed).config.name == "Shared Too")
        #expect(throws: AudioConfigStoreError.self) { try store.rename(renamed, to: "My Set") }

        // Shipped configs are read-only.
        let shippedDefault = shippedDir.appendingPathComponent("default.json")
        #expect(throws: AudioConfigStoreError.self) { try store.delete(shippedDefault) }
        #expect(throws: AudioConfigStoreError.self) { try store.rename(shippedDefault, to: "Mine") }

        try store.delete(renamed)
        #expect(!FileManager.default.fileExists(atPath: renamed.path))
        #expect(store.list().count == shippedCount + 1)
        // Bad names are refused.
        #expect(throws: AudioConfigStoreError.self) { try store.save(mine, as: "   ") }
        #expect(throws: AudioConfigStoreError.self) { try store.save(mine, as: String(repeating: "x", count: 65)) }
    }

    @Test func interruptedSaveNeverLeavesAHalfWrittenFile() throws {
        let dir = try ConfigTestDir()
        let store = AudioConfigStore(userDirectory: dir.url, shippedDirectory: nil)
        var config = AudioConfig.builtInDefault
        config.name = "Live"
        let url = try store.save(config, as: "Live")
        let before = try Data(contentsOf: url)

        // A crash halfway through writing the new version...
        var changed = config
        changed.tuning.gain = -6
        let newBytes = Data(changed.jsonText.utf8)
        try SafeFile.writeAtomically(newBytes, to: url, crashAfter: newBytes.count / 2)
        // ...leaves the real file exactly as it was (still loading), with the half-written
        // temporary file under a hidden name that listing ignores.
        #expect(try Data(contentsOf: url) == before)
        #expect(try AudioConfig.load(contentsOf: url).config == config)
        let leftovers = dir.names().filter(SafeFile.isTemporary)
        #expect(leftovers.count == 1)
        #expect(try Data(contentsOf: dir.file(leftovers[0])).count == newBytes.count / 2)
        #expect(store.list().map(\.url.lastPathComponent) == ["live.json"])

        // A save that fails (the target cannot be replaced) leaves no temporary file and no change.
        let blocked = dir.file("blocked.json")
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("sub"), withIntermediateDirectories: true)
        #expect(throws: FileError.self) { try SafeFile.writeAtomically(newBytes, to: blocked) }
        #expect(dir.names().filter(SafeFile.isTemporary).count == 1)

        // The next real save goes through completely.
        try store.save(changed, as: "Live", replace: true)
        #expect(try AudioConfig.load(contentsOf: url).config.tuning.gain == -6)
    }

    @Test func readingRefusesOversizedAndSpecialFiles() throws {
        let dir = try ConfigTestDir()
        let big = try dir.write("big.json", Data(count: 2_000_000))
        #expect(throws: FileError.self) { try SafeFile.read(big, limit: 1 << 20) }
        #expect(throws: FileError.self) { try SafeFile.read(dir.url, limit: 1 << 20) }
        #expect(throws: FileError.self) { try SafeFile.read(dir.file("missing.json"), limit: 1 << 20) }
        do {
            _ = try AudioConfig.load(contentsOf: dir.file("missing.json"))
            Issue.record("missing file must fail")
        } catch {
            #expect(error.errors.first?.description.contains("missing.json") == true)
            #expect(error.errors.first?.reason.contains("No such file") == true)
        }
    }
}
