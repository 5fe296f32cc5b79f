import Foundation
import Synchronization
import Engine
import LiveCore
import Testing
@testable import LiveApp
import TestSupport

// One after another with the other suites that open JACK clients here (JackClientSuites).
extension JackClientSuites {
/// MIDI through a real JACK server (dummy backend: CI has no ALSA
/// sequencer, /dev/snd/seq) and the real window under Xvfb. The virtual
/// controller is a JACK client of that server in this test process (the
/// app's own `JackMidiClient`: ports "<name>:out" and "<name>:in"); its
/// ports appear after the window started, so every test also shows a
/// controller being picked up while the app runs.
@Suite(.serialized) struct MidiControlTests {
    /// A controller: an output the app listens to, an input for the app's feedback.
    final class Controller {
        let client: JackMidiClient
        var out: JackMidiClient { client }
        init(_ name: String, on jack: JackServer) throws { client = try JackMidiClient(name: name, server: jack.name) }
        func send(_ m: MidiMessage...) { for x in m { client.send(x.bytes) } }
        /// Messages received so far.
        func received() -> [MidiMessage] {
            var buf = [UInt8](repeating: 0, count: 256)
            var got: [MidiMessage] = []
            while let n = client.next(into: &buf) { if let m = MidiMessage(bytes: buf[0..<n]) { got.append(m) } }
            return got
        }
    }

    static func cc(_ n: Int, _ v: Int) -> MidiMessage { .controlChange(channel: 0, controller: n, value: v) }

    @Test func learnTakeoverEncodersFourteenBitFeedbackAndHotPlug() throws {
        try #require(JackServer.available && OSCTools.available, "jackd2 and liblo-tools are needed (scripts/test installs them)")
        let jack = try JackServer()
        defer { jack.stop() }
        let fx = try RemoteFixture()
        for (k, v) in jack.environment { fx.env[k] = v }
        // A relative encoder bound in the bindings file (read at start, like after a restart).
        let folder = fx.dir.appendingPathComponent("physarum")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try MidiBindingsFile.save([MidiBinding(control: MidiControl(.cc, channel: 0, number: 16), target: .param(.saturation), mode: .relative)],
                                  to: folder.appendingPathComponent("midi-bindings.json"))
        let display = try #require(TestDisplay.display, "Xvfb is needed")
        fx.env["DISPLAY"] = display
        let state = fx.file("midi-window.json")
        let app = try AppProcess(["--no-session", "--no-audio", "--preset", "alpha", "--size", "800x600", "--field", "320x180",
                                  "--agents", "20000", "--osc-in", "0", "--state-file", state.path], environment: fx.env)
        defer { app.stop() }
        var live: [String: Any]? { readJSON(state)?["liveControl"] as? [String: Any] }
        var midi: [String: Any]? { live?["midi"] as? [String: Any] }
        func param(_ id: String) -> Double { ((readJSON(state)?["params"] as? [String: Any])?[id] as? NSNumber)?.doubleValue ?? .nan }
        #expect(poll(seconds: 90) { (midi?["status"] as? String)?.contains("JACK") == true }, "MIDI on JACK: \(app.stderr)")
        let port = try #require((live?["osc"] as? [String: Any])?["inPort"] as? Int)

        // The controller appears after the start: the app connects to it within its scan.
        let pad = try Controller("Test Controller", on: jack)
        #expect(poll(seconds: 30) { (midi?["inputs"] as? [String])?.contains("Test Controller:out") == true }, "picked up: \(String(describing: midi))")
        #expect(poll(seconds: 30) { (midi?["outputs"] as? [String])?.contains("Test Controller:in") == true },
                "feedback goes to the controller's input: \(String(describing: midi))")

        // Learn: arm on the vignette, move a knob.
        let start = param("effects.vignette")
        try OSCTools.send(port: port, "/physarum/learn", "s", "param/effects.vignette")
        #expect(poll(seconds: 30) { midi?["learning"] as? String == "param/effects.vignette" })
        pad.send(Self.cc(7, 127))
        #expect(poll(seconds: 30) { ((midi?["bindings"] as? [[String: Any]])?.contains { $0["target"] as? String == "param/effects.vignette" }) == true },
                "learned: \(app.stderr)")
        // Soft takeover: the knob is far above the value and does not move it …
        pad.send(Self.cc(7, 120))
        #expect(poll(seconds: 5) { (midi?["received"] as? Int ?? 0) >= 2 })
        #expect(param("effects.vignette") == start)
        // … until it passes it; then it follows.
        pad.send(Self.cc(7, 0), Self.cc(7, 100))
        #expect(poll(seconds: 30) { abs(param("effects.vignette") - 100.0 / 127) < 1e-6 }, "follows after takeover")
        // The relative encoder from the bindings file: +3 steps.
        let sat = param("effects.saturation")
        pad.send(Self.cc(16, 1), Self.cc(16, 1), Self.cc(16, 1))
        #expect(poll(seconds: 30) { abs(param("effects.saturation") - (sat + 3 * 2.0 / 127)) < 1e-6 }, "encoder stepped")
        // A 14-bit pair: learn CC 1, then MSB + LSB.
        try OSCTools.send(port: port, "/physarum/learn", "s", "param/effects.bloom")
        pad.send(Self.cc(1, 0))
        #expect(poll(seconds: 30) { ((midi?["bindings"] as? [[String: Any]])?.contains { $0["target"] as? String == "param/effects.bloom" }) == true })
        let bloomSpec = try #require(ParamRegistry.spec(id: "effects.bloom"))
        // Down to 0 and up to the top passes the value (takeover), then the fine position.
        pad.send(Self.cc(1, 0), Self.cc(33, 0), Self.cc(1, 127), Self.cc(33, 127))
        pad.send(Self.cc(1, 90), Self.cc(33, 77))
        let fine = bloomSpec.clamp(bloomSpec.from01(Double(90 * 128 + 77) / 16383))
        #expect(poll(seconds: 30) { abs(param("effects.bloom") - fine) < 1e-6 }, "14-bit value \(fine): \(param("effects.bloom"))")
        #expect(((midi?["bindings"] as? [[String: Any]])?.first { $0["target"] as? String == "param/effects.bloom" }?["control"] as? String) == "CC 1/33 ch 1")
        // Feedback: the vignette changed elsewhere (OSC) comes back on CC 7.
        _ = pad.received()
        try OSCTools.send(port: port, "/physarum/param/effects.vignette", "f", "0.25")
        var fed: [MidiMessage] = []
        #expect(poll(seconds: 30) { fed += pad.received(); return fed.contains(Self.cc(7, 32)) },
                "feedback: \(fed); vignette \(param("effects.vignette")); midi \(String(describing: midi)); jack: \(jack.logTail)")
        // MIDI clock from the controller (Start, then 24 pulses a beat at 128 BPM from a generator
        // thread) becomes the tempo source; the state shows it while the clock runs.
        let clockRunning = Atomic<Bool>(true)
        let clockOut = pad.out
        let generator = Thread {
            clockOut.send(MidiMessage.start.bytes)
            while clockRunning.load(ordering: .relaxed) {
                clockOut.send(MidiMessage.clock.bytes)
                Thread.sleep(forTimeInterval: 60.0 / 128 / 24)  // the clock's own pace, not a wait for the app
            }
        }
        generator.start()
        var tempo: [String: Any]?
        #expect(poll(seconds: 30) {
            tempo = live?["tempo"] as? [String: Any]
            return tempo?["source"] as? String == "midiClock"
        }, "MIDI clock is the tempo source: \(String(describing: tempo))")
        clockRunning.store(false, ordering: .relaxed)
        print("MIDI clock through JACK: \(String(describing: tempo))")
        // A second controller plugged in later is picked up too.
        let second = try Controller("Second Controller", on: jack)
        #expect(poll(seconds: 30) { (midi?["inputs"] as? [String])?.contains("Second Controller:out") == true })
        _ = second
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
        // The learned bindings were saved for the next start.
        let saved = MidiBindingsFile.load(from: folder.appendingPathComponent("midi-bindings.json"))
        #expect(saved.problem == nil)
        #expect(Set(saved.bindings.map(\.target.id)) == ["param/effects.saturation", "param/effects.vignette", "param/effects.bloom"])
    }

    @Test func withNeitherJackNorTheSequencerTheAppStartsWithOneNotice() throws {
        try #require(OSCTools.available)
        let fx = try RemoteFixture()
        fx.env["JACK_DEFAULT_SERVER"] = "physarum-no-such-server"
        let display = try #require(TestDisplay.display, "Xvfb is needed")
        fx.env["DISPLAY"] = display
        let state = fx.file("no-midi.json")
        let app = try AppProcess(["--no-session", "--no-audio", "--size", "800x600", "--field", "320x180", "--agents", "20000",
                                  "--osc-in", "0", "--state-file", state.path], environment: fx.env)
        defer { app.stop() }
        var port: Int?
        #expect(poll(seconds: 90) {
            port = ((readJSON(state)?["liveControl"] as? [String: Any])?["osc"] as? [String: Any])?["inPort"] as? Int
            return port != nil
        })
        let history = (readJSON(state)?["notices"] as? [String: Any])?["history"] as? [[String: Any]] ?? []
        let midiNotices = history.filter { ($0["text"] as? String)?.hasPrefix("MIDI") == true }
        #expect(midiNotices.count == 1, "\(midiNotices)")
        #expect((midiNotices.first?["text"] as? String)?.contains("no JACK server") == true)
        #expect(app.stderr.components(separatedBy: "MIDI off").count == 2, "one line on stderr: \(app.stderr)")
        try OSCTools.send(port: try #require(port), "/physarum/param/effects.vignette", "f", "0.6")
        #expect(poll(seconds: 30) { abs((((readJSON(state)?["params"] as? [String: Any])?["effects.vignette"] as? NSNumber)?.doubleValue ?? 0) - 0.6) < 1e-6 },
                "everything else works")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }
}
}  // extension JackClientSuites
