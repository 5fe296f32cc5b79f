import Engine
import Foundation
import Testing
import TestSupport
@testable import LiveApp

/// Factory preset thumbnails: rendered once, cached, redone when the preset changes.
@Suite struct FactoryThumbnailsTests {
    static func preset(_ id: String, exposure: Double) -> Preset {
        var p = PresetParams()
        p[.exposure] = exposure
        p[.agents] = 200_000
        return Preset(id: id, name: id.capitalized, params: p)
    }

    @Test func renderedOnceCachedAndRedoneWhenThePresetChanges() throws {
        let dir = makeTempDir("thumbs")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("physarum/thumbnails")
        let a = Self.preset("alpha", exposure: 1.5), b = Self.preset("beta", exposure: 2)
        let first = FactoryThumbnails(presets: [a, b], directory: cache)
        first.start()
        #expect(first.waitUntilDone(timeout: 120))
        #expect(first.rendered == 2 && first.problems.isEmpty, "\(first.problems)")
        let fileA = try #require(first.url(for: "alpha"))
        let image = try PNGCodec.read(fileA.path)
        #expect(image.width == 160 && image.height == 90)
        #expect(image.pixels.contains { $0 > 40 && $0 < 255 }, "a picture, not a blank")
        let bytesA = try Data(contentsOf: fileA)

        // A second start (the next run of the app) renders nothing.
        let second = FactoryThumbnails(presets: [a, b], directory: cache)
        second.start()
        #expect(second.waitUntilDone(timeout: 60))
        #expect(second.rendered == 0 && second.url(for: "alpha") == fileA)

        // An edited preset is rendered again; its old picture goes.
        let edited = Self.preset("alpha", exposure: 4)
        let third = FactoryThumbnails(presets: [edited, b], directory: cache)
        third.start()
        #expect(third.waitUntilDone(timeout: 120))
        #expect(third.rendered == 1)
        let newA = try #require(third.url(for: "alpha"))
        #expect(newA != fileA && !FileManager.default.fileExists(atPath: fileA.path))
        #expect(try Data(contentsOf: newA) != bytesA)
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.path).sorted()
        #expect(names.count == 2 && names.allSatisfy { $0.hasSuffix(".png") }, "\(names)")
    }

    @Test func theCacheFollowsXDGCacheHome() {
        let url = FactoryThumbnails.defaultDirectory(environment: ["XDG_CACHE_HOME": "/tmp/xdg-cache", "HOME": "/home/u"])
        #expect(url.path == "/tmp/xdg-cache/physarum/thumbnails")
    }
}
