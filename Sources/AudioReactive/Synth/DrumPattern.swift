import Engine
import Foundation

/// A scheduled drum hit.
public struct DrumHit: Sendable, Equatable {
    /// Sample index at which the hit starts.
    public var sample: Int
    /// Which drum.
    public var kind: DrumKind
    /// Peak amplitude (linear).
    public var gain: Float
    /// Seed of the hit's noise.
    public var seed: UInt64
}

/// A one-bar drum pattern of 16 steps per lane, with tempo, humanisation
/// (uniform timing offset ± `humanize` seconds, level jitter ± `velocityJitter` dB)
/// and per-bar variations chosen by a seed.
///
/// Step characters: `X` 0 dB, `x` −4 dB, `g` −20 dB (ghost notes, hats),
/// `?` a −20 dB ghost played in half of the bars, `.` rest.
public struct DrumPattern: Sendable {
    /// Beats per minute (4 steps per beat).
    public var bpm: Double
    /// Lanes: a drum and its 16 steps.
    public var lanes: [(kind: DrumKind, steps: String)]
    /// Timing humanisation, ± seconds.
    public var humanize: Double = 0.005
    /// Level humanisation, ± dB.
    public var velocityJitter: Double = 1

    /// A pattern at `bpm` from lanes of 16 step characters.
    public init(bpm: Double, lanes: [(kind: DrumKind, steps: String)]) {
        precondition(lanes.allSatisfy { $0.steps.count == 16 }, "16 steps per lane")
        self.bpm = bpm
        self.lanes = lanes
    }

    /// Four-on-the-floor house: kick on every beat, snare on 2 and 4,
    /// off-beat hats and ghost snares 20 dB down.
    public static func house(bpm: Double = 128) -> DrumPattern {
        DrumPattern(bpm: bpm, lanes: [
            (.kick, "X...X...X...X..."),
            (.snare, "....X..g.g..X.?."),
            (.closedHat, "..g...g...g...g."),
        ])
    }

    /// Drum & bass two-step: kick on 1 and the "and" of 3, snare on 2 and 4,
    /// eighth hats and ghost snares 20 dB down.
    public static func drumAndBass(bpm: Double = 174) -> DrumPattern {
        DrumPattern(bpm: bpm, lanes: [
            (.kick, "X.........X....."),
            (.snare, "....X..g....X..?"),
            (.closedHat, "g.g.g.g.g.g.g.g."),
        ])
    }

    /// Seconds per bar.
    public var barSeconds: Double { 4 * 60 / bpm }

    /// The hits of bar `bar` (0-based) with absolute sample indices, sorted.
    public func hits(bar: Int, seed: UInt64, sampleRate: Double) -> [DrumHit] {
        var out: [DrumHit] = []
        let stepSeconds = barSeconds / 16
        let barStart = Double(bar) * barSeconds
        for (laneIndex, lane) in lanes.enumerated() {
            for (step, c) in lane.steps.enumerated() {
                var rng = SeededRandom(seed: seed, UInt64(bar), UInt64(laneIndex), UInt64(step))
                var db: Double
                switch c {
                case "X": db = 0
                case "x": db = -4
                case "g": db = -20
                case "?":
                    guard rng.unit() < 0.5 else { continue }
                    db = -20
                default: continue
                }
                db += velocityJitter * Double(rng.bipolar())
                let t = barStart + Double(step) * stepSeconds + humanize * Double(rng.bipolar())
                let sample = max(0, Int((t * sampleRate).rounded()))
                out.append(DrumHit(sample: sample, kind: lane.kind, gain: amplitude(dB: db), seed: rng.next()))
            }
        }
        return out.sorted { $0.sample < $1.sample }
    }

    /// Renders `bars` bars offline: the mix (peak amplitude per `DrumVoice`)
    /// and the hits, in order.
    public func render(bars: Int, seed: UInt64, sampleRate: Double = 48000,
                       tail: Double = 1) -> (samples: [Float], hits: [DrumHit]) {
        var hits: [DrumHit] = []
        for b in 0..<bars { hits += self.hits(bar: b, seed: seed, sampleRate: sampleRate) }
        hits.sort { $0.sample < $1.sample }
        let count = Int((Double(bars) * barSeconds + tail) * sampleRate)
        var rack = DrumRack(sampleRate: sampleRate)
        var out = [Float](repeating: 0, count: count)
        var next = 0
        for i in 0..<count {
            while next < hits.count && hits[next].sample == i {
                rack.trigger(hits[next].kind, gain: hits[next].gain, seed: hits[next].seed)
                next += 1
            }
            out[i] = rack.next()
        }
        return (out, hits)
    }

    /// One hit rendered alone (for measuring its onset precisely).
    public static func renderAlone(_ hit: DrumHit, sampleRate: Double = 48000) -> [Float] {
        var v = DrumVoice(kind: hit.kind, gain: hit.gain, seed: hit.seed, sampleRate: sampleRate)
        var out: [Float] = []
        out.reserveCapacity(v.length)
        while !v.finished { out.append(v.next()) }
        return out
    }
}

/// An endless drum track from a pattern, generated on demand (for the live
/// demo and real-time tests).
public struct DrumMachine: SignalGenerator {
    /// Samples per second.
    public let sampleRate: Double
    /// The pattern played.
    public var pattern: DrumPattern
    /// Output gain (linear).
    public var gain: Float = 0.5
    private var drums: DrumSequencer
    private var index = 0

    /// Plays `pattern` forever with variations from `seed`.
    public init(pattern: DrumPattern, seed: UInt64 = 1, sampleRate: Double = 48000) {
        self.pattern = pattern
        self.sampleRate = sampleRate
        drums = DrumSequencer(seed: seed, sampleRate: sampleRate)
    }

    /// The next sample.
    public mutating func next() -> Float {
        let p = pattern
        let out = drums.next(at: index, barSamples: p.barSeconds * sampleRate) { _ in p }
        index += 1
        return out * gain
    }
}

/// Plays drum patterns bar by bar through a `DrumRack`: each bar is scheduled a bar
/// ahead (so early, humanised hits are never late) and each hit triggered on its sample.
struct DrumSequencer {
    private let seed: UInt64
    private let sampleRate: Double
    private var rack: DrumRack
    private var pending: [DrumHit] = []
    private var scheduledBars = 0

    init(seed: UInt64, sampleRate: Double) {
        self.seed = seed
        self.sampleRate = sampleRate
        rack = DrumRack(sampleRate: sampleRate)
    }

    /// The rack's sample at `index` (called for consecutive indices); `pattern(bar)` is what bar `bar` plays.
    mutating func next(at index: Int, barSamples: Double, pattern: (Int) -> DrumPattern) -> Float {
        while Double(scheduledBars) * barSamples < Double(index) + barSamples {
            pending += pattern(scheduledBars).hits(bar: scheduledBars, seed: seed, sampleRate: sampleRate)
            scheduledBars += 1
        }
        var consumed = 0
        while consumed < pending.count && pending[consumed].sample <= index {
            let h = pending[consumed]
            rack.trigger(h.kind, gain: h.gain, seed: h.seed)
            consumed += 1
        }
        if consumed > 0 { pending.removeFirst(consumed) }
        return rack.next()
    }
}
