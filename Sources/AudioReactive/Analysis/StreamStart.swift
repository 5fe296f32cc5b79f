/// The first moments of a stream. Its first short window compares the sound
/// with a silence that was never heard, so anything already sounding when
/// capture starts (room noise, a pad) looks like a hit. There a `full` onset
/// whose spectrum is noise-like is held; it fires once the sound shows it
/// was a hit after all — a band of `mid` … `brilliance` falls `fallDb` below
/// its loudest so far (a kick's click, a snare's burst, a hat) — within
/// `holdWindows` short windows of the start (43 ms at 48 kHz), and is
/// dropped if the sound stays steady (room noise). A hit on the first
/// sample is heard about 20 ms late; nothing else changes. Pure state
/// machine, one step per hop; allocates only in `init`.
struct StreamStart {
    /// How long a held onset may wait, in short windows from the start.
    static let holdWindows: Int64 = 2
    /// The fall that shows a hit.
    static let fallDb: Float = 6

    private var peakDb: [Float]
    private var held = false
    /// Past the start: `step` has nothing more to do.
    private(set) var over = false

    init() {
        peakDb = Array(repeating: -.infinity, count: AudioSourceID.count)
    }

    /// One hop. `samples`: samples seen so far; `window`: the short window's
    /// length; `noiseLike`: `full`'s spectrum is noise-like; `wouldFire`: a
    /// `full` onset is due this hop. Returns whether `full` must not fire
    /// this hop (`block`) and whether a held onset fires now (`fire`).
    mutating func step(samples: Int64, window: Int, noiseLike: Bool, wouldFire: Bool,
                       bandDb: [Float]) -> (block: Bool, fire: Bool) {
        guard samples <= Self.holdWindows * Int64(window) else {
            over = true
            return (false, false)
        }
        var fell = false
        for s in AudioSourceID.mid.index..<AudioSourceID.full.index {
            peakDb[s] = max(peakDb[s], bandDb[s])
            fell = fell || bandDb[s] < peakDb[s] - Self.fallDb
        }
        let block = samples <= Int64(window) && noiseLike
        if block && wouldFire { held = true }
        if held && fell {
            held = false
            return (false, true)
        }
        return (block, false)
    }
}
