import Foundation

/// The analysis chain of one stream, in DESIGN.md's order, hop by hop:
/// Hann window → FFTW r2c → band energy (dBFS) → level (+ manual gain,
/// + auto-gain, clamp 0…1) → envelope → gate (smoothed gain); and per source
/// log-compressed, half-wave-rectified spectral flux → onset → transient.
/// One `AudioFeatures` per hop, timed at the hop's last sample.
///
/// Output depends only on the samples and the settings, never on how the
/// samples are chunked (offline analysis equals live analysis).
/// Thread-safety: single-threaded; one thread feeds it.
public final class Analyzer {
    /// Hop and window structure.
    public let layout: AnalysisLayout
    /// The settings in force.
    public private(set) var settings: AudioTuning
    /// Samples consumed so far (the sample clock; gaps included).
    public private(set) var sampleCount: Int64 = 0
    /// Meters of the last hop (spectrum refreshed by `updateSpectrum()`).
    public internal(set) var meters = AnalysisMeters()

    private var map: BandMap
    private let plans: [FFTPlan]
    private let windows: [UnsafeMutablePointer<Float>]
    let powers: [UnsafeMutablePointer<Float>]
    let powerScale: [Float]
    private let historyLength: Int
    private let history: UnsafeMutablePointer<Float>
    private var writePos = 0

    private var gates: [Gate]
    private var autoGains: [AutoGain]
    private var envelopes: [Envelope]
    private var onsets: [OnsetDetector]
    private var groupLog: [[Float]]
    private var frameIndex = 0
    private var bandDb: [Float]
    private var flux: [Float]
    private var noiseLike: [Bool] = Array(repeating: true, count: AudioSourceID.count)
    private var sinceMusic: Float = .infinity
    /// Seconds since `full` last fired.
    private var sinceFull: Float = .infinity
    private var reference: [Float] = []
    private var derived: AnalyzerTuning
    private var beats: BeatTracker
    private var downbeats: DownbeatTracker
    private var fullDbBack: (Float, Float) = (-200, -200)
    private var accent: BeatAccent
    private var lowTrigger: Float = 0
    private var lowHopsLeft = 0
    private var support: [Float] = Array(repeating: 0, count: AudioSourceID.count)
    private var fusion: OnsetFusion
    private var start = StreamStart()
    /// The `full` detector's sensitivity, instead of the settings' (see `init`).
    private let candidates: Double?
    /// The onset network's veto and input (`OnsetVeto`).
    private var veto: OnsetVeto
    /// Receives the onset network's input of every hop (`OnsetNetworkInput`;
    /// `physarum analyze --onset-input`, for training). Set before the first hop.
    public var onsetInputSink: ((UnsafeBufferPointer<Float>) -> Void)?

    /// Flux compares each group with its loudest value (max-filtered across
    /// the neighbouring groups) in the frames `fluxLag` … `fluxLag +
    /// referenceFrames − 1` hops back: a rise counts only if the group was
    /// not already that loud a moment ago (ignores vibrato, glides, beating).
    static let fluxLag = 2
    static let referenceFrames = 4
    /// Floor of the log-compressed group power: −90 dBFS.
    static let fluxEpsilon: Float = 1e-9
    /// How far back the onset threshold looks, seconds.
    static let onsetWindowSeconds = 0.75
    /// Weight of a `lowMid` onset in `full` (a fraction of its strength).
    static let triggerWeight: Float = 0.5
    /// A `lowMid` onset waits this many hops for its neighbour (below).
    static let supportHops = 2
    /// For this long after a `full` onset, weak band onsets (which wait for
    /// evidence) and `lowMid` onsets backed by a neighbour do not fire `full`:
    /// they are then the ring of the hit just heard (a snare's second
    /// transient 50–60 ms on, a bass note's body), under the hit's forward
    /// masking (≈ 100 ms) for a listener. `full`'s own crossing, clear band
    /// onsets, band onsets in noise and the level path still fire.
    static let forwardMasking: Float = 0.1
    /// An onset in `lowMid` (a bass note, a soft left hand) reaches `full`
    /// when a neighbouring band (`bass` or `mid`) rises with it within
    /// `supportHops`, to `neighbourSupport` times its own threshold's rise;
    /// `sub` and `bass` alone never fire `full` (their few wide bins beat).
    static let neighbourSupport: Float = 1.5
    /// Weight of the broadband level's rise (dB over 2 hops) in what the beat tracker hears.
    static let beatLevelWeight: Float = 0.5

    /// Plans the FFTs (serialised, `FFTW_ESTIMATE`) and sets up every state.
    /// Invalid settings fall back to the defaults field by field (see `apply`).
    /// `network`: onset network weights (`OnsetNetwork`; by default the shipped ones): a `full` onset of
    /// the DSP detector stands only where the network, which hears the
    /// spectrum and the detector's decision and evidence, gives it at least
    /// the weights' threshold (moved by `onsetSensitivity`). nil: the DSP
    /// detector alone. Where the weights name a `candidates` sensitivity, the
    /// `full` detector runs at it (many candidates, few misses; the network
    /// decides; the shipped weights name none). `candidates` overrides it,
    /// and with no network sets it (the input `physarum analyze --onset-input
    /// --onset-candidates` writes for training).
    public init(layout: AnalysisLayout = .standard(), settings: AudioTuning = AudioTuning(),
                network: OnsetNetworkWeights? = OnsetNetworkWeights.shipped, candidates: Double? = nil) {
        self.layout = layout
        self.candidates = (candidates ?? network?.candidates).map { max(0, min(1, $0)) }
        let s = settings.sanitized(keeping: AudioTuning())
        self.settings = s
        map = BandMap(layout: layout, edges: s.bandEdges)
        plans = layout.windows.map { FFTPlan(size: $0) }
        var ws: [UnsafeMutablePointer<Float>] = [], ps: [UnsafeMutablePointer<Float>] = [], sc: [Float] = []
        for n in layout.windows {
            let w = UnsafeMutablePointer<Float>.allocate(capacity: n)
            var sumSquares = 0.0
            for i in 0..<n {
                let v = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n)) // periodic Hann
                w[i] = Float(v)
                sumSquares += v * v
            }
            ws.append(w)
            let p = UnsafeMutablePointer<Float>.allocate(capacity: n / 2 + 1)
            p.initialize(repeating: 0, count: n / 2 + 1)
            ps.append(p)
            // Σ one-sided |X|² × 4 / (N Σw²) = 2 × mean square: a full-scale sine reads 1 (0 dBFS).
            sc.append(Float(4 / (Double(n) * sumSquares)))
        }
        windows = ws
        powers = ps
        powerScale = sc
        historyLength = layout.longestWindow
        history = UnsafeMutablePointer<Float>.allocate(capacity: 2 * historyLength)
        history.initialize(repeating: 0, count: 2 * historyLength)
        let n = AudioSourceID.count
        gates = Array(repeating: Gate(), count: n)
        autoGains = Array(repeating: AutoGain(), count: n)
        envelopes = Array(repeating: Envelope(), count: n)
        let windowHops = Int((Self.onsetWindowSeconds / layout.hopSeconds).rounded())
        onsets = Array(repeating: OnsetDetector(windowHops: windowHops), count: n)
        groupLog = Array(repeating: Array(repeating: 10 * log10(Self.fluxEpsilon), count: map.groups.count),
                         count: Self.fluxLag + Self.referenceFrames)
        bandDb = Array(repeating: -200, count: n)
        flux = Array(repeating: 0, count: n)
        derived = AnalyzerTuning(s, layout.hopSeconds, candidates: candidates)
        beats = BeatTracker(hopSeconds: layout.hopSeconds)
        accent = BeatAccent(window: layout.windows[0], sampleRate: layout.sampleRate)
        downbeats = DownbeatTracker(layout: layout)
        fusion = OnsetFusion(hopSeconds: layout.hopSeconds, thresholdHops: windowHops)
        veto = OnsetVeto(weights: network, layout: layout, sensitivity: s.onsetSensitivity)
    }

    deinit {
        for w in windows { w.deallocate() }
        for p in powers { p.deallocate() }
        history.deallocate()
    }

    /// Applies new settings from the next hop on. Out-of-range fields keep
    /// their previous value; new band edges re-map bins (states are kept).
    public func apply(_ new: AudioTuning) {
        let s = new.sanitized(keeping: settings)
        if s.bandEdges != settings.bandEdges {
            map = BandMap(layout: layout, edges: s.bandEdges)
            if map.groups.count != groupLog[0].count {
                groupLog = Array(repeating: Array(repeating: 10 * log10(Self.fluxEpsilon), count: map.groups.count),
                                 count: groupLog.count)
            }
        }
        settings = s
        derived = AnalyzerTuning(s, layout.hopSeconds, candidates: candidates)
        veto.setSensitivity(s.onsetSensitivity)
    }

    /// Feeds samples; calls `emit` once per completed hop.
    public func process(_ samples: [Float], emit: (AudioFeatures) -> Void) {
        samples.withUnsafeBufferPointer { process($0, emit: emit) }
    }

    /// Feeds samples; calls `emit` once per completed hop.
    func process(_ samples: UnsafeBufferPointer<Float>, emit: (AudioFeatures) -> Void) {
        let hop = Int64(layout.hop)
        let len = historyLength
        for x in samples {
            history[writePos] = x
            history[writePos + len] = x
            writePos += 1
            if writePos == len { writePos = 0 }
            sampleCount += 1
            if sampleCount % hop == 0 { emit(runHop()) }
        }
    }

    /// A beat-tracker command (tap, ×2, ÷2, lock, bar reset), from the next hop on.
    public func beat(_ command: BeatCommand) {
        beats.apply(command)
        if command == .resetBar { downbeats.resetBar() }
    }

    /// Advances the sample clock over `count` samples that were lost (dropped
    /// on overflow): no hop is emitted for them, and onsets are suppressed for
    /// one long window, since the jump in the signal would look like a hit.
    public func skip(samples count: Int) {
        guard count > 0 else { return }
        sampleCount += Int64(count)
        let quiet = Float(Double(historyLength) / layout.sampleRate)
        for s in 0..<onsets.count { onsets[s].suppress(seconds: quiet) }
        fusion.suppress(seconds: quiet)
    }

    private func runHop() -> AudioFeatures {
        let len = historyLength
        for w in 0..<plans.count {
            let n = layout.windows[w]
            plans[w].powerSpectrum(samples: history + (writePos + len - n), window: windows[w], power: powers[w])
        }
        var tonalPower: Float = 0, totalPower: Float = 0, upperPower: Float = 0, upperFlatness: Float = 0, broadPower: Float = 0
        for s in 0..<AudioSourceID.count {
            let b = map.levelBins[s]
            let p = powers[b.window]
            var sum: Float = 0
            for k in b.lo..<b.hi { sum += p[k] }
            let power = sum * powerScale[b.window]
            bandDb[s] = 10 * log10(power + 1e-20)
            if s == AudioSourceID.full.index {
                // Broadband: noise-like when most of the energy is in noise-like bands.
                noiseLike[s] = tonalPower <= 0.5 * totalPower
            } else {
                let flat = Self.spectralFlatness(p, b.lo, b.hi, sum: sum)
                noiseLike[s] = flat >= Self.flatness
                if s >= AudioSourceID.lowMid.index && s < AudioSourceID.brilliance.index { upperFlatness += flat }
                totalPower += power
                if s >= AudioSourceID.lowMid.index { upperPower += power }
                if s == AudioSourceID.bass.index {  // on the short spectrum, in time with the upper bands
                    let short = powers[0]
                    for k in map.bassShortBins.lo..<map.bassShortBins.hi { broadPower += short[k] }
                    broadPower *= powerScale[0]
                }
                if !noiseLike[s] { tonalPower += power }
            }
        }
        computeFlux()
        let vetoing = veto.isVetoing || onsetInputSink != nil
        if vetoing { veto.spectrum(power: powers[0], scale: powerScale[0]) }
        broadPower += upperPower
        fusion.beginHop(bandDb: bandDb, upperPower: upperPower, broadPower: broadPower,
                        upperFlatness: upperFlatness / Float(AudioSourceID.brilliance.index - AudioSourceID.lowMid.index),
                        masked: sinceFull < Self.forwardMasking)

        let d = derived
        let dt = Float(layout.hopSeconds)
        let historyFull = sampleCount >= Int64(len)
        var features = AudioFeatures(time: Double(sampleCount - 1) / layout.sampleRate)
        var fullFired = false
        var bandTrigger: Float? = nil
        for s in 0..<AudioSourceID.count {
            let db = bandDb[s] + d.gain
            // The floor is learnt only from what may be noise: a flat spectrum, and
            // no clear broadband onset for a while (music is playing).
            let music = sinceMusic <= Self.musicMemory
            let gateGain = gates[s].process(db: db, dt: dt, tuning: d.gate, noiseLike: noiseLike[s] && !music,
                                            musicPlaying: music, trackFloor: historyFull,
                                            openCoefficient: d.open, closeCoefficient: d.close)
            let state = gates[s].state
            let ag = d.autoGain ? autoGains[s].process(db: db, open: state == .open && gates[s].isEstablished, dt: dt, adaptation: d.adaptation) : 0
            let x = max(0, min(1, (db + ag + 60) / 60))
            let env = envelopes[s].process(x, attack: d.attack, release: d.release)
            // `full` (last) also fires on band onsets and rises of the upper
            // level (`OnsetFusion`), and on a `lowMid` onset that `bass` or `mid`
            // backs; `sub` and `bass` alone, whose few wide bins beat, never fire it.
            let isFull = s == AudioSourceID.full.index
            let tuning = isFull ? d.fullOnset : d.onset
            if !isFull { support[s] = onsets[s].support(flux: flux[s], tuning: tuning) }
            let fullSupport = isFull ? onsets[s].support(flux: flux[s], tuning: tuning) : 0
            if isFull, let t = fusion.fullTrigger(support: fullSupport, gateOpen: state != .closed, dt: dt, tuning: tuning) {
                bandTrigger = max(bandTrigger ?? 0, t)
            }
            if isFull && lowHopsLeft > 0 {
                if sinceFull < Self.forwardMasking {
                    lowHopsLeft = 0  // the ring of the hit just heard (see `forwardMasking`)
                } else if max(support[AudioSourceID.bass.index], support[AudioSourceID.mid.index]) >= Self.neighbourSupport {
                    bandTrigger = max(bandTrigger ?? 0, lowTrigger)
                    lowHopsLeft = 0
                } else {
                    lowHopsLeft -= 1
                }
            }
            var startBlock = false
            if isFull && !start.over {  // the stream's first moments (see `StreamStart`)
                let due = bandTrigger != nil || fullSupport >= 1
                let (block, fire) = start.step(samples: sampleCount, window: layout.windows[0], noiseLike: noiseLike[s],
                                               wouldFire: due, bandDb: bandDb)
                startBlock = block
                if fire { bandTrigger = max(bandTrigger ?? 0, Self.triggerWeight) }
            }
            var fired = onsets[s].process(flux: flux[s], allowed: state != .closed && !startBlock, dt: dt, tuning: tuning,
                                          trigger: isFull ? bandTrigger : nil)
            var transient = onsets[s].transient
            let dspFired = fired
            if isFull && vetoing {
                let det = OnsetNetworkInput.DetectorState(support: fullSupport, fired: fired, trigger: bandTrigger,
                                                          sinceOnset: sinceFull, allowed: state != .closed && !startBlock,
                                                          evidence: fusion.levelEvidence)
                (fired, transient) = veto.decide(dspFired: fired, dspTransient: transient, detector: det, decay: tuning.decay)
                if let sink = onsetInputSink { veto.values.withUnsafeBufferPointer { sink($0) } }
            }
            if isFull {  // the DSP detector's own state follows its own decisions (what the network was trained on)
                sinceFull = dspFired ? 0 : sinceFull + dt
                sinceMusic = dspFired ? 0 : sinceMusic + dt
            }
            if fired && s == AudioSourceID.lowMid.index {
                let weight = onsets[s].transient * Self.triggerWeight
                lowTrigger = lowHopsLeft > 0 ? max(lowTrigger, weight) : weight
                lowHopsLeft = Self.supportHops + 1
            }
            if fired && !isFull {
                fusion.bandOnset(s, strength: onsets[s].ownStrength, transient: onsets[s].transient, db: bandDb[s])
            }
            if isFull { fullFired = fired }
            let out = SourceFeatures(level: env * gateGain, transient: transient, gate: gateGain)
            features.sources[s] = out
            var m = BandMeter()
            m.dbfs = bandDb[s]
            m.noiseFloorDb = gates[s].referenceDb
            m.autoGainDb = ag
            m.gate = state
            m.level = out.level
            m.transient = out.transient
            m.onset = fired
            m.flux = flux[s]
            m.onsetThreshold = onsets[s].threshold
            meters.bands[s] = m
        }
        features.onset = fullFired
        let full = AudioSourceID.full.index
        // The tracker hears the broadband flux and, at half weight, the rise of the broadband
        // level over two hops (so loud hits count more than soft ones); its phase also hears the accent.
        let rise = max(0, bandDb[full] - fullDbBack.1)
        fullDbBack = (bandDb[full], fullDbBack.0)
        downbeats.observe(lowFlux: flux[AudioSourceID.sub.index] + flux[AudioSourceID.bass.index],
                          midFlux: flux[AudioSourceID.mid.index], onset: fullFired, longPower: powers[plans.count - 1])
        // Bars count from the music (`DownbeatTracker`), not from the tracker's first beat.
        let accentNow = accent.step(power: powers[0], scale: powerScale[0])
        features.beat = downbeats.label(beats.process(flux: flux[full] + Self.beatLevelWeight * rise, accent: accentNow, onset: fullFired,
                                                      music: gates[full].state != .closed))
        meters.beat = features.beat
        meters.tempoLocked = beats.locked
        meters.time = features.time
        return features
    }

    /// After a `full` onset whose own flux gives at least `musicStrength`,
    /// no noise floor is learnt for `musicMemory` seconds: music is playing
    /// (the broadband flux of noise stays below that).
    static let musicMemory: Float = 1
    static let musicStrength: Float = 0.25

    /// Log-compressed group powers of the short spectrum (about a sixth of an
    /// octave each), compared with the reference (see `fluxLag`), half-wave
    /// rectified, averaged over each source's groups.
    private func computeFlux() {
        let p = powers[0]
        let scale = powerScale[0]
        let groups = map.groups
        let frames = groupLog.count
        let cur = frameIndex % frames
        frameIndex += 1
        groupLog[cur].withUnsafeMutableBufferPointer { now in
            for g in 0..<groups.count {
                var sum: Float = 0
                for k in groups[g].lo..<groups[g].hi { sum += p[k] }
                now[g] = 10 * log10(sum * scale + Self.fluxEpsilon)
            }
        }
        let now = groupLog[cur]
        let last = groups.count - 1
        if reference.count != groups.count { reference = Array(repeating: 0, count: groups.count) }
        for g in 0..<groups.count {
            var m: Float = -1000
            for j in Self.fluxLag..<frames {
                let back = groupLog[(cur - j + frames) % frames]
                m = max(m, max(back[g], max(back[max(0, g - 1)], back[min(last, g + 1)])))
            }
            reference[g] = m
        }
        for s in 0..<AudioSourceID.count {
            let r = map.sourceGroups[s]
            var acc: Float = 0
            for g in r.lo..<r.hi {
                let m = reference[g]
                acc += max(0, now[g] - m)
            }
            flux[s] = r.hi > r.lo ? acc / Float(r.hi - r.lo) : 0
        }
    }
}
