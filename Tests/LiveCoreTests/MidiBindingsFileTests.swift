import Engine
import Foundation
import TestSupport
import Testing
@testable import LiveCore

/// The bindings file: a round trip, strict errors with line and reason, and
/// a broken file that the model never writes over.
@Suite struct MidiBindingsFileTests {
    static let sample: [MidiBinding] = [
        MidiBinding(control: MidiControl(.cc, channel: 0, number: 21), target: .param(.exposure)),
        MidiBinding(control: MidiControl(.cc14, channel: 3, number: 7), target: .routeDepth(1), low: 0.25, high: 0.75),
        MidiBinding(control: MidiControl(.note, channel: 9, number: 36), target: .trigger(.blackout)),
        MidiBinding(control: MidiControl(.pitchBend, channel: 1), target: .morph),
        MidiBinding(control: MidiControl(.cc, channel: 15, number: 64), target: .trigger(.slot(23)), mode: .toggle),
    ]

    @Test func bindingsRoundTripThroughTheFile() throws {
        let text = MidiBindingsFile.text(Self.sample)
        #expect(try MidiBindingsFile.decode(Data(text.utf8), file: "b.json") == Self.sample)
    }

    @Test(arguments: [
        ("{\"format\": 1, \"bindings\": [\n {\"control\": {\"type\": \"cc\", \"channel\": 17, \"number\": 1}, \"target\": \"tap\"}]}", "b.json:2:", "channel"),
        ("{\"format\": 1, \"bindings\": [\n {\"control\": {\"type\": \"cc\", \"channel\": 1, \"number\": 1},\n  \"target\": \"warp\"}]}", "b.json:3:", "unknown target 'warp'"),
        ("{\"format\": 1, \"bindings\": [\n {\"control\": {\"type\": \"knob\", \"channel\": 1}, \"target\": \"tap\"}]}", "b.json:2:", "type"),
        ("{\"format\": 1, \"bindings\": [\n {\"control\": {\"type\": \"cc14\", \"channel\": 1, \"number\": 40}, \"target\": \"tap\"}]}", "b.json:2:", "MSB"),
        ("{\"format\": 1, \"bindings\": [,]}", "b.json:1:", "unexpected ','"),
    ])
    func badFilesNameTheLineAndTheReason(text: String, place: String, reason: String) {
        #expect(throws: RuntimeFailure.self) { try MidiBindingsFile.decode(Data(text.utf8), file: "b.json") }
        do {
            _ = try MidiBindingsFile.decode(Data(text.utf8), file: "b.json")
        } catch {
            #expect("\(error)".hasPrefix(place), "\(error)")
            #expect("\(error)".contains(reason), "\(error)")
        }
    }

    @Test func aBrokenFileIsNeverWrittenOver() {
        var m = AppModel(library: LibraryModel(factory: testFactory))
        m.run(.control(.bindingsLoaded([], problem: "MIDI bindings not loaded: b.json:2:3: bindings[0]: bad")))
        #expect(m.notices.history.last?.level == .error)
        let effects = m.run(.control(.bind(Self.sample[0])))
        #expect(!effects.contains { if case .control(.saveBindings) = $0 { true } else { false } }, "no save over the broken file")
        #expect(m.control.bindings == [Self.sample[0]], "the binding works in memory")
        #expect(m.notices.history.last?.text.contains("not saved") == true)
        // With a good file, the same bind saves.
        var ok = AppModel(library: LibraryModel(factory: testFactory))
        #expect(ok.run(.control(.bind(Self.sample[0]))).contains(.control(.saveBindings([Self.sample[0]], templates: []))))
    }
}
