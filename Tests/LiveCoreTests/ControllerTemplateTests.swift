import Engine
import Foundation
import TestSupport
import Testing
@testable import LiveCore

/// The shipped controller templates (configs/controllers): they read
/// strictly, name real targets, are chosen by the port names those
/// controllers show on ALSA and JACK, drive their targets through the
/// bindings, and a controller that connects gets every bound value in the
/// very next feedback.
@Suite struct ControllerTemplateTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("configs/controllers")

    static func shipped() throws -> [ControllerTemplate] {
        let loaded = ControllerTemplateFile.load(from: folder)
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        return loaded.templates
    }

    /// Port names each model shows: ALSA through RtMidi, JACK through a2jmidid, and a JACK client of that name.
    static let ports: [String: [String]] = [
        "akai-apc-mini": ["APC MINI:APC MINI MIDI 1 20:0", "a2j:APC MINI [20] (capture): APC MINI MIDI 1", "APC MINI:out"],
        "akai-apc40-mk2": ["APC40 mkII:APC40 mkII MIDI 1 24:0", "a2j:APC40 mkII [24] (capture): APC40 mkII MIDI 1", "APC40 mkII:out"],
        "novation-launch-control-xl": ["Launch Control XL:Launch Control XL MIDI 1 28:0", "Launch Control XL:out"],
        "djtt-midi-fighter-twister": ["Midi Fighter Twister:Midi Fighter Twister MIDI 1 32:0", "Midi Fighter Twister:out"],
        "korg-nanokontrol2": ["nanoKONTROL2:nanoKONTROL2 MIDI 1 36:0", "a2j:nanoKONTROL2 [36] (capture): nanoKONTROL2 SLIDER/KNOB"],
    ]

    @Test func everyShippedTemplateReadsAndIsChosenByItsPortNames() throws {
        let templates = try Self.shipped()
        #expect(Set(templates.map(\.id)) == Set(Self.ports.keys), "the five documented controllers")
        for t in templates {
            #expect(!t.bindings.isEmpty)
            #expect(Set(t.bindings.map(\.control)).count == t.bindings.count, "\(t.id): a control bound twice")
            for (id, names) in Self.ports {
                for n in names { #expect(t.matches(n) == (id == t.id), "\(t.id) vs port \(n)") }
            }
        }
        let mini = try #require(templates.first { $0.id == "akai-apc-mini" })
        #expect(!mini.matches("APC mini mk2:APC mini mk2 Control 20:0"), "the mk2 has another layout")
        #expect(!templates.contains { $0.matches("Physarum Live:out") || $0.matches("Midi Through:Midi Through Port-0 14:0") })
    }

    @Test func aConnectedControllerDrivesItsTargetsAndGetsEveryValueNext() throws {
        var m = AppModel(library: LibraryModel(factory: testFactory))
        let templates = try Self.shipped()
        m.run(.control(.templatesLoaded(templates, problems: [])))
        #expect(m.control.active.isEmpty)
        m.run(.control(.portsConnected(["nanoKONTROL2:nanoKONTROL2 MIDI 1 36:0"])))
        #expect(m.control.activeTemplates.map(\.id) == ["korg-nanokontrol2"])
        #expect(m.notices.history.last?.text.contains("Korg nanoKONTROL2 template in use") == true)
        var mapper = MidiMapper()
        // Fader 1 (CC 0) is exposure: down to 0 then up passes the value (soft takeover), then it follows.
        for v in [0, 127] { for a in mapper.handle(.controlChange(channel: 0, controller: 0, value: v), model: m) { m.run(a) } }
        #expect(m.base[.exposure] == ParamKey.exposure.spec.max)
        // Play is set list go; track ▶ is next preset.
        let before = m.currentPreset?.id
        for v in [127, 0] { for a in mapper.handle(.controlChange(channel: 0, controller: 59, value: v), model: m) { m.run(a) } }
        #expect(m.currentPreset?.id != before)
        // A learned binding of the same control wins over the template's.
        m.run(.control(.bind(MidiBinding(control: MidiControl(.cc, channel: 0, number: 0), target: .param(.vignette)))))
        #expect(m.control.active.first { $0.control == MidiControl(.cc, channel: 0, number: 0) }?.target == .param(.vignette))
        // Connected: the next feedback sends every bound control that has a value.
        mapper.forgetSent()
        let sent = Set(mapper.feedback(model: m).map(Self.control))
        let withValue = Set(m.control.active.filter { $0.target.value01(in: m) != nil }.map(\.control))
        #expect(!withValue.isEmpty && withValue.isSubset(of: sent), "missing: \(withValue.subtracting(sent))")
        // Unplugged: the template goes with it.
        m.run(.control(.portsConnected([])))
        #expect(m.control.activeTemplates.isEmpty)
    }

    @Test func aTemplateChosenByHandIsKeptInTheBindingsFile() throws {
        var m = AppModel(library: LibraryModel(factory: testFactory))
        m.run(.control(.templatesLoaded(try Self.shipped(), problems: [])))
        let effects = m.run(.control(.chooseTemplate("akai-apc-mini", true)))
        #expect(effects.contains(.control(.saveBindings([], templates: ["akai-apc-mini"]))))
        #expect(m.control.activeTemplates.map(\.id) == ["akai-apc-mini"], "in use with no port of that name")
        let text = MidiBindingsFile.text([], templates: ["akai-apc-mini"])
        #expect(try MidiBindingsFile.decodeMapping(Data(text.utf8), file: "b.json").templates == ["akai-apc-mini"])
        // Pad lights: the loaded slot's pad gets the template's "on" velocity (green, 1), the others "off".
        let pad = try #require(m.control.active.first { $0.target == .trigger(.slot(0)) })
        #expect(pad.onValue == 1 && pad.offValue == 0)
    }

    /// The control a feedback message addresses (a note-on of velocity 0 reads as a note-off).
    static func control(_ m: MidiMessage) -> MidiControl {
        switch m {
        case .controlChange(let ch, let cc, _): MidiControl(.cc, channel: ch, number: cc)
        case .noteOn(let ch, let n, _), .noteOff(let ch, let n): MidiControl(.note, channel: ch, number: n)
        case .pitchBend(let ch, _): MidiControl(.pitchBend, channel: ch)
        default: MidiControl(.cc, channel: 99)
        }
    }
}
