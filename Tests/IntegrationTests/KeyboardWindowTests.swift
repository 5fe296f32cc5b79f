import AppTestSupport
import Foundation
import TestSupport
import Testing

/// The editor and the audio panel driven by the keyboard alone through the
/// real window: Xvfb, key presses sent with xdotool, the focus read back from
/// the state file (`controls.focus`: the control, its panel, its rectangle,
/// the frame). Each key waits until the window drew a few frames after it,
/// so the walk does not depend on the machine's speed. A private display, so
/// other window tests cannot take the key presses.
@Suite(.serialized) struct KeyboardWindowTests {
    final class Window {
        let display: PrivateDisplay
        let app: AppProcess
        let state: URL
        let home: URL

        /// `prepare` gets the home folder (XDG config, data, state) before the app starts.
        init(extra: [String] = [], environment more: [String: String] = [:], prepare: (URL) throws -> Void = { _ in }) throws {
            display = try #require(PrivateDisplay(width: 1280, height: 720), "Xvfb is needed (scripts/test installs it)")
            home = makeTempDir("keyboard-window")
            try prepare(home)
            state = home.appendingPathComponent("state.json")
            // A small field and few agents: the picture is not the point, and frames come quicker.
            // No governor: on a busy machine its notice would arrive mid-walk, and the notices
            // band pushes the panels down under the walk (and into the spoken notices' order).
            app = try AppProcess(["--no-audio", "--no-session", "--no-governor", "--size", "1280x720", "--field", "320x180", "--agents", "5000",
                                  "--state-file", state.path, "--state-interval", "0.05"] + extra + AppProcess.walkArgumentsUnderSanitizer,
                                 environment: ["DISPLAY": display.display, "XDG_STATE_HOME": home.path, "XDG_CONFIG_HOME": home.path,
                                               "XDG_DATA_HOME": home.path, "XDG_CACHE_HOME": home.path].merging(more) { $1 })
            _ = poll(seconds: 90) { self.frame > 2 }
            // Keys go to the window under the pointer (no window manager): a spot clear of every panel.
            try LiveWindowTests.xdotool(["mousemove", "1270", "710"], display: display.display)
        }

        deinit {
            app.stop()
            try? FileManager.default.removeItem(at: home)
        }

        var doc: [String: Any]? { readJSON(state) }
        var controls: [String: Any]? { doc?["controls"] as? [String: Any] }
        var focus: [String: Any]? { controls?["focus"] as? [String: Any] }
        var frame: Int { focus?["frame"] as? Int ?? -1 }
        var focused: String? { focus?["control"] as? String }
        var focusRect: [Double]? { (focus?["shown"] as? Bool) == true ? focus?["rect"] as? [Double] : nil }
        var params: [String: Any] { doc?["params"] as? [String: Any] ?? [:] }

        /// Taps `key` and waits until the window surely drew frames after it:
        /// the state file is up to one interval old, so the frame it shows right
        /// after the tap may predate the key; six frames past it do not.
        /// Key presses the window has taken (its state's `focus.keys`).
        var keys: Int { focus?["keys"] as? Int ?? -1 }
        /// Sends a key, waits until the window has taken it (a state written
        /// after the poll that saw it: on a busy machine the state file lags
        /// the frames), then six frames more for the UI to act on it.
        func press(_ key: String) {
            let k = keys
            try? LiveWindowTests.xdotool(["key", key], display: display.display)
            _ = poll(seconds: 30) { self.keys > k }
            let downs = key.split(separator: "+").count  // a chord: each key goes down once
            if keys > k + downs { print("keyboard walk: \(key) tapped once, the window took \(keys - k) key downs") }
            let f = frame
            _ = poll(seconds: 30) { self.frame >= f + 6 }
        }

        /// The walk's moves, for a failure's message.
        var trace: [String] = []

        func walk(isOpen: @escaping (String) -> Bool) -> Set<String> {
            KeyboardWalk(press: { move in
                switch move {
                case .up: self.press("Up")
                case .down: self.press("Down")
                case .left: self.press("Left")
                case .right: self.press("Right")
                case .space: self.press("space")
                }
            }, rect: { self.focusRect }, focused: { self.focused }, isOpen: isOpen).run { self.trace.append($0) }
        }
    }

    @Test func everyEditorAndAudioPanelControlIsReachedByKeysSentToTheWindow() throws {
        let w = try Window()
        #expect(w.frame > 2, "the window runs: \(w.app.stderr)")
        // Ctrl+Tab gives the Parameters panel the focus.
        for _ in 0..<4 where (w.focus?["panel"] as? String) != "Parameters" { w.press("ctrl+Tab") }
        #expect(w.focus?["panel"] as? String == "Parameters")
        let editorReached = w.walk { header in
            header != "header:Matrix" || ((w.controls?["editorControls"] as? [String]) ?? []).contains { $0.hasPrefix("slider:matrix") }
        }
        let editorControls = Set(((w.controls?["editorControls"] as? [String]) ?? []).filter { k in
            ["slider:", "lock:", "help:", "choice:", "color:", "button:", "combo:", "header:", "tab:"].contains { k.hasPrefix($0) }
        })
        let missed = editorControls.subtracting(editorReached).sorted()
        #expect(missed.isEmpty, "editor controls not reached by keys: \(missed); the walk's first moves: \(w.trace.prefix(60))")
        #expect(editorControls.count > 100, "\(editorControls.count)")

        // A opens the audio panel, which takes the focus.
        w.press("a")
        for _ in 0..<4 where (w.focus?["panel"] as? String) != "Audio" { w.press("Down") }
        #expect(w.focus?["panel"] as? String == "Audio")
        let audioReached = w.walk { _ in true }
        let panel = ((w.doc?["audio"] as? [String: Any])?["panel"] as? [String: Any]) ?? [:]
        let shown = ["window", "spectrum", "captureStatus", "captureSource", "latency", "editing", "beatLight", "tempo"]  // pictures and text lines
        let audioControls = Set(panel.keys.filter { k in
            // A route's "Depth" is a reset label (text), like the `label:` ones.
            !shown.contains(k) && !k.hasPrefix("label:") && !k.hasPrefix("meter:") && !k.hasSuffix("activity") && !k.hasSuffix("depthLabel")
        })
        let audioMissed = audioControls.subtracting(audioReached)
        #expect(audioMissed.isEmpty, "audio controls not reached: \(audioMissed.sorted())")
        #expect(audioControls.contains { $0.hasPrefix("config:") }, "the shipped configs are listed: \(audioControls.sorted())")
        #expect(audioControls.count > 10, "\(audioControls.sorted())")
    }

    @Test func arrowsStepAFocusedSliderAndEscClosesAHelpPopover() throws {
        let w = try Window()
        for _ in 0..<4 where (w.focus?["panel"] as? String) != "Parameters" { w.press("ctrl+Tab") }
        for _ in 0..<40 where w.focused != "slider:global.exposure" { w.press("Down") }
        #expect(w.focused == "slider:global.exposure")
        let before = try #require(w.params["global.exposure"] as? Double)
        w.press("Right")
        #expect(w.params["global.exposure"] as? Double == before, "moving past a slider does not change it")
        for _ in 0..<10 where w.focused != "slider:global.exposure" { w.press("Left") }
        w.press("space")
        w.press("Right")
        w.press("Right")
        let after = try #require(w.params["global.exposure"] as? Double)
        #expect(after > before, "Space then Right steps the value: \(before) → \(after)")
        w.press("Escape")
        #expect(w.focused == "slider:global.exposure", "the focus stayed")
        w.press("Right")
        #expect(w.focused == "help:global.exposure")
        w.press("space")
        let openHelp = { (w.controls?["openHelp"] as? String) }
        #expect(poll(seconds: 10) { openHelp() == "global.exposure" }, "Space opens the help popover: \(String(describing: w.controls?["openHelp"]))")
        w.press("Escape")
        #expect(poll(seconds: 10) { openHelp() == nil }, "Esc closes it")
    }

    /// Alt (a tap) and F10 take the focus to the menu bar (not the panel's
    /// title bar); again, back to the panel. Ctrl+Tab, sent as one quick
    /// chord, moves to the next open panel on its first control and never
    /// leaves a text field taking keys (it did: the library's search field).
    @Test func altAndF10GoToTheMenuBarCtrlTabCyclesPanelsActivatingNothing() throws {
        let w = try Window(extra: ["--library-panel", "--audio-panel", "--set-list-panel"])
        #expect(w.frame > 2, "the window runs: \(w.app.stderr)")
        var typing: Bool { w.focus?["typing"] as? Bool ?? true }
        var panel: String? { w.focus?["panel"] as? String }
        w.press("alt")
        #expect(panel == "##MainMenuBar" && w.focused == "menu:View", "Alt: \(String(describing: w.focus))")
        w.press("Right")
        #expect(w.focused == "menu:Output", "Right: the next menu")
        w.press("alt")
        #expect(panel != "##MainMenuBar", "Alt again leaves the menu bar: \(String(describing: panel))")
        w.press("F10")
        #expect(panel == "##MainMenuBar" && w.focused == "menu:View", "F10: \(String(describing: w.focus))")
        var visited: [String] = []
        for _ in 0..<5 {
            w.press("ctrl+Tab")
            visited.append(panel ?? "")
            #expect(!typing, "after Ctrl+Tab into \(visited.last!) no text field takes keys")
            #expect(w.focused != nil, "a control of \(visited.last!) has the focus")
        }
        #expect(visited == ["Parameters", "Audio", "Set list", "Library", "Parameters"], "in screen order, round: \(visited)")
        w.press("ctrl+shift+Tab")
        #expect(panel == "Library", "Ctrl+Shift+Tab goes back")
    }
}
