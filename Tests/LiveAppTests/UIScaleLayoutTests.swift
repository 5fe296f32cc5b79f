import Foundation
import Testing
import TestSupport

/// The real window under Xvfb at UI scales 1× to 3×: every control of the
/// parameter editor that the app reports is inside the window, overlaps no
/// other, and the menu bar stays uncovered (checked from the rectangles the
/// app reports in its state file, not by eye).
@Suite(.serialized) struct UIScaleLayoutTests {
    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)

    static func box(_ any: Any?) -> Box? {
        guard let a = (any as? [Any])?.compactMap({ ($0 as? NSNumber)?.doubleValue }), a.count == 4 else { return nil }
        return (a[0], a[1], a[2], a[3])
    }

    static func overlap(_ a: Box, _ b: Box) -> Bool {
        let e = 0.5  // shared edges are not overlaps
        return a.x0 + e < b.x1 && b.x0 + e < a.x1 && a.y0 + e < b.y1 && b.y0 + e < a.y1
    }

    @Test(arguments: [1.0, 1.5, 2.0, 3.0])
    func noControlOverlapsAnotherOrLeavesTheWindow(scale: Double) throws {
        let home = try WindowTestHome("scale")
        let state = home.file("state.json")
        let app = try AppProcess(["--no-session", "--no-audio", "--agents", "20000", "--size", "1280x720",
                                  "--ui-scale", String(scale), "--state-file", state.path],
                                 environment: home.environment(["XDG_CACHE_HOME": home.url.path]))
        defer { app.stop() }
        var controls: [String: Any] = [:]
        #expect(poll(seconds: 60) {
            guard let d = try? Data(contentsOf: state), let o = try? JSONSerialization.jsonObject(with: d) as? [String: Any],
                  let c = o["controls"] as? [String: Any], let e = c["editor"] as? [String: Any], e.count > 10 else { return false }
            controls = c
            return true
        }, "the app reports its controls: \(app.stderr)")
        #expect((controls["uiScale"] as? NSNumber)?.doubleValue == scale)
        let size = (controls["display"] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? [0, 0]
        let editor = (controls["editor"] as? [String: Any] ?? [:]).compactMapValues { Self.box($0) }
        let window = try #require(editor["window"], "the editor panel's rectangle")
        let menu = try #require(Self.box(controls["menuBar"]), "the menu bar is drawn")
        #expect(window.y0 >= menu.y1 - 0.5, "the panel leaves the menu bar uncovered: \(window) vs \(menu)")
        #expect(window.x0 >= 0 && window.y0 >= 0 && window.x1 <= size[0] && window.y1 <= size[1], "the panel is inside the window: \(window)")
        let items = editor.filter { $0.key != "window" }.sorted { $0.key < $1.key }
        #expect(items.count > 10)
        for (name, b) in items {
            #expect(b.x0 >= 0 && b.y0 >= 0 && b.x1 <= size[0] && b.y1 <= size[1], "\(name) leaves the window: \(b)")
        }
        var overlaps: [String] = []
        for i in items.indices {
            for j in items.indices where j > i && Self.overlap(items[i].value, items[j].value) {
                overlaps.append("\(items[i].key) × \(items[j].key)")
            }
        }
        #expect(overlaps.isEmpty, "at \(scale)×: \(overlaps.prefix(10))")
        let shot = try ScreenShot.take(display: home.display)
        #expect(shot.width == 1280 && shot.height == 720)
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }
}
