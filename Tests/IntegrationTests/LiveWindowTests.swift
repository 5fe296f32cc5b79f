import Foundation
import LiveCore
import Testing
import TestSupport

/// The real `physarum` window under Xvfb (software GL).
@Suite(.serialized) struct LiveWindowTests {
    @Test func noDisplayPrintsOneLineAndExits1() throws {
        let app = try AppProcess(["--no-session", "--no-audio"],
                                 environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil])
        let status = try #require(app.wait(seconds: 20), "it must exit by itself")
        #expect(status == 1)
        let lines = app.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(app.stderr)")
        #expect(lines.first?.contains("no display") == true)
        #expect(app.stdout.isEmpty)
    }

    @Test func badOptionIsAUsageError() throws {
        let app = try AppProcess(["--fullscreen", "--display", "banana"])
        #expect(app.wait(seconds: 20) == 2)
        #expect(app.stderr.contains("--display"))
    }

    /// Values of the state file's params object.
    static func stateParams(_ url: URL) -> [String: Any]? {
        guard let d = try? Data(contentsOf: url),
              let o = try? JSONSerialization.jsonObject(with: d) as? [String: Any] else { return nil }
        return o["params"] as? [String: Any]
    }

    static func xdotool(_ args: [String], display: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        p.arguments = args
        p.environment = ["DISPLAY": display]
        try p.run()
        p.waitUntilExit()
    }

    @Test func editsSurviveKill9() throws {
        let home = try WindowTestHome("session", ownDisplay: true)
        let display = home.display
        let state = home.file("state.json")
        let env = home.environment()
        let args = ["--no-audio", "--agents", "20000", "--state-file", state.path, "--size", "1200x700"]
        let first = try AppProcess(args, environment: env)
        #expect(poll(seconds: 60) { Self.stateParams(state) != nil }, "the app writes its state: \(first.stderr)")
        let before = try #require(Self.stateParams(state))
        // A real key press in the window: M mutates the look.
        try Self.xdotool(["mousemove", "1100", "600"], display: display)
        var edited: [String: Any]?
        #expect(poll(seconds: 30) {
            try? Self.xdotool(["key", "m"], display: display)
            edited = Self.stateParams(state)
            return edited.map { !NSDictionary(dictionary: $0).isEqual(to: before) } ?? false
        }, "pressing M changed the parameters")
        let editedParams = try #require(edited)
        let sessionFile = home.file("physarum/session.json")
        #expect(poll(seconds: 10) {
            guard let d = try? Data(contentsOf: sessionFile),
                  let o = try? JSONSerialization.jsonObject(with: d) as? [String: Any],
                  let p = o["params"] as? [String: Any] else { return false }
            return NSDictionary(dictionary: p).isEqual(to: Self.stateParams(state) ?? [:])
        }, "the session autosaves the edit")
        let latest = try #require(Self.stateParams(state))
        first.signal(SIGKILL)
        first.wait(seconds: 10)
        try? FileManager.default.removeItem(at: state)

        let second = try AppProcess(args, environment: env)
        defer { second.stop() }
        #expect(poll(seconds: 60) { Self.stateParams(state) != nil })
        let restored = try #require(Self.stateParams(state))
        #expect(NSDictionary(dictionary: restored).isEqual(to: latest), "the restarted app shows the edit")
        #expect(!NSDictionary(dictionary: restored).isEqual(to: before))
        _ = editedParams
        second.signal(SIGTERM)
        #expect(second.wait(seconds: 30) == 0, "SIGTERM is a quit: exit 0")
    }

    /// Pixels of the default theme's title-bar colours (focused or not: the
    /// editor panel's title) in the top left, where the editor's title bar
    /// is: under the menu bar, and under the notices band while it shows
    /// (the band pushes the panels down).
    static func panelPixels(_ shot: ScreenShot) -> Int {
        let s = UITheme.standard.surface
        let titles = [s.title, s.titleActive].map { c in [c.r, c.g, c.b].map { Int(($0 * 255).rounded()) } }
        var n = 0
        for y in 0..<240 {
            for x in 12..<440 {
                let i = (y * shot.width + x) * 3
                let px = [Int(shot.rgb[i]), Int(shot.rgb[i + 1]), Int(shot.rgb[i + 2])]
                if titles.contains(where: { t in zip(t, px).allSatisfy { abs($0 - $1) <= 1 } }) { n += 1 }
            }
        }
        return n
    }

    /// SDL sees one display under Xvfb (Xinerama heads and RandR monitors are
    /// not reported as displays), so asking for the projector on display 1
    /// is asking for the editor's own display: the projector opens as a
    /// window in the bottom-right quarter, says so, and the editor stays in view.
    @Test func projectorOnTheEditorsDisplayDoesNotCoverIt() throws {
        let home = try WindowTestHome("output")
        let display = home.display
        let env = home.environment()
        let stats = home.file("stats.jsonl")
        func run(_ extra: [String]) throws -> (ScreenShot, String, String) {
            try? FileManager.default.removeItem(at: stats)
            let app = try AppProcess(["--no-session", "--no-audio", "--agents", "20000", "--size", "1280x720",
                                      "--stats", stats.path] + extra, environment: env)
            defer { app.stop() }
            // Two stats lines: the loop has been presenting for over a second.
            #expect(poll(seconds: 60) { ((try? String(contentsOf: stats, encoding: .utf8)) ?? "").split(separator: "\n").count >= 2 },
                    "the app runs: \(app.stderr)")
            // The editor's panel, once on screen (a busy machine may show a frame or two without it yet).
            var shot = try ScreenShot.take(display: display)
            _ = poll(seconds: 30, every: 0.25) {
                if Self.panelPixels(shot) > 1000 { return true }
                shot = (try? ScreenShot.take(display: display)) ?? shot
                return false
            }
            let found = try PhysarumProcess.run(tool: "/usr/bin/xdotool", ["search", "--name", "Physarum Live.*output", "getwindowgeometry"],
                                                environment: ["DISPLAY": display])
            app.signal(SIGTERM)
            #expect(app.wait(seconds: 30) == 0)
            return (shot, app.stderr, found.stdout)
        }
        let (editorOnly, _, none) = try run([])
        #expect(!none.contains("Geometry"), "no projector window unless asked: \(none)")
        let (withOutput, stderr, geometry) = try run(["--output-display", "0"])
        #expect(Self.panelPixels(editorOnly) > 1000, "the editor shows its panel title bar")
        #expect(Self.panelPixels(withOutput) > 1000, "the editor is not covered by the projector")
        #expect(stderr.components(separatedBy: "the projector opens as a window").count == 2, "said once: \(stderr)")
        let shot = ScreenShot(width: withOutput.width, height: withOutput.height, rgb: [UInt8](repeating: 0, count: withOutput.rgb.count))
        #expect(geometry.contains("Position: 640,360") && geometry.contains("Geometry: 640x360"), "the bottom-right quarter: \(geometry)")
        #expect(withOutput.fractionDiffering(from: shot, x0: 640, y0: 360, x1: withOutput.width, y1: withOutput.height) > 0.3,
                "the projector window shows the simulation")
    }
}
