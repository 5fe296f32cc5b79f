import Engine
import Foundation
import LiveCore
import Testing
@testable import LiveApp
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

// One after another with the other suites that open JACK clients here (JackClientSuites).
extension JackClientSuites {
/// Each supported controller, as a virtual controller on a private JACK
/// server named like the model, plugged into the real window one after
/// the other: it gets its template at connect, its documented controls
/// drive the documented targets, and it receives every bound value.
@Suite(.serialized) struct ControllerTemplateWindowTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let models: [(id: String, client: String)] = [
        ("akai-apc-mini", "APC MINI"), ("akai-apc40-mk2", "APC40 mkII"), ("novation-launch-control-xl", "Launch Control XL"),
        ("djtt-midi-fighter-twister", "Midi Fighter Twister"), ("korg-nanokontrol2", "nanoKONTROL2"),
    ]

    /// The control a message addresses (a note-on of velocity 0 reads as a note-off).
    static func control(_ m: MidiMessage) -> MidiControl? {
        switch m {
        case .controlChange(let ch, let cc, _): MidiControl(.cc, channel: ch, number: cc)
        case .noteOn(let ch, let n, _), .noteOff(let ch, let n): MidiControl(.note, channel: ch, number: n)
        default: nil
        }
    }

    @Test(.enabled(if: JackServer.available, "jackd2 is needed (scripts/test installs it)"))
    func eachControllerGetsItsTemplateDrivesItsTargetsAndGetsEveryValue() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let fx = try RemoteFixture()
        try FileManager.default.copyItem(at: Self.repo.appendingPathComponent("configs/controllers"),
                                         to: fx.dir.appendingPathComponent("configs/controllers"))
        for (k, v) in jack.environment { fx.env[k] = v }
        fx.env["DISPLAY"] = try #require(TestDisplay.display, "Xvfb is needed")
        let state = fx.file("templates.json")
        let app = try AppProcess(["--no-session", "--no-audio", "--preset", "alpha", "--size", "640x360", "--field", "160x90",
                                  "--agents", "5000", "--state-file", state.path, "--state-interval", "0.1"], environment: fx.env)
        defer { app.stop() }
        var live: [String: Any]? { readJSON(state)?["liveControl"] as? [String: Any] }
        var midi: [String: Any]? { live?["midi"] as? [String: Any] }
        func param(_ id: String) -> Double { ((readJSON(state)?["params"] as? [String: Any])?[id] as? NSNumber)?.doubleValue ?? .nan }
        #expect(poll(seconds: 90) { (midi?["status"] as? String)?.hasPrefix("MIDI on JACK") == true }, "\(app.stderr)")
        #expect(poll(seconds: 30) { (midi?["templatesAvailable"] as? [String])?.count == 5 }, "\(String(describing: midi))")
        let templates = ControllerTemplateFile.load(from: Self.repo.appendingPathComponent("configs/controllers")).templates
        for model in Self.models {
            let t = try #require(templates.first { $0.id == model.id })
            let routeCount = (live?["routeDepths"] as? [Any])?.count ?? 0
            // The bound controls whose targets have a value here (the loaded preset's parameters, routes that exist, switches, slots, set list).
            let valued = Set(t.bindings.filter { b in
                switch b.target {
                case .param, .trigger(.blackout), .trigger(.cycle), .trigger(.link), .trigger(.slot), .trigger(.setList(.go)), .trigger(.setList(.hold)): true
                case .routeDepth(let i): i < routeCount
                default: false
                }
            }.map(\.control))
            let plugged = ContinuousClock.now
            let pad = try JackMidiClient(name: model.client, server: jack.name)
            #expect(poll(seconds: 30) { (midi?["templates"] as? [String]) == [model.id] }, "\(model.client): \(String(describing: midi?["templates"]))")
            var got = Set<MidiControl>()
            var buf = [UInt8](repeating: 0, count: 256)
            let all = poll(seconds: 30) {
                while let n = pad.next(into: &buf) { if let m = MidiMessage(bytes: buf[0..<n]), let c = Self.control(m) { got.insert(c) } }
                return valued.isSubset(of: got)
            }
            let took = (ContinuousClock.now - plugged) / .seconds(1)
            #expect(all, "\(model.client) is sent every bound value; missing \(valued.subtracting(got).map(\.label))")
            print(String(format: "%@: template in use, %d bound values received %.2f s after plugging in", model.client, valued.count, took))
            // Every knob and fader on a parameter: down, then all the way up (soft takeover picks it up on the way).
            let params = t.bindings.compactMap { b -> (MidiBinding, ParamKey)? in if case .param(let k) = b.target, b.mode == .absolute { (b, k) } else { nil } }
            for (b, _) in params {
                pad.send(MidiMessage.controlChange(channel: b.control.channel, controller: b.control.number, value: 0).bytes)
                pad.send(MidiMessage.controlChange(channel: b.control.channel, controller: b.control.number, value: 127).bytes)
            }
            #expect(poll(seconds: 30) { params.allSatisfy { abs(param($0.1.id) - $0.1.spec.max) < 1e-6 } },
                    "\(model.client): \(params.filter { abs(param($0.1.id) - $0.1.spec.max) >= 1e-6 }.map(\.1.id))")
            // Its next-preset control, or (a template without one) its blackout switch.
            let blackoutBefore = live?["blackout"] as? Bool
            let trigger = try #require(t.bindings.first { $0.target == .trigger(.next) } ?? t.bindings.first { $0.target == .trigger(.blackout) },
                                       "\(model.client): a next-preset or blackout control")
            let before = readJSON(state)?["preset"] as? String
            switch trigger.control.kind {
            case .note:
                pad.send(MidiMessage.noteOn(channel: trigger.control.channel, note: trigger.control.number, velocity: 127).bytes)
                pad.send(MidiMessage.noteOff(channel: trigger.control.channel, note: trigger.control.number).bytes)
            default:
                pad.send(MidiMessage.controlChange(channel: trigger.control.channel, controller: trigger.control.number, value: 127).bytes)
                pad.send(MidiMessage.controlChange(channel: trigger.control.channel, controller: trigger.control.number, value: 0).bytes)
            }
            if trigger.target == .trigger(.next) {
                #expect(poll(seconds: 30) { (readJSON(state)?["preset"] as? String) != before }, "\(model.client): next preset")
            } else {
                #expect(poll(seconds: 30) { (live?["blackout"] as? Bool) != blackoutBefore }, "\(model.client): blackout")
                if live?["blackout"] as? Bool == true { pad.send(trigger.control.kind == .note
                    ? MidiMessage.noteOn(channel: trigger.control.channel, note: trigger.control.number, velocity: 127).bytes
                    : MidiMessage.controlChange(channel: trigger.control.channel, controller: trigger.control.number, value: 127).bytes) }
            }
            // Unplugged: the template goes with it.
            _ = pad
        }
        #expect(poll(seconds: 30) { (midi?["templates"] as? [String]) == [] }, "all unplugged: \(String(describing: midi?["templates"]))")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }
}
}  // extension JackClientSuites
