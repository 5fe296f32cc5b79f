import Foundation
import Storage
import Testing
@testable import AudioReactive
import Engine
import TestSupport

extension MalformedConfig: CustomTestStringConvertible {
    public var testDescription: String { label }
}

private let goodText = ConfigCorpus.goodText
private let corpus = ConfigCorpus.malformed

/// Every malformed config yields the expected error (with path, and line:column
/// when the text is readable), crashes nothing and is never rewritten by the
/// store. (That the app keeps the config in use is tested through the audio
/// panel: AudioConfigPanelTests.importingEachBadFileChangesNothingAndNamesThePath.)
@Suite struct AudioConfigCorpusTests {
    @Test func corpusIsLargeEnough() { #expect(corpus.count >= 30) }

    @Test(arguments: corpus)
    func malformedConfigIsRejected(_ c: MalformedConfig) throws {
        let dir = try ConfigTestDir()
        let store = AudioConfigStore(userDirectory: dir.url, shippedDirectory: nil)
        let goodURL = try dir.write("good.json", goodText)
        let inUse = try AudioConfig.load(contentsOf: goodURL).config

        let badURL = try dir.write("bad.json", Data(c.bytes))
        var caught: JSONErrorList?
        do { _ = try AudioConfig.load(contentsOf: badURL) } catch { caught = error }
        let errors = try #require(caught, "\(c.label) must be rejected").errors
        let match = errors.first { $0.path.description == c.path && $0.reason.contains(c.reason) }
        #expect(match != nil, "\(c.label): got \(errors.map(\.description))")
        if let match {
            #expect(match.file == badURL.path)
            switch c.at {
            case nil: #expect(!match.position.isKnown)
            case "": #expect(match.position.isKnown, "\(match)")
            case let at?: #expect(match.position.description == at, "\(match)")
            }
            #expect(match.description.hasPrefix(badURL.path + ":"))
        }
        // The store refuses to overwrite or rename the bad file; its bytes stay as they were.
        #expect(throws: AudioConfigStoreError.self) { try store.save(inUse, as: "bad", replace: true) }
        #expect(throws: AudioConfigStoreError.self) { try store.rename(badURL, to: "Renamed") }
        #expect(throws: AudioConfigStoreError.self) { try store.importConfig(from: badURL) }
        #expect(try Data(contentsOf: badURL) == Data(c.bytes))
        #expect(dir.names() == ["bad.json", "good.json"])
        // Listing shows it as invalid rather than failing.
        let entry = store.list().first { $0.url.lastPathComponent == "bad.json" }
        #expect(entry?.isValid == false)
    }
}
