import Foundation
import TestSupport
import Testing

/// Speech in the real window, driven by keys sent with xdotool and heard
/// through a private speech-dispatcher that writes what it says to a file:
/// the menu bar and a menu item, a section header with its state, a help
/// popover's text, the notices window's rows, in the order they were reached.
@Suite(.serialized) struct SpeechWalkTests {
    @Test func theMenuBarASectionHeaderAPopoverAndTheNoticesWindowAreSpokenInOrder() throws {
        let services = PrivateServices()
        try services.speechDispatcher()
        // A broken MIDI bindings file: an error notice at start, listed in the notices window.
        let w = try KeyboardWindowTests.Window(extra: ["--speak", "--audio-panel", "--notices-window"], environment: services.environment) { home in
            let dir = home.appendingPathComponent("physarum")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data("[1, 2".utf8).write(to: dir.appendingPathComponent("midi-bindings.json"))
        }
        #expect(w.frame > 2, "the window runs: \(w.app.stderr)")
        var panel: String? { w.focus?["panel"] as? String }
        var heard = 0  // lines of the speech file already matched
        /// Waits until a line after the last one matched satisfies `match`; records where.
        func said(_ what: String, _ match: @escaping (String) -> Bool) {
            let from = heard
            let ok = poll(seconds: 20) { services.spoken.dropFirst(from).contains(where: match) }
            #expect(ok, "said \(what) after line \(from): \(services.spoken.suffix(8))")
            if ok, let i = services.spoken.dropFirst(from).firstIndex(where: match) { heard = i + 1 }
        }

        // The menu bar (Alt), a menu opened (Space) and its first item.
        w.press("alt")
        said("the menu bar") { $0 == "Menu bar, View menu" }
        w.press("space")
        said("the first item of View") { $0 == "Fullscreen, F11, off" }
        w.press("Down")
        said("the next item") { $0 == "Panels, Tab, on" }
        w.press("Escape")
        w.press("Escape")

        // A section header of the audio panel, with its state.
        for _ in 0..<4 where panel != "Audio" { w.press("ctrl+Tab") }
        #expect(panel == "Audio")
        for _ in 0..<30 where w.focused != "header:Source" { w.press("Down") }
        #expect(w.focused == "header:Source")
        said("the Source header") { $0.hasSuffix("Source section, expanded") }

        // A help popover's text: the editor's exposure help (Right from its slider, Space).
        for _ in 0..<4 where panel != "Parameters" { w.press("ctrl+Tab") }
        for _ in 0..<40 where w.focused != "slider:global.exposure" { w.press("Down") }
        w.press("Right")
        #expect(w.focused == "help:global.exposure")
        w.press("space")
        said("the popover's text") { $0.hasPrefix("Exposure help: Brightness of the trails") }
        w.press("Escape")

        // The notices window: its rows, newest first, with their level.
        for _ in 0..<4 where panel != "Notices" { w.press("ctrl+Tab") }
        #expect(panel == "Notices")
        said("the window's name as the focus enters it") { $0.hasPrefix("Notices window, ") }
        for _ in 0..<4 where !(w.focused ?? "").hasPrefix("row:") { w.press("Down") }
        said("the newest notice") { $0.contains(", notice 1 of ") }
        w.press("Down")
        said("the one before") { $0.contains(", notice 2 of ") }
        #expect(services.spoken.contains { $0.hasPrefix("Error: MIDI bindings not loaded") && $0.contains(", notice ") },
                "the error is read with its level: \(services.spoken.suffix(4))")
        // PHYSARUM_UI_SHOTS=DIR keeps what was said, as heard (one message a line).
        if let dir = ProcessInfo.processInfo.environment["PHYSARUM_UI_SHOTS"], !dir.isEmpty {
            try services.spoken.joined(separator: "\n").write(toFile: dir + "/speech-walk.txt", atomically: true, encoding: .utf8)
        }
    }
}
