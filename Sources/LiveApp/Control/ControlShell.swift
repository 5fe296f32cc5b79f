import AudioReactive
import Foundation
import LiveCore

/// The live controls around the frame: OSC in and out, MIDI in and out,
/// the bindings file, and the `ControlDesk` (bindings, tempo, quantised
/// actions, visual offset, latency). A session source and feedback
/// (ControlShell+Session.swift); `.control` effects go to `perform`.
/// Main thread only; the I/O threads are MidiIO's, OSCInput's and
/// OSCFeatureSender's.
final class ControlShell {
    let desk: ControlDesk
    private(set) var osc: OSCInput?
    private(set) var oscOut: OSCFeatureSender?
    private(set) var midi: MidiIO?
    /// Why MIDI is off (no ALSA sequencer, no JACK server, --no-midi), for the panel.
    private(set) var midiStatus = "MIDI off"
    let bindingsURL: URL
    private let files: FileWorker<AppAction>
    private var frameIndex = 0
    private var notices: [AppAction] = []
    /// Onsets shown since the last stats line: (wall-clock present, measured parts).
    var shownOnsets: [(Double, MeasuredOnset)] = []
    /// The OSC in settings came from the last session (the notice says so).
    var oscInFromSession = false
    /// The analysis whose hops the latency readout measures (nil: no audio).
    let audio: AudioLink?
    /// Seconds to subtract from MIDI arrival times: the frame clock started this long after the MIDI thread's origin.
    var clockShift = 0.0
    /// The last frame's tempo (MIDI clock or the beat tracker).
    var tempo = TempoReading()

    init(files: FileWorker<AppAction>, analysisWindow: Double, audio: AudioLink?,
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.files = files
        self.audio = audio
        desk = ControlDesk(analysisWindow: analysisWindow)
        bindingsURL = MidiBindingsFile.defaultURL(environment: environment)
    }

    /// Reads the bindings file and starts MIDI (unless `noMIDI`): actions for the model.
    func start(noMIDI: Bool, origin: ContinuousClock.Instant) -> [AppAction] {
        let loaded = MidiBindingsFile.load(from: bindingsURL)
        var out: [AppAction] = [.control(.bindingsLoaded(loaded.bindings, problem: loaded.problem))]
        if noMIDI {
            midiStatus = "MIDI off (--no-midi)"
        } else if let system = MidiSystem.available() {
            do {
                midi = try MidiIO(system: system, origin: origin)
                midiStatus = "MIDI on \(system.rawValue): ports \"\(MidiIO.clientName)\""
            } catch {
                midiStatus = "MIDI off: \(error)"
                out.append(.notice(midiStatus, .warning))
            }
        } else {
            midiStatus = "MIDI off: no ALSA sequencer (/dev/snd/seq) and no JACK server running"
            out.append(.notice(midiStatus, .info))
        }
        return out
    }

    /// (Re)starts OSC in and out with `settings`; problems come back as notices.
    func startOSC(_ settings: OSCSettings) -> [AppAction] {
        osc?.stop()
        osc = nil
        oscOut?.stop()
        oscOut = nil
        var out: [AppAction] = []
        if let port = settings.inPort {
            let asked = HostPort(host: settings.inHost, port: port)
            do {
                let input = try OSCInput(asked)
                osc = input
                out.append(.notice(Self.listeningNotice(input.address, fromSession: oscInFromSession), .info))
            } catch {
                out.append(.notice("OSC in on \(asked): \(error)", .error))
            }
        }
        if let target = settings.outTarget {
            do {
                let hp = try HostPort.parse(target, option: "OSC out", requireHost: true)
                oscOut = try OSCFeatureSender(hp)
            } catch {
                out.append(.notice("OSC out to \(target): \(error)", .error))
            }
        }
        return out
    }

    /// The OSC settings to start with: `--osc-in` (`off`: none), else the
    /// last session's; `--osc-out`, else the session's. `fromSession` when OSC
    /// in was brought back by the session.
    static func startingOSC(option: HostPort?, off: Bool, outTarget: String?, saved: OSCSettings?)
        -> (settings: OSCSettings, fromSession: Bool) {
        let out = outTarget ?? saved?.outTarget
        if off { return (OSCSettings(outTarget: out), false) }
        if let o = option { return (OSCSettings(inPort: o.port, inHost: o.host, outTarget: out), false) }
        return (OSCSettings(inPort: saved?.inPort, inHost: saved?.inHost, outTarget: out), saved?.inPort != nil)
    }

    /// "OSC in: listening on ADDR:PORT (…)": where, who can reach it, and where the setting came from.
    static func listeningNotice(_ a: SocketAddress, fromSession: Bool) -> String {
        let reach = a.isLoopback ? "this machine only" : a.isWildcard ? "every interface: anyone on the network can control this window" : "this interface only"
        let origin = fromSession ? "; remembered from the last session, --osc-in off turns it off" : ""
        return "OSC in: listening on UDP \(a) (\(reach)\(origin))"
    }

    /// Input of this frame: OSC actions (already decoded), then MIDI through the bindings, message by message.
    /// `clockShift`: seconds to subtract from MIDI arrival times (the frame
    /// clock started after the MIDI thread's origin).
    func applyInput(model: () -> AppModel, clockShift: Double, apply: ([AppAction]) -> Void) {
        apply(notices + (osc?.drain() ?? []))
        notices.removeAll()
        if let midi {
            let messages = midi.drain().map { TimedMidiMessage($0.message, time: $0.time - clockShift) }
            desk.midi(messages, model: model, apply: apply)
            apply(midi.takeNotices().map { .notice($0, .info) })
        }
    }

    /// The tempo for this frame and the features the modulation uses (behind by the visual offset).
    func beginFrame(time: Double, features: AudioFeatures, offsetMs: Double) -> (TempoReading, AudioFeatures) {
        let reading = desk.updateTempo(time: time, features: features)
        return (reading, desk.delayed(features, time: time, offsetMs: offsetMs))
    }

    /// Mutate/randomize held for the beat whose beat has come.
    func dueActions() -> [AppAction] { desk.dueActions() }

    /// After the frame: MIDI feedback and the OSC feature frame, handed to their threads.
    func endFrame(model: AppModel, features: AudioFeatures, time: Double) {
        if let midi { midi.send(desk.feedback(model: model)) }
        if let oscOut {
            oscOut.offer(FeatureFrame(index: frameIndex, time: time, features: features))
        }
        frameIndex += 1
    }

    /// A `.control` effect: the bindings file (on the file worker) or the OSC endpoints.
    func perform(_ effect: ControlEffect) -> [AppAction] {
        switch effect {
        case .saveBindings(let list):
            let url = bindingsURL
            let ok = files.submit(key: "midi-bindings") {
                do {
                    try MidiBindingsFile.save(list, to: url)
                    return []
                } catch {
                    return [.notice("MIDI bindings not saved: \(url.path): \(error)", .error)]
                }
            }
            return ok ? [] : [.notice("MIDI bindings not saved: file work is falling behind", .error)]
        case .restartOSC(let s):
            return startOSC(s)
        }
    }

    /// Stops every I/O thread.
    func shutdown() {
        osc?.stop()
        oscOut?.stop()
        midi?.stop()
    }
}
