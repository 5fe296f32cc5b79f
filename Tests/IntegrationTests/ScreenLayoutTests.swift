import Engine
import Foundation
import Testing
import TestSupport
@testable import LiveApp

/// The whole screen of the real window under Xvfb at 1×, 1.5×, 2× and 3×
/// with the editor, the audio, MIDI, set list and library panels, the notices window
/// and notices in the band all open at once, checked from what the app
/// reports in its state file (`layout`: every window, every item drawn and
/// each text's measured extent): no two windows overlap, no item leaves its
/// window, no text leaves its box, nothing hides the menu bar.
/// `PHYSARUM_UI_SHOTS=DIR` also saves each screen as DIR/ui-<scale>x.png.
@Suite(.serialized) struct ScreenLayoutTests {
    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)

    static func box(_ any: Any?) -> Box? { UIScaleLayoutTests.box(any) }

    /// A window's id: the part of its name after "###" (titles may be cut), else its name.
    static func id(_ name: String) -> String { name.range(of: "###").map { String(name[$0.upperBound...]) } ?? name }

    static let panels = ["Parameters", "Audio", "MIDI & live control", "Set list", "Library", "Notices"]

    /// The windows on screen: the layout report's, or, from a build without
    /// it, the panels' own `window` rectangles (so this test can be run
    /// against an older build and say what overlaps there).
    static func windows(_ doc: [String: Any]) -> [(name: String, rect: Box)] {
        if let layout = doc["layout"] as? [String: Any], let list = layout["windows"] as? [[String: Any]] {
            return list.compactMap { w in (w["name"] as? String).flatMap { n in box(w["rect"]).map { (n, $0) } } }
        }
        let controls = doc["controls"] as? [String: Any] ?? [:]
        let audio = (doc["audio"] as? [String: Any])?["panel"] as? [String: Any] ?? [:]
        let notices = (doc["notices"] as? [String: Any])?["rects"] as? [String: Any] ?? [:]
        var out: [(String, Box)] = []
        for (name, rects) in [("Parameters", controls["editor"]), ("Audio", audio), ("Library", controls["library"]),
                              ("Notices", notices)] {
            if let b = box((rects as? [String: Any])?["window"]) { out.append((name, b)) }
        }
        if let b = box(notices["strip"]) { out.append(("##notices", b)) }
        if let b = box(controls["menuBar"]) { out.append(("##MainMenuBar", b)) }
        return out
    }

    static func overlap(_ a: Box, _ b: Box) -> Bool { UIScaleLayoutTests.overlap(a, b) }

    /// Whether `outer` holds all of `inner` (a text inside its own frame).
    static func contains(_ outer: Box, _ inner: Box) -> Bool {
        inner.x0 >= outer.x0 - 0.5 && inner.x1 <= outer.x1 + 0.5 && inner.y0 >= outer.y0 - 0.5 && inner.y1 <= outer.y1 + 0.5
    }

    /// What is wrong with the screen `doc` reports, one line per fault.
    static func faults(_ doc: [String: Any]) -> [String] {
        var out: [String] = []
        let wins = windows(doc)
        for i in wins.indices { for j in wins.indices where j > i && overlap(wins[i].rect, wins[j].rect) {
            out.append("windows overlap: \(wins[i].name) \(wins[i].rect) × \(wins[j].name) \(wins[j].rect)")
        } }
        if let bar = wins.first(where: { $0.name == "##MainMenuBar" }) {
            for w in wins where w.name != bar.name && w.rect.y0 < bar.rect.y1 - 0.5 { out.append("\(w.name) covers the menu bar") }
        }
        guard let layout = doc["layout"] as? [String: Any], let items = layout["items"] as? [[String: Any]] else {
            return out + ["no layout report (items and their text extents)"]
        }
        let byName = Dictionary(wins.map { ($0.name, $0.rect) }, uniquingKeysWith: { a, _ in a })
        let e = 0.5
        var texts: [String: [(what: String, rect: Box)]] = [:]
        var controls: [String: [(what: String, rect: Box)]] = [:]
        for item in items where item["visible"] as? Bool == true {
            let window = item["window"] as? String ?? "", text = item["text"] as? String ?? ""
            guard let r = box(item["rect"]), let t = box(item["textRect"]), let b = box(item["box"]), let w = byName[window] else { continue }
            let what = "\(window): \(item["kind"] ?? "") \"\(text)\""
            if r.x0 < w.x0 - e || r.x1 > w.x1 + e || r.y0 < w.y0 - e || r.y1 > w.y1 + e { out.append("\(what) \(r) leaves its window \(w)") }
            // Sideways, an item must show whole: not under the scrollbar or past the content's edge.
            // (A row's or menu's highlight reaches into the spacing around it on purpose: its text box is checked instead.)
            let kind = item["kind"] as? String ?? ""
            if kind != "row" && kind != "menu", let c = box(item["clip"]), r.x0 < c.x0 - e || r.x1 > c.x1 + e { out.append("\(what) \(r.x0)…\(r.x1) is cut by its window's edge \(c.x0)…\(c.x1)") }
            if !text.isEmpty && (t.x0 < b.x0 - e || t.x1 > b.x1 + e) { out.append("\(what): text \(t.x0)…\(t.x1) exceeds its box \(b.x0)…\(b.x1)") }
            if !text.isEmpty { texts[window, default: []].append((what, t)) }
            if item["kind"] as? String != "title" { controls[window, default: []].append((what, r)) }
        }
        // No two texts of a window share pixels (a label running into a value), and no text runs into another control.
        for (window, list) in texts {
            for i in list.indices { for j in list.indices where j > i && overlap(list[i].rect, list[j].rect) {
                out.append("texts overlap: \(list[i].what) \(list[i].rect) × \(list[j].what) \(list[j].rect)")
            } }
            for t in list {
                for c in controls[window] ?? [] where c.what != t.what && overlap(t.rect, c.rect) && !contains(c.rect, t.rect) {
                    out.append("text runs into a control: \(t.what) \(t.rect) × \(c.what) \(c.rect)")
                }
            }
        }
        return out
    }

    /// A home whose session opens every panel (the notices window too) and
    /// whose library and MIDI bindings files are broken: a warning and an
    /// error at start, so the notices band shows.
    static func home(_ name: String) throws -> URL {
        let home = makeTempDir(name)
        let dir = home.appendingPathComponent("physarum")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: dir.appendingPathComponent("library.json"))
        try Data("[1, 2".utf8).write(to: dir.appendingPathComponent("midi-bindings.json"))
        let session = #"{"format": 1, "panels": {"library": true, "audio": true, "midi": true, "setList": true, "notices": true}}"#
        try Data(session.utf8).write(to: dir.appendingPathComponent("session.json"))
        return home
    }

    /// The state once every panel, the menu bar and the notices band are
    /// drawn and five more frames have passed (`settled`); else the last state read.
    static func screen(_ state: URL) -> (doc: [String: Any]?, settled: Bool) {
        var seen: (frame: Int, doc: [String: Any])?
        var last: [String: Any]?
        let ok = poll(seconds: 120) {
            guard let doc = readJSON(state) else { return false }
            last = doc
            let names = Set(windows(doc).map { id($0.name) })
            let frame = ((doc["controls"] as? [String: Any])?["focus"] as? [String: Any])?["frame"] as? Int ?? 0
            guard names.isSuperset(of: panels + ["##MainMenuBar", "##notices"]) else { return false }
            if let s = seen, frame >= s.frame + 5 {
                seen = (frame, doc)
                return true
            }
            if seen == nil { seen = (frame, doc) }
            return false
        }
        return ok ? (seen?.doc, true) : (last, false)
    }

    static func save(_ shot: ScreenShot, as name: String) throws {
        guard let dir = ProcessInfo.processInfo.environment["PHYSARUM_UI_SHOTS"], !dir.isEmpty else { return }
        var image = RGBAImage(width: shot.width, height: shot.height)
        for i in 0..<(shot.width * shot.height) {
            image.pixels[4 * i] = shot.rgb[3 * i]
            image.pixels[4 * i + 1] = shot.rgb[3 * i + 1]
            image.pixels[4 * i + 2] = shot.rgb[3 * i + 2]
            image.pixels[4 * i + 3] = 255
        }
        try PNGCodec.write(image, to: URL(fileURLWithPath: dir).appendingPathComponent(name).path)
    }

    @Test(arguments: [1.0, 1.5, 2.0, 3.0])
    func everyPanelOpenAtOnceNothingOverlapsLeavesItsWindowOrExceedsItsBox(scale: Double) throws {
        let display = try #require(PrivateDisplay(width: 1280, height: 720), "Xvfb is needed (scripts/test installs it)")
        defer { withExtendedLifetime(display) {} }
        let home = try Self.home("screen-layout")
        defer { try? FileManager.default.removeItem(at: home) }
        let state = home.appendingPathComponent("state.json")
        let app = try AppProcess(["--no-audio", "--no-midi", "--agents", "5000", "--field", "320x180", "--size", "1280x720",
                                  "--ui-scale", String(scale), "--state-file", state.path, "--state-interval", "0.2"] + AppProcess.walkArgumentsUnderSanitizer,
                                 environment: ["DISPLAY": display.display, "XDG_STATE_HOME": home.path, "XDG_CACHE_HOME": home.path,
                                               "XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path])
        defer { app.stop() }
        let (seen, settled) = Self.screen(state)
        let doc = try #require(seen, "the app reports its screen: \(app.stderr)")
        let drawn = Self.windows(doc).map { Self.id($0.name) }
        #expect(settled, "every panel, the menu bar and the notices band are drawn: \(drawn)")
        let items = (doc["layout"] as? [String: Any])?["items"] as? [[String: Any]] ?? []
        #expect(items.filter { $0["visible"] as? Bool == true }.count > 15, "the report covers the screen's items")
        let texts = items.filter { !($0["text"] as? String ?? "").isEmpty }
        #expect(texts.count > 15, "and their texts")
        let faults = Self.faults(doc)
        let listed = faults.prefix(25).joined(separator: "\n")
        #expect(faults.isEmpty, "at \(scale)×, \(faults.count) faults:\n\(listed)")
        try Self.save(try ScreenShot.take(display: display.display), as: "ui-\(scale)x.png")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }
}
