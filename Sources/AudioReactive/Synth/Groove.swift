import Foundation

/// The demo groove: an endless, musical A-minor house loop at 124 BPM —
/// drums, a plucked bass and legato pad chords — in 16-bar phrases (12 bars
/// full groove, a 2-bar breakdown without kick and bass, a snare-roll build,
/// a bar with open hats). Deterministic for a seed; generated sample by
/// sample, so it can run in real time for as long as wanted.
public struct Groove: SignalGenerator {
    public let sampleRate: Double
    /// Beats per minute.
    public let bpm: Double
    private var drums: DrumSequencer
    private var pad: PadProgression
    private var index = 0
    // Bass.
    private var bassOsc = SawOscillator(frequency: 55)
    private var bassFilter: Biquad
    private var bassAge = Int.max / 2
    private var bassGain: Float = 0

    static let roots: [Double] = [45, 41, 48, 43] // A F C G
    static let bassSteps = Array("X..x..x.X..x.x..")
    static let main = DrumPattern(bpm: 124, lanes: [
        (.kick, "X...X...X...X..."), (.clap, "....X.......X..."),
        (.closedHat, "xgXgxgXgxgXgxgXg"), (.rim, ".......g.g....g."),
    ])
    static let lift = DrumPattern(bpm: 124, lanes: [
        (.kick, "X...X...X...X..."), (.clap, "....X.......X..."),
        (.openHat, "..x...x...x...x."), (.closedHat, "g...g...g...g..."),
    ])
    static let breakdown = DrumPattern(bpm: 124, lanes: [
        (.clap, "....x.......x..."), (.closedHat, "..g...g...g...g."),
    ])
    static let build = DrumPattern(bpm: 124, lanes: [
        (.snare, "gggggggxxxxxXXXX"), (.closedHat, "g.g.g.g.g.g.g.g."),
    ])

    /// The groove at `bpm` (124 by default) with variations from `seed`.
    public init(seed: UInt64 = 1, sampleRate: Double = 48000) {
        self.sampleRate = sampleRate
        bpm = 124
        drums = DrumSequencer(seed: seed, sampleRate: sampleRate)
        pad = PadProgression(chordSeconds: 4 * 60 / 124, crossfade: 0.3, dBFS: -20, lead: false,
                             seed: seed, sampleRate: sampleRate)
        bassFilter = Biquad(.lowPass, frequency: 400, q: 1.4, sampleRate: sampleRate)
    }

    /// Which pattern plays in bar `bar`.
    static func pattern(bar: Int) -> DrumPattern {
        switch bar % 16 {
        case 12, 13: breakdown
        case 14: build
        case 15: lift
        default: main
        }
    }

    /// The next sample.
    public mutating func next() -> Float {
        let barSeconds = 4 * 60 / bpm
        let barSamples = barSeconds * sampleRate
        let drum = drums.next(at: index, barSamples: barSamples, pattern: Self.pattern(bar:))

        // Bass: a pluck on the pattern's steps, off in the breakdown and build.
        let stepSamples = barSamples / 16
        let bar = Int(Double(index) / barSamples)
        let stepPos = Double(index) - Double(bar) * barSamples
        let step = Int(stepPos / stepSamples)
        if Int(stepPos.rounded(.down)) == Int((Double(step) * stepSamples).rounded(.down)),
           Self.bassSteps[step] != ".", !(12...14).contains(bar % 16) {
            let root = Self.roots[bar % 4]
            let note = root + (step == 6 ? 12 : step == 13 ? 7 : 0)
            bassOsc.frequency = noteFrequency(note)
            bassGain = Self.bassSteps[step] == "X" ? 1 : 0.7
            bassAge = 0
        }
        let bt = Double(bassAge) / sampleRate
        bassAge += 1
        let bassEnv = Float(exp(-bt / 0.16) * min(1, bt / 0.002))
        let bass = bassFilter.process(bassOsc.next(sampleRate: sampleRate)) * bassEnv * bassGain * 0.35

        index += 1
        let mix = drum * 0.55 + bass + pad.next()
        return Float(tanh(Double(mix) * 1.1) / 1.1)
    }
}
