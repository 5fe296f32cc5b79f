import Engine
import TestSupport
import Testing
@testable import LiveCore

/// MIDI bindings as a user plays them: learn, soft takeover, encoders,
/// 14-bit pairs, notes, pitch bend and feedback — through the model, the
/// way the frame applies them.
@Suite struct MidiMapperTests {
    struct Rig {
        var model = AppModel(library: LibraryModel(factory: testFactory))
        var mapper = MidiMapper()

        /// Sends messages and applies their actions to the model.
        mutating func send(_ messages: MidiMessage...) {
            for m in messages {
                for a in mapper.handle(m, model: model) { model.run(a) }
            }
        }

        mutating func learn(_ target: ControlTarget, with m: MidiMessage) {
            model.run(.control(.learn(target)))
            send(m)
        }

        var vignette: Double { model.base[.vignette] }
    }

    static func cc(_ n: Int, _ v: Int, ch: Int = 0) -> MidiMessage { .controlChange(channel: ch, controller: n, value: v) }

    @Test func learnBindsTheNextControlToTheArmedTargetAndDisarms() throws {
        var r = Rig()
        r.model.run(.control(.learn(.param(.vignette))))
        #expect(r.model.control.learning == .param(.vignette))
        r.send(.clock)  // clock is never learned
        #expect(r.model.control.bindings.isEmpty)
        r.send(Self.cc(21, 5, ch: 2))
        let b = try #require(r.model.control.bindings.first)
        #expect(b.control == MidiControl(.cc, channel: 2, number: 21))
        #expect(b.target == .param(.vignette) && b.mode == .absolute)
        #expect(r.model.control.learning == nil)
        #expect(r.model.notices.history.last?.text.contains("CC 21 ch 3") == true)
        // The same control learned again moves to the new target (one control, one target).
        r.learn(.routeDepth(0), with: Self.cc(21, 5, ch: 2))
        #expect(r.model.control.bindings.map(\.target) == [.routeDepth(0)])
    }

    @Test func softTakeoverIgnoresAKnobFarFromTheValueUntilItReachesIt() {
        var r = Rig()
        r.model.run(.setParam(.vignette, 0.3))
        r.learn(.param(.vignette), with: Self.cc(7, 120))
        #expect(r.vignette == 0.3, "the learning message does not set the value")
        r.send(Self.cc(7, 110), Self.cc(7, 100))
        #expect(r.vignette == 0.3, "a knob at 100/127 far above 0.3 does not jump it")
        r.send(Self.cc(7, 50), Self.cc(7, 30))  // passes 0.3 (38/127) on the way down
        #expect(abs(r.vignette - 30.0 / 127) < 1e-9, "once passed, the knob drives it")
        r.send(Self.cc(7, 64))
        #expect(abs(r.vignette - 64.0 / 127) < 1e-9)
        // Changed elsewhere (undo, a preset, the remote): the knob must catch it again.
        r.model.run(.setParam(.vignette, 0.9))
        r.send(Self.cc(7, 60))
        #expect(r.vignette == 0.9)
        r.send(Self.cc(7, Int((0.9 * 127).rounded())))
        r.send(Self.cc(7, 10))
        #expect(abs(r.vignette - 10.0 / 127) < 1e-9)
    }

    @Test func relativeEncodersStepInBothEncodings() {
        var r = Rig()
        r.model.run(.setParam(.vignette, 0.5))
        r.learn(.param(.vignette), with: Self.cc(16, 1))
        r.model.run(.control(.updateBinding(0, MidiBinding(control: MidiControl(.cc, channel: 0, number: 16), target: .param(.vignette), mode: .relative))))
        r.send(Self.cc(16, 1), Self.cc(16, 1), Self.cc(16, 3))  // +5 steps
        #expect(abs(r.vignette - (0.5 + 5.0 / 127)) < 1e-9)
        r.send(Self.cc(16, 127), Self.cc(16, 126))  // −1, −2
        #expect(abs(r.vignette - (0.5 + 2.0 / 127)) < 1e-9)
        r.model.run(.control(.updateBinding(0, MidiBinding(control: MidiControl(.cc, channel: 0, number: 16), target: .param(.vignette), mode: .offset))))
        r.send(Self.cc(16, 66), Self.cc(16, 64), Self.cc(16, 63))  // +2, 0, −1
        #expect(abs(r.vignette - (0.5 + 3.0 / 127)) < 1e-9)
        for _ in 0..<300 { r.send(Self.cc(16, 70)) }
        #expect(r.vignette == 1, "encoders stop at the range's end")
    }

    @Test func aFourteenBitPairResolvesToTheFineValue() throws {
        var r = Rig()
        r.model.run(.setParam(.vignette, 0))
        r.learn(.param(.vignette), with: Self.cc(1, 0))
        r.send(Self.cc(1, 0), Self.cc(33, 0))  // at the value: picked up
        let b = try #require(r.model.control.bindings.first)
        #expect(b.control == MidiControl(.cc14, channel: 0, number: 1), "the LSB partner made it a 14-bit binding")
        r.send(Self.cc(1, 64), Self.cc(33, 37))
        #expect(abs(r.vignette - Double(64 * 128 + 37) / 16383) < 1e-9)
        r.send(Self.cc(1, 127), Self.cc(33, 127))
        #expect(r.vignette == 1)
    }

    @Test func notesPressButtonsAndFlipToggles() {
        var r = Rig()
        r.learn(.trigger(.blackout), with: .noteOn(channel: 9, note: 36, velocity: 100))
        #expect(r.model.control.bindings.first?.mode == .toggle, "a pad on a switch toggles")
        r.send(.noteOff(channel: 9, note: 36))
        #expect(!r.model.live.blackout)
        r.send(.noteOn(channel: 9, note: 36, velocity: 90), .noteOff(channel: 9, note: 36))
        #expect(r.model.live.blackout)
        r.send(.noteOn(channel: 9, note: 36, velocity: 90), .noteOff(channel: 9, note: 36))
        #expect(!r.model.live.blackout)
        // A button on "next": one preset per press, whatever the CC repeats.
        r.learn(.trigger(.next), with: Self.cc(64, 127))
        #expect(r.model.control.bindings.last?.mode == .button)
        r.send(Self.cc(64, 0))
        let before = r.model.currentPreset?.id
        r.send(Self.cc(64, 127), Self.cc(64, 127), Self.cc(64, 0))
        #expect(r.model.currentPreset?.id != before)
        #expect(r.model.currentPreset?.id == "blue-storm")
        // Blackout as a held button: on while held.
        r.model.run(.control(.updateBinding(0, MidiBinding(control: MidiControl(.note, channel: 9, number: 36), target: .trigger(.blackout), mode: .button))))
        r.send(.noteOn(channel: 9, note: 36, velocity: 1))
        #expect(r.model.live.blackout)
        r.send(.noteOff(channel: 9, note: 36))
        #expect(!r.model.live.blackout)
    }

    @Test func pitchBendDrivesAValueWithoutTakeover() {
        var r = Rig()
        r.model.run(.setParam(.vignette, 0.2))
        r.learn(.param(.vignette), with: .pitchBend(channel: 0, value: 8192))
        r.send(.pitchBend(channel: 0, value: 16383))
        #expect(r.vignette == 1)
        r.send(.pitchBend(channel: 0, value: 4096))
        #expect(abs(r.vignette - 4096.0 / 16383) < 1e-9)
    }

    @Test func feedbackSendsValuesChangedElsewhereButDoesNotEchoTheKnob() {
        var r = Rig()
        r.model.run(.setParam(.vignette, 0.5))
        r.learn(.param(.vignette), with: Self.cc(7, 64))
        r.learn(.trigger(.blackout), with: .noteOn(channel: 0, note: 40, velocity: 127))
        r.send(.noteOff(channel: 0, note: 40))
        // First feedback: every bound control gets its current value (LEDs in sync at start).
        #expect(r.mapper.feedback(model: r.model) == [Self.cc(7, 64), .noteOn(channel: 0, note: 40, velocity: 0)])
        #expect(r.mapper.feedback(model: r.model).isEmpty, "nothing changed: nothing sent")
        r.send(Self.cc(7, 64), Self.cc(7, 70))
        #expect(r.mapper.feedback(model: r.model).isEmpty, "the knob's own move is not echoed")
        r.model.run(.undo)  // the value changes from elsewhere
        #expect(r.mapper.feedback(model: r.model) == [Self.cc(7, Int((r.vignette * 127).rounded()))])
        r.model.run(.live(.toggleBlackout))
        #expect(r.mapper.feedback(model: r.model) == [.noteOn(channel: 0, note: 40, velocity: 127)])
    }

    @Test func messagesParseAndEncodeRoundTrip() {
        let all: [MidiMessage] = [Self.cc(7, 100, ch: 15), .noteOn(channel: 3, note: 60, velocity: 1), .noteOff(channel: 3, note: 60),
                                  .pitchBend(channel: 2, value: 12345), .clock, .start, .continue, .stop]
        for m in all { #expect(MidiMessage(bytes: m.bytes) == m) }
        #expect(MidiMessage(bytes: [0x90, 60, 0]) == .noteOff(channel: 0, note: 60))
        #expect(MidiMessage(bytes: [0xB0, 7]) == nil, "a truncated message is dropped")
        #expect(MidiMessage(bytes: [0xB0, 0x87, 1]) == nil, "a data byte with the top bit set is dropped")
        #expect(MidiMessage(bytes: [0xF0, 1, 2, 0xF7]) == nil, "sysex is not for us")
    }

    @Test func targetIDsRoundTripAndRejectNonsense() {
        let targets: [ControlTarget] = [.param(.vignette), .routeDepth(2), .morph, .trigger(.next), .trigger(.previous),
                                        .trigger(.slot(23)), .trigger(.blackout), .trigger(.cycle), .trigger(.tap),
                                        .trigger(.mutate), .trigger(.randomize)]
        for t in targets { #expect(ControlTarget(id: t.id) == t, "\(t.id)") }
        for bad in ["param/global.agents", "param/nope", "route/0/depth", "preset/slot/25", "blackout/1", ""] {
            #expect(ControlTarget(id: bad) == nil, "\(bad)")
        }
    }
}
