import AudioReactive
import Engine
import Foundation
import TestSupport
import Testing
@testable import LiveCore

/// A set list played against MIDI clock at 128 BPM on the pipeline's
/// offline clock: each cue comes in on the bar it should, transitions dim
/// and blend where they should; and the set list file is read strictly.
@Suite struct SetListTests {
    /// MIDI clock at `bpm` from `start` (Start, then 24 pulses a beat at
    /// their exact times) through the live controls' desk, which gives the
    /// frame's tempo — as the window's control shell does.
    final class MidiClock: ActionSource {
        let desk = ControlDesk()
        let start: Double, bpm: Double
        var pulse = 0
        var started = false
        init(start: Double, bpm: Double) {
            self.start = start
            self.bpm = bpm
        }
        func time(ofBeat b: Double) -> Double { start + b * 60 / bpm }
        func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
            let t = inputs.tick.time
            var messages: [TimedMidiMessage] = []
            if !started, t >= start {
                started = true
                messages.append(TimedMidiMessage(.start, time: start))
            }
            while started, time(ofBeat: Double(pulse) / 24) <= t {
                messages.append(TimedMidiMessage(.clock, time: time(ofBeat: Double(pulse) / 24)))
                pulse += 1
            }
            desk.midi(messages, model: { inbox.model }, apply: { inbox.post($0) })
            inputs.tempo = desk.updateTempo(time: t, features: .silent)
        }
    }

    /// Posts `action` on the first tick at or after `time`.
    final class At: ActionSource {
        var pending: [(Double, AppAction)]
        init(_ p: [(Double, AppAction)]) { pending = p }
        func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
            while let (t, a) = pending.first, inputs.tick.time >= t {
                pending.removeFirst()
                inbox.post(a)
            }
        }
    }

    static let fiveCues = SetList(name: "Test set", cues: [
        Cue(preset: "amber-drift", length: .bars(4), transition: .cut),
        Cue(preset: "blue-storm", length: .bars(2), transition: .fade(beats: 4)),
        Cue(preset: "cellar", length: .seconds(8), transition: .morph(beats: 4)),
        Cue(preset: "dune", length: .bars(3), transition: .fade(beats: 2)),
        Cue(preset: "amber-drift", length: .bars(2), transition: .cut),
    ])

    @Test func fiveCuesChangeOnTheirBarsAgainstMidiClock() throws {
        var model = AppModel(library: LibraryModel(factory: testFactory))
        var start = model.base
        start[.agents] = 1000
        _ = model.handle(.setParam(.agents, 1000))
        _ = model.handle(.setList(.loaded(Self.fiveCues, problem: nil)))
        let pipeline = FramePipeline(field: (32, 18), output: (32, 18), params: start, seed: 2, threads: 1)
        let session = LiveSession(model: model, pipeline: pipeline, seed: 2)
        let clock = MidiClock(start: 0.5, bpm: 128)
        let setList = SetListSource()
        session.add(source: clock)
        session.add(source: At([(1.0, .setList(.go))]))
        session.add(source: setList)
        let fps = 60.0
        var frames = OfflineClock(fps: fps, count: Int(40 * fps))
        var entered: [(cue: Int, time: Double)] = []
        var last: Int?
        var brightness: [(beat: Double, value: Double)] = []
        var exposures: [(beat: Double, value: Double)] = []
        var stoppedAt: Double?
        while let tick = frames.next() {
            let r = session.tick(tick)
            let s = r.model.setList
            if s.current != last, let c = s.current {
                entered.append((c, tick.time))
            }
            if last != nil, s.transport == .stopped, stoppedAt == nil { stoppedAt = tick.time }
            last = s.current
            if let b = r.inputs.tempo.beat {
                brightness.append((b, r.inputs.brightness))
                exposures.append((b, r.model.base[.exposure]))
            }
        }
        // Cue 1 from go (its bars count from bar 1's downbeat, beat 0); cue 2 on beat 16,
        // cue 3 on beat 24, cue 4 on the first downbeat after cue 3's 8 s (beat 24 + 17.07 → 44),
        // cue 5 on beat 56, the end on beat 64.
        let expected: [(Int, Double)] = [(1, 16), (2, 24), (3, 44), (4, 56)]
        #expect(entered.map(\.cue) == [0, 1, 2, 3, 4], "\(entered)")
        for (cue, beat) in expected {
            guard let e = entered.first(where: { $0.cue == cue }) else { continue }
            let due = clock.time(ofBeat: beat)
            #expect(e.time >= due - 1e-9 && e.time - due < 1 / fps, "cue \(cue + 1) came in at \(e.time) s; its downbeat (beat \(beat)) is at \(due) s")
        }
        let end = clock.time(ofBeat: 64)
        #expect(stoppedAt.map { $0 >= end - 1e-9 && $0 - end < 1 / fps } == true, "the list ends on beat 64 (\(end) s): \(String(describing: stoppedAt))")
        print("Set list at 128 BPM: cues in at \(entered.map { String(format: "%.4f", $0.time) }) s")
        // Fade into cue 2: dark before beat 16 (beats 12…16), lit again by beat 20.
        func level(near beat: Double) -> Double { brightness.min { abs($0.beat - beat) < abs($1.beat - beat) }!.value }
        #expect(level(near: 10) == 1)
        #expect(level(near: 14) < 0.9 && level(near: 15.9) < 0.1, "fading out toward beat 16")
        #expect(level(near: 17) < 0.9 && level(near: 20.5) == 1, "fading in after it")
        // Morph into cue 3 (cellar, exposure 1.1) over beats 24…28 from blue-storm's 0.9.
        func exposure(near beat: Double) -> Double { exposures.min { abs($0.beat - beat) < abs($1.beat - beat) }!.value }
        #expect(abs(exposure(near: 23.5) - 0.9) < 1e-9)
        #expect(exposure(near: 26) > 0.92 && exposure(near: 26) < 1.08, "half way: \(exposure(near: 26))")
        #expect(abs(exposure(near: 29) - 1.1) < 1e-9)
    }

    @Test func goSkipBackAndHoldMoveTheListAsSaid() {
        var m = AppModel(library: LibraryModel(factory: testFactory))
        m.run(.setList(.loaded(Self.fiveCues, problem: nil)))
        m.run(.setList(.skip), .setList(.skip))
        #expect(m.setList.selected == 2 && m.setList.transport == .stopped, "stopped: skip moves the selection")
        m.run(.setList(.go))
        #expect(m.setList.transport == .playing && m.setList.current == 2)
        m.run(.setList(.skip))
        #expect(m.setList.pending == 3, "playing: the next cue waits for the downbeat")
        m.run(.setList(.back), .setList(.back))
        #expect(m.setList.pending == 1)
        m.run(.setList(.hold))
        #expect(m.setList.transport == .held)
        m.run(.setList(.go))
        #expect(m.setList.transport == .playing, "go resumes a held list")
        m.run(.setList(.stop))
        #expect(m.setList.transport == .stopped && m.setList.current == nil)
    }

    @Test func editingKeepsTheFileUnlessItWasBroken() {
        var m = AppModel(library: LibraryModel(factory: testFactory))
        _ = m.handle(.jumpTo("cellar"))
        var effects = m.run(.setList(.addCurrent), .setList(.duplicate(0)), .setList(.move(1, by: -1)), .setList(.delete(0)))
        #expect(m.setList.list.cues.map(\.preset) == ["cellar"])
        #expect(effects.contains(.setList(.save(m.setList.list))))
        m.run(.setList(.loaded(SetList(), problem: "Set list not loaded: /x/setlist.json:3:7: cues[0].bars: expected a whole number")))
        effects = m.run(.setList(.addCurrent))
        #expect(!effects.contains { if case .setList(.save) = $0 { true } else { false } }, "a broken file is never written over")
        #expect(m.notices.history.last?.text.contains("not saved") == true)
    }

    @Test func theFileIsReadStrictlyWithLineAndReason() throws {
        let good = SetListFile.text(Self.fiveCues)
        #expect(try SetListFile.decode(Data(good.utf8), file: "set.json") == Self.fiveCues, "what is saved reads back the same")
        func problem(_ text: String) -> String {
            do {
                _ = try SetListFile.decode(Data(text.utf8), file: "set.json")
                return "accepted"
            } catch { return "\(error)" }
        }
        let bad = """
        {"format": 1, "cues": [
          {"preset": "a", "bars": 4},
          {"preset": "b", "bars": 2.5}
        ]}
        """
        #expect(problem(bad).hasPrefix("set.json:3:"), "file and line: \(problem(bad))")
        #expect(problem(bad).contains("cues[1].bars"), "\(problem(bad))")
        #expect(problem(#"{"format": 1, "cues": [{"preset": "a", "bars": 4, "seconds": 3}]}"#).contains("not both"))
        #expect(problem(#"{"format": 1, "cues": [{"preset": "a", "bars": 4, "transition": "fade"}]}"#).contains("needs 'beats'"))
        #expect(problem(#"{"format": 1, "cues": [{"preset": "a", "bars": 4, "transition": "wipe", "beats": 2}]}"#).contains("unknown transition"))
        #expect(problem(#"{"format": 1, "cues": [{"preset": "a", "bars": 4, "colour": 1}]}"#).contains("colour"))
        #expect(problem(#"{"format": 1, "cues": [{"preset": "a", "bars": 4}], "cues": []}"#).contains("duplicate"))
    }
}
