import Engine
import Foundation
import LiveCore

/// A fresh temporary directory for one library/capture test, removed when
/// the value is released.
public final class LibraryTestDir: Sendable {
    public let path: String

    public init() {
        var template = Array((NSTemporaryDirectory() + "/physarum-library-test.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = String(cString: made!)
    }

    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }
    public func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let p = file(name)
        try FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }

    public func read(_ name: String) -> Data? { FileManager.default.contents(atPath: file(name)) }
    public func names(_ sub: String = "") -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: file(sub))) ?? []).sorted() }
    public func remove() { try? FileManager.default.removeItem(atPath: path) }

    deinit { remove() }
}

/// Polls `condition` every `every` seconds until it holds or `seconds`
/// pass; true when it held. Tests wait with this, never with a fixed sleep.
@discardableResult
public func poll(seconds: Double, every: Double = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(useconds_t(every * 1_000_000))
    }
    return try condition()
}

/// Four distinct factory presets for library, cycle and set-list tests;
/// 2 000 agents each, so tests that run them through a pipeline for
/// thousands of frames stay cheap (the default's are what a window needs).
public let testFactory: [Preset] = {
    func make(_ id: String, _ name: String, _ tags: [String], exposure: Double) -> Preset {
        var p = PresetParams()
        p[.exposure] = exposure
        p[.agents] = 2000
        return Preset(id: id, name: name, tags: tags, params: p)
    }
    return [
        make("amber-drift", "Amber Drift", ["calm", "warm"], exposure: 0.6),
        make("blue-storm", "Blue Storm", ["club"], exposure: 0.9),
        make("cellar", "Cellar", ["dark", "calm"], exposure: 1.1),
        make("dune", "Dune Café", ["warm"], exposure: 1.3),
    ]
}()

extension AppModel {
    /// Applies actions in order, returning every effect.
    @discardableResult
    public mutating func run(_ actions: AppAction...) -> [AppEffect] { actions.flatMap { handle($0) } }

    /// The library effects among `effects`.
    public static func libraryEffects(_ effects: [AppEffect]) -> [LibraryEffect] {
        effects.compactMap { if case .library(let e) = $0 { e } else { nil } }
    }
}

/// A fresh private directory for one test.
public func makeTempDir(_ name: String = "physarum-test") -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
