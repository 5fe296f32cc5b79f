import AudioReactive
import Engine
import TestSupport
import Testing
@testable import LiveCore

/// Tempo-synced changes on the pipeline's offline clock (frame N at N ÷ fps):
/// MIDI clock messages stamped in time reach the frame that follows them,
/// exactly as the MIDI thread's queue delivers them to the live frame.
@Suite struct TempoSyncTests {
    struct Run {
        var switches: [(time: Double, id: String)] = []
        var alpha: [(time: Double, alpha: Double)] = []
        var reading: [TempoReading] = []
    }

    /// `seconds` of frames at `fps`; `clock` the MIDI messages with their times.
    static func run(_ m: inout AppModel, clock: [TimedMidiMessage], seconds: Double, fps: Double = 60,
                    features: AudioFeatures = .silent) -> Run {
        let desk = ControlDesk()
        var cycle = AutoCycle()
        var r = Run()
        var next = 0
        var frames = OfflineClock(fps: fps, count: Int(seconds * fps))
        while let tick = frames.next() {
            var due: [TimedMidiMessage] = []
            while next < clock.count, clock[next].time <= tick.time { due.append(clock[next]); next += 1 }
            desk.midi(due, model: { m }, apply: { for a in $0 { m.run(a) } })
            let reading = desk.updateTempo(time: tick.time, features: features)
            r.reading.append(reading)
            let out = cycle.tick(dt: tick.dt, input: m.cycleInput(tempo: reading))
            r.alpha.append((tick.time, out.alpha))
            if let id = out.switchTo {
                r.switches.append((tick.time, id))
                m.run(.jumpTo(id))
            }
        }
        return r
    }

    /// MIDI clock at `bpm` from `start` (Start, then 24 pulses a beat), with a
    /// deterministic delivery jitter of up to `jitter` seconds.
    static func midiClock(bpm: Double, start: Double, seconds: Double, jitter: Double = 0) -> [TimedMidiMessage] {
        let pulse = 60 / bpm / 24
        var out = [TimedMidiMessage(.start, time: start - 0.001)]
        var k = 0
        while start + Double(k) * pulse < start + seconds {
            let j = jitter * Double((k * 7919) % 13 - 6) / 6
            out.append(TimedMidiMessage(.clock, time: start + Double(k) * pulse + j))
            k += 1
        }
        return out
    }

    func model(bars: Int, fadeBeats: Double = 1) -> AppModel {
        var m = AppModel(library: LibraryModel(factory: testFactory))
        m.run(.togglePlaylist, .live(.setPinnedOnly(false)), .control(.setSyncBars(bars)), .control(.setFadeBeats(fadeBeats)))
        return m
    }

    @Test(arguments: [0.0, 0.002])
    func midiClockAt128SwitchesEveryFourBarsWithinOneFrameOfTheDownbeat(jitter: Double) throws {
        var m = model(bars: 4)
        let start = 0.25, beat = 60.0 / 128, fps = 60.0
        let r = Self.run(&m, clock: Self.midiClock(bpm: 128, start: start, seconds: 40, jitter: jitter), seconds: 40, fps: fps)
        // Beats 16, 32, … fall at start + 16k × 60/128 s; 40 s hold five of them (beat 80 at 37.75 s).
        let expected = (1...5).map { start + Double(16 * $0) * beat }
        #expect(r.switches.count == expected.count, "\(r.switches.map(\.time))")
        for (s, t) in zip(r.switches, expected) {
            #expect(s.time >= t - 0.0025 && s.time < t + 1 / fps + 0.0025, "switch at \(s.time) s for the downbeat at \(t) s")
        }
        #expect(r.switches.map(\.id) == ["blue-storm", "cellar", "dune", "amber-drift", "blue-storm"])
        let tempo = try #require(r.reading.last)
        #expect(tempo.source == .midiClock && abs(tempo.bpm - 128) < 0.5)
        // The fade takes one beat each way: bright a beat and a half before, black at the switch.
        let first = expected[0]
        let atSwitch = try #require(r.alpha.first { $0.time >= first })
        #expect(atSwitch.alpha < 0.01)
        let before = try #require(r.alpha.last { $0.time <= first - 1.5 * beat })
        #expect(before.alpha == 1)
        let halfway = try #require(r.alpha.last { $0.time <= first - 0.5 * beat })
        #expect(halfway.alpha > 0.2 && halfway.alpha < 0.8)
    }

    @Test func stopHoldsTheCycleAndStartRestartsTheGridFromTheDownbeat() {
        var m = model(bars: 1, fadeBeats: 0)
        let beat = 60.0 / 120
        var clock = Self.midiClock(bpm: 120, start: 0.1, seconds: 3)  // switches at beats 4 (2.1 s)
        clock.append(TimedMidiMessage(.stop, time: 3.05))
        clock += Self.midiClock(bpm: 120, start: 6, seconds: 2.6)  // Start again: beat 4 at 8.0 s
        let r = Self.run(&m, clock: clock, seconds: 8.6)
        #expect(r.switches.count == 2, "\(r.switches.map(\.time))")
        #expect(abs(r.switches[0].time - (0.1 + 4 * beat)) < 1.0 / 60 + 0.001)
        #expect(abs(r.switches[1].time - (6 + 4 * beat)) < 1.0 / 60 + 0.001)
        #expect(r.reading.contains { $0.source == .none }, "stopped: no tempo source")
    }

    @Test func withoutATempoTheDwellInSecondsApplies() {
        var m = model(bars: 4)
        m.run(.live(.setDwell(3)))
        let r = Self.run(&m, clock: [], seconds: 10)
        #expect(!r.switches.isEmpty)
        #expect(r.reading.allSatisfy { !$0.locked })
        let s = m.live.cycle
        #expect(abs(r.switches[0].time - (3 + s.fadeOut)) < 0.05, "the timed cycle as before")
    }

    @Test func aHeldTrackerTempoIsASourceToo() {
        var f = AudioFeatures()
        f.beat.tempo = 120
        f.beat.held = true
        f.beat.beatInBar = 2
        f.beat.phase = 0.5
        var clock = TempoClock()
        let r = clock.update(time: 1, tracker: f.beat)
        #expect(r.source == .tracker && r.beat == 2.5)
        f.beat.held = false
        f.beat.confidence = 0.05
        #expect(clock.update(time: 1.1, tracker: f.beat).source == .none)
    }

    @Test func mutateWaitsForTheNextBeatWhenQuantised() {
        var q = BeatQuantizer()
        q.hold(.mutate(amount: 0.1, seed: 5), beat: 3.2)
        #expect(q.due(beat: 3.9).isEmpty)
        #expect(q.due(beat: 4.0) == [.mutate(amount: 0.1, seed: 5)])
        q.hold(.randomize(seed: 1), beat: 7.5)
        #expect(q.due(beat: nil) == [.randomize(seed: 1)], "tempo lost: it happens now")
        #expect(!BeatQuantizer.waits(.next))
    }

    @Test func theVisualOffsetDelaysAHitWithoutLosingIt() {
        var d = FeatureDelay()
        var hit = AudioFeatures()
        hit.onset = true
        hit[.full].transient = 1
        var seen: [Double] = []
        for i in 0..<30 {
            let t = Double(i) / 60
            let out = d.process(i == 3 ? hit : .silent, time: t, offset: 0.1)
            if out.onset { seen.append(t) }
        }
        #expect(seen.count == 1)
        #expect(abs(seen[0] - (3.0 / 60 + 0.1)) <= 1.0 / 60 + 1e-9, "the hit at 50 ms shows at 150 ms")
        var pass = FeatureDelay()
        #expect(pass.process(hit, time: 0, offset: 0).onset, "no offset: unchanged")
    }
}
