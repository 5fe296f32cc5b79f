import AudioReactive
import Foundation
import LiveCore
import Storage
import Synchronization

/// `physarum analyze`: features as lines, from a file, a live source or a synthetic signal.
enum AnalyzeCommand: Subcommand {
    static let name = "analyze"
    static let summary = "analyse audio (file, live source, synthetic) and print features per hop"
    static var help: String { """
    Usage: physarum analyze (--file F | --source NAME | --default | --synth SPEC)
                            [--json] [--duration SECONDS] [--server ADDRESS]
                            [--osc HOST:PORT [--osc-rate FPS]] [--onset-network PATH|off]
                            [--onset-input FILE] [--onset-candidates S] [TUNING OPTIONS]

    Runs the analysis and prints one line per hop (128 samples = 2.67 ms at
    48 kHz). Time is the sample clock; a file gives exactly what live
    analysis of the same samples would, and the same file and options always
    give the same output. From a live source the lines come in batches every
    20 ms.

    Input (one of):
      --file F         an audio file (WAV, FLAC, OGG, ... via libsndfile),
                       channels averaged, at its own sample rate
      --source NAME    a PulseAudio source (see `physarum sources`); runs until
                       Ctrl-C or --duration; reconnects by itself if the
                       server goes away
      --default        the server's default source
      --synth SPEC     a built-in signal: groove, drums[:BPM], dnb[:BPM],
                       tone:HZ[:DBFS], clicks:SECONDS[:DBFS], noise:DBFS,
                       pink:DBFS, pads, silence (offline; needs --duration)

    Output:
      --json           one JSON object per hop: {"t", "sources": {sub, bass,
                       lowMid, mid, highMid, presence, brilliance, full: {level,
                       transient, gate}}, "onset", "beat": {tempo, phase,
                       confidence, beat, bar}}. `t` is the sample-clock time
                       of the hop's last sample (when a live decision could be
                       made); `onset` is true on the hop where a `full` onset
                       fires; `beat` is the beat tracker (tempo in BPM, 0
                       until found; beat/bar true on the hop of a beat or
                       downbeat). Without --json: a compact text line per hop.
      --duration S     stop after S seconds of audio
      --server ADDRESS PulseAudio server (default: $PULSE_SERVER, then yours)
      --osc HOST:PORT  send the features as OSC instead of printing lines (add
                       --json to print too): one bundle per frame of the
                       frame rule (/physarum/frame i d, /physarum/levels 8f,
                       /physarum/transients 8f, /physarum/onset i,
                       /physarum/beat ffiii; see docs/live-control.md). A file
                       or synthetic signal is sent in real time.
      --osc-rate FPS   frames a second for --osc (default 60)
      --onset-network PATH|off
                       the onset network's weights (default: the shipped
                       configs/onset/onset-network.weights); off: the DSP
                       detector alone. A damaged file is one line on stderr
                       and the DSP detector alone
      --onset-input FILE
                       also write the onset network's input of every hop to
                       FILE (a line `physarum-onset-input N`, then N float32
                       per hop, little-endian): what scripts/onset-train
                       trains on (a file or synthetic signal only)
      --onset-candidates S
                       the sensitivity (0…1) of the `full` detector whose
                       onsets the network judges (default: the weights'
                       own where they name one, else --sensitivity; the
                       shipped weights name none); for training, with
                       --onset-network off --onset-input (a file or
                       synthetic signal only)

    \(tuningHelp)

    Levels of `sub` (4096-sample window) and `bass` (2048) lag the other
    bands (1024) by about 32 and 11 ms: their windows are longer so that
    20-60 Hz spans several FFT bins.

    Exit status: 0 done; 1 runtime failure (unreadable file, no server,
    unknown source: one line on stderr); 2 bad arguments.
    """ }

    /// The tuning options, one per `AudioTuning` field (with its default and
    /// range), then auto-gain and band edges.
    static var tuningHelp: String {
        func row(_ left: String, _ text: String) -> String {
            left.padding(toLength: max(left.count + 1, 28), withPad: " ", startingAt: 0) + text
        }
        var lines = ["Tuning (the audio-config fields; defaults in brackets):"]
        for f in AudioTuning.fields {
            let unit = f.unit.isEmpty ? "X" : f.unit.uppercased()
            let range = "\(JSONWriter.number(f.range.lowerBound))…\(JSONWriter.number(f.range.upperBound))"
            lines.append("  " + row("\(f.option) \(unit) [\(JSONWriter.number(f.defaultValue))]", "\(f.label.lowercased()), \(range)"))
        }
        lines.append("  " + row("\(AudioTuning.autoGainOption) on|off [on]", "auto-gain"))
        lines.append("  " + row("--bands E1,...,E8", "band edges in Hz"))
        lines.append("  " + row("", "[\(AudioBandEdges.standard.map(JSONWriter.number).joined(separator: ","))]"))
        lines.append("Each field's meaning: `physarum config schema` (the same words as the audio panel's help).")
        return lines.joined(separator: "\n")
    }


    enum Input { case file(String), source(String?), synth(String) }

    static func run(_ args: [String]) throws -> Int32 {
        var r = ArgumentReader(args)
        let json = r.flag("--json")
        let file = try r.string("--file")
        let sourceName = try r.string("--source")
        let useDefault = r.flag("--default")
        let synth = try r.string("--synth")
        let duration = try r.double("--duration", in: 0.001...1e7)
        let server = try r.string("--server")
        var oscTarget: HostPort?
        if let t = try r.string("--osc") { oscTarget = try HostPort.parse(t, option: "--osc", requireHost: true) }
        let oscRate = try r.double("--osc-rate", in: 1...1000) ?? 60
        let networkChoice = try r.string("--onset-network")
        let inputDump = try r.string("--onset-input")
        let candidates = try r.double("--onset-candidates", in: 0...1)
        let settings = try readSettings(&r)
        try r.finish()
        let chosen = [file != nil, sourceName != nil, useDefault, synth != nil].filter { $0 }.count
        guard chosen == 1 else {
            throw UsageError("choose exactly one input: --file F, --source NAME, --default or --synth SPEC")
        }
        let input: Input = file.map { .file($0) } ?? synth.map { .synth($0) } ?? .source(sourceName)
        if case .synth = input, duration == nil { throw UsageError("--synth needs --duration SECONDS") }
        if case .source = input, inputDump != nil { throw UsageError("--onset-input needs --file or --synth") }
        if case .source = input, candidates != nil { throw UsageError("--onset-candidates needs --file or --synth") }
        let network: OnsetNetworkWeights?
        switch networkChoice {
        case nil: network = OnsetNetworkWeights.shipped
        case "off": network = nil
        case let path?: network = OnsetNetworkWeights.loadReporting(path: path) { printError($0) }
        }
        var bridge: OSCBridge?
        if let oscTarget {
            var paced = true
            if case .source = input { paced = false }
            do { bridge = try OSCBridge(target: oscTarget, rate: oscRate, paced: paced) } catch { throw RuntimeFailure("--osc: \(error)") }
        }
        let out = FeatureLineWriter(json: json, print: bridge == nil || json, bridge: bridge)
        defer { bridge?.finish() }
        switch input {
        case .file(let path):
            let source: FileSource
            do { source = try FileSource(path: path) } catch { throw RuntimeFailure(error.description) }
            try runOffline(source, settings: settings, network: network, candidates: candidates, inputDump: inputDump,
                           duration: duration, out: out)
        case .synth(let spec):
            let g: any SignalGenerator
            do { g = try SyntheticSource.generator(spec: spec) } catch { throw UsageError(error.description) }
            try runOffline(SyntheticSource(g, duration: duration, label: "synthetic \(spec)"), settings: settings,
                           network: network, candidates: candidates, inputDump: inputDump, duration: duration, out: out)
        case .source(let name):
            try runLive(source: name, server: server, settings: settings, network: network, duration: duration, out: out)
        }
        return 0
    }

    static func readSettings(_ r: inout ArgumentReader) throws -> AudioTuning {
        var s = AudioTuning()
        for f in AudioTuning.fields {
            if let v = try r.double(f.option, in: f.range) { s[field: f] = v }
        }
        if let ag = try r.string(AudioTuning.autoGainOption) {
            switch ag {
            case "on": s.autoGain = true
            case "off": s.autoGain = false
            default: throw UsageError("--auto-gain must be on or off, got '\(ag)'")
            }
        }
        if let b = try r.string("--bands") {
            let parts = b.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.allSatisfy({ $0 != nil }) else { throw UsageError("--bands must be 8 numbers separated by commas, got '\(b)'") }
            s.bandEdges = parts.map { $0! }
        }
        if let problem = s.problems().first { throw UsageError(problem) }
        return s
    }

    static func runOffline(_ source: any AudioSource, settings: AudioTuning, network: OnsetNetworkWeights?, candidates: Double?,
                           inputDump: String?, duration: Double?, out: FeatureLineWriter) throws {
        let analyzer = Analyzer(layout: .standard(sampleRate: source.sampleRate), settings: settings, network: network,
                                candidates: candidates)
        var dump = Data()
        var width = 0
        if inputDump != nil {
            analyzer.onsetInputSink = { v in
                width = v.count
                dump.append(v)
            }
        }
        do {
            try analyzer.run(source, maxSeconds: duration) { f, _ in out.write(f) }
        } catch {
            throw RuntimeFailure(error.description)
        }
        out.flush()
        if let path = inputDump {
            do {
                try SafeFile.writeAtomically(Data("physarum-onset-input \(width)\n".utf8) + dump, to: URL(fileURLWithPath: path))
            } catch {
                throw RuntimeFailure("--onset-input \(path): \(error)")
            }
        }
    }

    static func runLive(source name: String?, server: String?, settings: AudioTuning, network: OnsetNetworkWeights?,
                        duration: Double?, out: FeatureLineWriter) throws {
        // Printed lines go out every 20 ms (a wake-up per 5 ms fragment cost
        // more than the writing), so the capture asks for 20 ms fragments
        // too: the lines are the same (the sample clock), with a quarter of
        // the wake-ups. The OSC stream keeps 5 ms fragments and sends every batch.
        let paced = out.bridge == nil
        let capture = PulseCapture(source: name, server: server, fragmentSeconds: paced ? 0.02 : 0.005)
        // Started before the capture: the analysis then runs on the capture thread.
        let live = LiveAnalysis(source: capture, settings: settings, network: network)
        live.start()
        let first = capture.waitForFirstOutcome(timeout: 10)
        guard first.state == .capturing else {
            live.stop()
            throw RuntimeFailure(first.message ?? "capture did not start within 10 s (\(capture.label))")
        }
        Interrupt.install()
        var state = CaptureState.capturing
        var done = false
        while !done && !Interrupt.requested {
            if paced { Thread.sleep(forTimeInterval: 0.02) } else { live.waitForFeatures(timeout: 0.1) }
            live.drainFeatures { f in
                guard !done else { return }
                out.write(f)
                if let d = duration, f.time >= d - 1e-9 { done = true }
            }
            out.flush()
            let st = live.captureStatus
            if st.state != state {
                if st.state == .retrying {
                    printError("physarum analyze: capture lost (\(st.message ?? "server gone")); retrying")
                } else if st.state == .capturing {
                    printError("physarum analyze: capture resumed")
                }
                state = st.state
            }
        }
        live.stop()
        out.flush()
    }
}

/// SIGINT/SIGTERM end a live analysis cleanly.
enum Interrupt {
    private static let flag = Atomic<Bool>(false)

    static var requested: Bool { flag.load(ordering: .relaxed) }

    static func install() {
        signal(SIGINT) { _ in Interrupt.flag.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in Interrupt.flag.store(true, ordering: .relaxed) }
    }
}
