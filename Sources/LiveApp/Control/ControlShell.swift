import AudioReactive
import Foundation
import LiveCore
import Storage

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
    /// The app's values to a tablet (`--osc-feedback`), through the layout's feedback.
    private(set) var oscState: OSCStateSender?
    private var stateFeedback: OSCStateFeedback?
    private var nextFullResend = 0.0
    /// The set list's status, for the tablet's status line (set by the window).
    var setListStatus: () -> SetListStatus = { SetListStatus() }
    private(set) var midi: MidiIO?
    /// "MIDI on JACK: …", or why MIDI is off (no ALSA sequencer, no JACK server, --no-midi), for the panel.
    var midiStatus: String { midi?.status ?? midiOff }
    private var midiOff = "MIDI off"
    /// The MIDI connections whose arrival was answered with every bound value.
    private var midiGeneration = 0
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
    /// The last frame's tempo (Link, MIDI clock or the beat tracker).
    var tempo = TempoReading()
    /// Ableton Link, registered as its own source before this one (the panel and transport go through it).
    var link: LinkSource?
    /// Link's quantum as last seen (for a transport proposal).
    var linkQuantum = 4.0

    init(files: FileWorker<AppAction>, analysisWindow: Double, audio: AudioLink?,
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.files = files
        self.audio = audio
        desk = ControlDesk(analysisWindow: analysisWindow)
        bindingsURL = MidiBindingsFile.defaultURL(environment: environment)
    }

    /// Reads the bindings file and starts MIDI (unless `noMIDI`): actions for
    /// the model. The MIDI libraries' own messages go to stderr only when `verbose`.
    func start(noMIDI: Bool, verbose: Bool, origin: ContinuousClock.Instant) -> [AppAction] {
        let loaded = MidiBindingsFile.load(from: bindingsURL)
        var out: [AppAction] = [.control(.bindingsLoaded(loaded.bindings, problem: loaded.problem))]
        let shipped = ConfigDirectory.subdirectory(ControllerTemplateFile.folder).path.map { URL(fileURLWithPath: $0) }
        let templates = ControllerTemplateFile.load(from: shipped)
        out += [.control(.templatesLoaded(templates.templates, problems: templates.problems)), .control(.templatesChosen(loaded.templates))]
        MidiLibraryLog.install(verbose: verbose)
        if noMIDI {
            midiOff = "MIDI off (--no-midi)"
        } else {
            let io = MidiIO(origin: origin)
            midi = io
            out += io.takeNotices().map { .notice($0.0, $0.1) }
        }
        return out
    }

    /// (Re)starts OSC in and out with `settings`; problems come back as notices.
    func startOSC(_ settings: OSCSettings) -> [AppAction] {
        osc?.stop()
        osc = nil
        oscOut?.stop()
        oscOut = nil
        oscState?.stop()
        oscState = nil
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
        if let target = settings.feedbackTarget {
            do {
                let layout = try Self.tabletLayout()
                let hp = try HostPort.parse(target, option: "OSC feedback", requireHost: true)
                oscState = try OSCStateSender(hp)
                stateFeedback = OSCStateFeedback(layout: layout)
                nextFullResend = 0
            } catch {
                out.append(.notice("OSC feedback to \(target): \(error)", .error))
            }
        }
        return out
    }

    /// The shipped tablet layout (configs/osc/tablet-layout.json), read strictly.
    static func tabletLayout() throws -> OSCLayout {
        guard let dir = ConfigDirectory.subdirectory("osc").path else { throw RuntimeFailure("the shipped configs/osc folder is not found") }
        let url = URL(fileURLWithPath: dir).appendingPathComponent("tablet-layout.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { throw RuntimeFailure("\(url.path): cannot be read") }
        return try OSCLayout.decode(data, file: url.path)
    }

    /// The OSC settings to start with: `--osc-in` (`off`: none), else the
    /// last session's; `--osc-out` and `--osc-feedback`, else the session's. `fromSession` when OSC
    /// in was brought back by the session.
    static func startingOSC(option: HostPort?, off: Bool, outTarget: String?, feedbackTarget: String? = nil, saved: OSCSettings?)
        -> (settings: OSCSettings, fromSession: Bool) {
        let out = outTarget ?? saved?.outTarget, feedback = feedbackTarget ?? saved?.feedbackTarget
        if off { return (OSCSettings(outTarget: out, feedbackTarget: feedback), false) }
        if let o = option { return (OSCSettings(inPort: o.port, inHost: o.host, outTarget: out, feedbackTarget: feedback), false) }
        return (OSCSettings(inPort: saved?.inPort, inHost: saved?.inHost, outTarget: out, feedbackTarget: feedback), saved?.inPort != nil)
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
            apply(midi.takeNotices().map { .notice($0.0, $0.1) })
            let ports = midi.connected.inputs
            if ports != model().control.connectedPorts { apply([.control(.portsConnected(ports))]) }  // templates follow the ports
            let generation = midi.connectionGeneration
            if generation != midiGeneration {
                midiGeneration = generation
                desk.resendFeedback()  // a controller (re)connected: it gets every bound value after this frame
            }
        }
    }

    /// The tempo for this frame and the features the modulation uses (behind by the visual offset).
    func beginFrame(time: Double, features: AudioFeatures, link: LinkReading? = nil, offsetMs: Double) -> (TempoReading, AudioFeatures) {
        let reading = desk.updateTempo(time: time, features: features, link: link)
        return (reading, desk.delayed(features, time: time, offsetMs: offsetMs))
    }

    /// Mutate/randomize held for the beat whose beat has come.
    func dueActions() -> [AppAction] { desk.dueActions() }

    /// After the frame: MIDI feedback and the OSC feature frame, handed to their threads.
    func endFrame(model: AppModel, features: AudioFeatures, time: Double) {
        osc?.routeCount = model.audio.config.routes.count
        if let midi { midi.send(desk.feedback(model: model)) }
        if let oscOut {
            oscOut.offer(FeatureFrame(index: frameIndex, time: time, features: features))
        }
        if let oscState, var fb = stateFeedback {
            if time >= nextFullResend {
                fb.resendAll()  // every 2 s everything, for a tablet that connected late
                nextFullResend = time + 2
            }
            oscState.offer(fb.messages(model: model, tempo: tempo, setListLine: SetListWords.statusLine(model, setListStatus())))
            stateFeedback = fb
        }
        frameIndex += 1
    }

    /// A `.control` effect: the bindings file (on the file worker) or the OSC endpoints.
    func perform(_ effect: ControlEffect) -> [AppAction] {
        switch effect {
        case .saveBindings(let list, let templates):
            let url = bindingsURL
            let ok = files.submit(key: "midi-bindings") {
                do {
                    try MidiBindingsFile.save(list, templates: templates, to: url)
                    return []
                } catch {
                    return [.notice("MIDI bindings not saved: \(url.path): \(error)", .error)]
                }
            }
            return ok ? [] : [.notice("MIDI bindings not saved: file work is falling behind", .error)]
        case .restartOSC(let s):
            return startOSC(s)
        case .importMapping(let path):
            let ok = files.submit(key: "midi-import") {
                let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
                guard FileManager.default.fileExists(atPath: url.path) else { return [.notice("MIDI mapping not imported: \(url.path): no such file", .error)] }
                let m = MidiBindingsFile.load(from: url)
                if let p = m.problem { return [.notice(p.replacingOccurrences(of: "MIDI bindings not loaded", with: "MIDI mapping not imported"), .error)] }
                return [.control(.mappingImported(m.bindings, from: url.path))]
            }
            return ok ? [] : [.notice("MIDI mapping not imported: file work is falling behind", .error)]
        case .exportMapping(let list, let path):
            let ok = files.submit(key: "midi-export") {
                let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
                do {
                    try MidiBindingsFile.save(list, to: url)
                    return [.notice("MIDI mapping exported to \(url.path) (\(list.count) bindings)", .info)]
                } catch {
                    return [.notice("MIDI mapping not exported: \(url.path): \(error)", .error)]
                }
            }
            return ok ? [] : [.notice("MIDI mapping not exported: file work is falling behind", .error)]
        case .linkTransport(let playing):
            link?.transport(playing: playing, quantum: linkQuantum)
            return []
        }
    }

    /// Stops every I/O thread.
    func shutdown() {
        osc?.stop()
        oscOut?.stop()
        oscState?.stop()
        midi?.stop()
    }
}
