import Foundation
@testable import AudioReactive
import Engine
import Storage

/// A fresh temporary directory for one config test, removed by `remove()`.
struct ConfigTestDir {
    let url: URL

    init() throws {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("physarum-config-test.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else { throw FileError(path: "/tmp", reason: "mkdtemp failed") }
        url = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL { try write(name, Data(text.utf8)) }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> URL {
        let f = file(name)
        try data.write(to: f)
        return f
    }

    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The repository root (for shipped configs and docs).
let configRepoRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

