import Foundation
import Testing
import TestSupport

/// What a test of the real window under Xvfb starts from: a display and a
/// private home folder that XDG config, state and data point into, removed
/// when the value is released.
///
/// Tests that press keys or move the pointer ask for a display of their own:
/// window tests run in parallel, and on the shared display another test's
/// window can take the focus and the key presses.
final class WindowTestHome {
    let display: String
    let url: URL
    private let own: PrivateDisplay?

    init(_ name: String, ownDisplay: Bool = false) throws {
        own = ownDisplay ? PrivateDisplay() : nil
        display = try #require(own?.display ?? TestDisplay.display, "Xvfb is needed (scripts/test installs it)")
        url = makeTempDir(name)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the home folder.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// DISPLAY and the XDG folders, plus `extra`.
    func environment(_ extra: [String: String?] = [:]) -> [String: String?] {
        ["DISPLAY": display, "XDG_STATE_HOME": url.path, "XDG_CONFIG_HOME": url.path, "XDG_DATA_HOME": url.path]
            .merging(extra) { $1 }
    }
}
