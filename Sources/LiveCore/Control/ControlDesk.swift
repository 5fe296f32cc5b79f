import AudioReactive

/// The live controls' runtime on the frame thread: MIDI messages through
/// the bindings (`MidiMapper`), MIDI clock and the beat tracker as tempo
/// sources (`TempoClock`), mutate/randomize held for the beat
/// (`BeatQuantizer`), the visual offset (`FeatureDelay`) and the latency
/// readout. The I/O threads only queue messages; everything here runs in
/// the frame, before the pipeline, and its actions go through the
/// dispatcher. Not thread-safe: the frame thread owns it.
public final class ControlDesk {
    public private(set) var mapper = MidiMapper()
    public private(set) var tempo = TempoClock()
    public private(set) var quantizer = BeatQuantizer()
    public private(set) var delay = FeatureDelay()
    public var latency: LatencyReadout
    /// MIDI messages handled (clock included) and bound actions produced.
    public private(set) var midiMessages = 0

    public init(analysisWindow: Double = 0) {
        latency = LatencyReadout(analysisWindow: analysisWindow)
    }

    /// This frame's MIDI input (in arrival order): clock and transport feed
    /// the tempo, the rest the bindings. Each message's actions are applied
    /// (`apply`) before the next message is read, so a message sees what the
    /// one before it did (a 14-bit pair's LSB after its MSB, a learn).
    public func midi(_ messages: [TimedMidiMessage], model: () -> AppModel, apply: ([AppAction]) -> Void) {
        for m in messages {
            midiMessages += 1
            if m.message.isClock {
                tempo.midiClock(m.message, at: m.time)
            } else {
                let actions = mapper.handle(m.message, model: model())
                if !actions.isEmpty { apply(actions) }
            }
        }
    }

    /// The tempo for the frame at `time` (features: the tracker's latest;
    /// `link`: the Link session while joined).
    @discardableResult
    public func updateTempo(time: Double, features: AudioFeatures, link: LinkReading? = nil) -> TempoReading {
        tempo.update(time: time, tracker: features.beat, link: link)
    }

    /// The frame's features `offsetMs` behind (the visual offset).
    public func delayed(_ features: AudioFeatures, time: Double, offsetMs: Double) -> AudioFeatures {
        latency.offset = offsetMs / 1000
        return delay.process(features, time: time, offset: offsetMs / 1000)
    }

    /// True when `action` waits for the next beat (quantize on, a tempo locked); it is kept.
    public func hold(_ action: AppAction, sync: TempoSyncSettings) -> Bool {
        guard sync.quantize, BeatQuantizer.waits(action), let beat = tempo.reading.beat else { return false }
        quantizer.hold(action, beat: beat)
        return true
    }

    /// Held actions whose beat has come (all of them when the tempo was lost).
    public func dueActions() -> [AppAction] {
        quantizer.count == 0 ? [] : quantizer.due(beat: tempo.reading.beat)
    }

    /// The next feedback sends every bound control's value (a controller connected).
    public func resendFeedback() { mapper.forgetSent() }

    /// MIDI feedback after the frame: values of bound controls that changed elsewhere.
    public func feedback(model: AppModel) -> [MidiMessage] { mapper.feedback(model: model) }
}
