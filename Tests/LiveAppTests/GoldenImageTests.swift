import Engine
import Foundation
import Testing
import TestSupport
@testable import LiveApp

/// Two presets rendered at 320×180 after 200 steps through `physarum render`'s
/// own code path must match the committed PNGs byte for byte. The cases live
/// in Golden/cases.txt; `scripts/regenerate-goldens` re-renders them (state a
/// regeneration in the commit message).
@Suite struct GoldenImageTests {
    static let folder = (#filePath as NSString).deletingLastPathComponent + "/Golden"

    /// (file name, arguments) from cases.txt.
    static var cases: [(String, [String])] {
        let text = (try? String(contentsOfFile: folder + "/cases.txt", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let l = line.trimmingCharacters(in: .whitespaces)
            guard !l.isEmpty, !l.hasPrefix("#"), let colon = l.firstIndex(of: ":") else { return nil }
            return (String(l[..<colon]), l[l.index(after: colon)...].split(separator: " ").map(String.init))
        }
    }

    @Test func thereAreTwoGoldenCases() {
        #expect(Self.cases.count == 2)
    }

    @Test(arguments: GoldenImageTests.cases.map(\.0))
    func renderMatchesTheCommittedPNG(name: String) throws {
        let args = try #require(Self.cases.first { $0.0 == name }?.1)
        let out = makeTempDir().path + "/" + name
        let status = try RenderCommand.run(args + ["--out", out])
        #expect(status == 0)
        let got = try #require(FileManager.default.contents(atPath: out))
        let want = try #require(FileManager.default.contents(atPath: Self.folder + "/" + name))
        if got != want {
            // Say how far off it is, to tell a real regression from a trajectory change.
            let a = try PNGCodec.decode([UInt8](got)), b = try PNGCodec.decode([UInt8](want))
            var differing = 0
            if a.width == b.width && a.height == b.height {
                for i in stride(from: 0, to: a.pixels.count, by: 4) where a.pixels[i..<(i + 4)] != b.pixels[i..<(i + 4)] { differing += 1 }
            }
            Issue.record("""
                \(name) differs from the golden PNG (\(differing) of \(b.width * b.height) pixels). If the change is \
                intended, run scripts/regenerate-goldens, look at the new PNGs and say so in the commit message.
                """)
        }
    }
}
