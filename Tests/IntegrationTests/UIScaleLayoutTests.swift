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

    /// The state file's `controls` once the editor's are reported (empty if they never are).
    static func reportedControls(_ state: URL, _ app: AppProcess) -> [String: Any] {
        var controls: [String: Any] = [:]
        #expect(poll(seconds: 60) {
            guard let d = try? Data(contentsOf: state), let o = try? JSONSerialization.jsonObject(with: d) as? [String: Any],
                  let c = o["controls"] as? [String: Any], let e = c["editor"] as? [String: Any], e.count > 10 else { return false }
            controls = c
            return true
        }, "the app reports its controls: \(app.stderr)")
        return controls
    }

    static func displaySize(_ controls: [String: Any]) -> [Double] {
        (controls["display"] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? [0, 0]
    }

    @Test(arguments: [1.0, 1.5, 2.0, 3.0])
    func noControlOverlapsAnotherOrLeavesTheWindow(scale: Double) throws {
        let home = try WindowTestHome("scale")
        let state = home.file("state.json")
        let app = try AppProcess(["--no-session", "--no-audio", "--agents", "20000", "--size", "1280x720",
                                  "--ui-scale", String(scale), "--state-file", state.path] + AppProcess.walkArgumentsUnderSanitizer,
                                 environment: home.environment(["XDG_CACHE_HOME": home.url.path]))
        defer { app.stop() }
        let controls = Self.reportedControls(state, app)
        #expect((controls["uiScale"] as? NSNumber)?.doubleValue == scale)
        let size = Self.displaySize(controls)
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

    /// A HiDPI desktop on X11 says its scale in the X resources (`Xft.dpi`):
    /// the first start (no session) follows it; `--ui-scale` still wins.
    @Test func theFirstStartFollowsTheDesktopsXftDpi() throws {
        let home = try WindowTestHome("xftdpi", ownDisplay: true)
        let xprop = Process()  // what `xrdb -merge` of "Xft.dpi: 192" leaves on the root window
        xprop.executableURL = URL(fileURLWithPath: "/usr/bin/xprop")
        xprop.arguments = ["-root", "-f", "RESOURCE_MANAGER", "8s", "-set", "RESOURCE_MANAGER", "Xft.dpi:\t192\n"]
        xprop.environment = ["DISPLAY": home.display]
        try xprop.run()
        xprop.waitUntilExit()
        #expect(xprop.terminationStatus == 0)
        for (args, scale) in [([String](), 2.0), (["--ui-scale", "1.25"], 1.25)] {
            let state = home.file("state-\(scale).json")
            let app = try AppProcess(["--no-session", "--no-audio", "--agents", "20000", "--size", "1280x720",
                                      "--state-file", state.path] + args + AppProcess.walkArgumentsUnderSanitizer, environment: home.environment())
            defer { app.stop() }
            let controls = Self.reportedControls(state, app)
            #expect((controls["uiScale"] as? NSNumber)?.doubleValue == scale, "\(args): \(String(describing: controls["uiScale"]))")
            Self.checkPanel("editor", controls["editor"] as? [String: Any] ?? [:], size: Self.displaySize(controls),
                            menu: Self.box(controls["menuBar"]), scale: scale)
        }
    }

    /// The controls of one panel's rectangle set (`window` and the rest) that
    /// are shown whole (a panel scrolls: the rest are out of view), checked
    /// like the editor's: inside the window, no two overlapping.
    static func checkPanel(_ name: String, _ raw: [String: Any], size: [Double], menu: Box?, scale: Double,
                           ignore: (String) -> Bool = { _ in false }) {
        let rects = raw.compactMapValues { box($0) }
        guard let window = rects["window"] else {
            Issue.record("\(name): no window rectangle at \(scale)×")
            return
        }
        #expect(window.x0 >= -0.5 && window.y0 >= -0.5 && window.x1 <= size[0] + 0.5 && window.y1 <= size[1] + 0.5,
                "\(name) at \(scale)× is inside the window: \(window)")
        if let menu { #expect(window.y0 >= menu.y1 - 0.5, "\(name) at \(scale)× leaves the menu bar uncovered: \(window)") }
        let items = rects.filter { k, b in
            k != "window" && !ignore(k) && b.x0 >= window.x0 && b.x1 <= window.x1 && b.y0 >= window.y0 && b.y1 <= window.y1
        }.sorted { $0.key < $1.key }
        // At large scales a panel scrolls: its first screen may hold only a few controls.
        #expect(items.count >= 1, "\(name) at \(scale)× shows controls: \(rects.keys.sorted())")
        var overlaps: [String] = []
        for i in items.indices {
            for j in items.indices where j > i && overlap(items[i].value, items[j].value) {
                overlaps.append("\(items[i].key) × \(items[j].key)")
            }
        }
        #expect(overlaps.isEmpty, "\(name) at \(scale)×: \(overlaps.prefix(10))")
    }

    @Test(arguments: [1.0, 1.5, 2.0, 3.0])
    func theAudioPanelLibraryAndKeyOverlayHoldAtEveryScale(scale: Double) throws {
        // A private display: the keys below must reach this window only.
        let display = try #require(PrivateDisplay(), "Xvfb is needed (scripts/test installs it)")
        defer { withExtendedLifetime(display) {} }  // Xvfb lives until the test ends
        let home = makeTempDir("scale-panels")
        defer { try? FileManager.default.removeItem(at: home) }
        let state = home.appendingPathComponent("state.json")
        let app = try AppProcess(["--no-session", "--no-audio", "--agents", "5000", "--field", "320x180", "--size", "1280x720",
                                  "--audio-panel", "--ui-scale", String(scale), "--state-file", state.path, "--state-interval", "0.2"] + AppProcess.walkArgumentsUnderSanitizer,
                                 environment: ["DISPLAY": display.display, "XDG_STATE_HOME": home.path, "XDG_CACHE_HOME": home.path,
                                               "XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path])
        defer { app.stop() }
        func doc() -> [String: Any]? { readJSON(state) }
        func controls() -> [String: Any] { doc()?["controls"] as? [String: Any] ?? [:] }
        #expect(poll(seconds: 90) { ((doc()?["audio"] as? [String: Any])?["panel"] as? [String: Any])?.isEmpty == false },
                "the audio panel is drawn: \(app.stderr)")
        let size = (controls()["display"] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? [1280, 720]
        let menu = Self.box(controls()["menuBar"])
        let audio = ((doc()?["audio"] as? [String: Any])?["panel"] as? [String: Any]) ?? [:]
        // Meters and the spectrum are pictures drawn under their labels; activity bars sit in their rows.
        Self.checkPanel("audio panel", audio, size: size, menu: menu, scale: scale) { k in
            k == "spectrum" || k.hasPrefix("meter:") || k.hasSuffix("activity")
        }
        // L opens the library, F1 the key overlay (keys go to the window under the pointer).
        try LiveWindowTests.xdotool(["mousemove", "640", "700"], display: display.display)
        for _ in 0..<3 where (controls()["library"] as? [String: Any])?.isEmpty ?? true {
            try LiveWindowTests.xdotool(["key", "l"], display: display.display)
            _ = poll(seconds: 10) { (controls()["library"] as? [String: Any])?.isEmpty == false }
        }
        Self.checkPanel("library", controls()["library"] as? [String: Any] ?? [:], size: size, menu: menu, scale: scale) { k in
            k.hasPrefix("thumb:")  // a thumbnail sits in its row
        }
        // The overlay sizes itself to its lines over its first frames: wait until its close button is inside it.
        func overlaySettled() -> Bool {
            let k = (controls()["keyHelp"] as? [String: Any] ?? [:]).compactMapValues { Self.box($0) }
            guard let w = k["window"], let c = k["close"] else { return false }
            return c.y1 <= w.y1 + 0.5 || w.y1 >= size[1] - 20
        }
        for _ in 0..<3 where (controls()["keyHelp"] as? [String: Any])?.isEmpty ?? true {
            try LiveWindowTests.xdotool(["key", "F1"], display: display.display)
            _ = poll(seconds: 10) { (controls()["keyHelp"] as? [String: Any])?.isEmpty == false }
        }
        _ = poll(seconds: 10) { overlaySettled() }
        Self.checkPanel("key overlay", controls()["keyHelp"] as? [String: Any] ?? [:], size: size, menu: nil, scale: scale)
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }
}
