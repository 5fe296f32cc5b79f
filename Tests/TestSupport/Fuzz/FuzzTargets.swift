import AudioReactive
import Engine
import Foundation
import LiveCore
import Storage

/// One decoder under fuzzing: its valid seed documents, how a case is made
/// from them, and the check of one case (nil when every invariant held).
/// Beyond "no crash, no hang", each check asserts what the app relies on:
/// what decodes can be written back and read again to the same value, and a
/// refusal names the file on every line.
public struct FuzzTarget: Sendable {
    public enum Shape: Sendable {
        /// One mutated document per case.
        case document
        /// A stream of (mis)framed mutated documents, fed in random pieces.
        case frames(limit: Int)
        /// One mutated OSC packet (binary) per case.
        case oscPacket
    }

    public let name: String
    public let seeds: [[UInt8]]
    public let shape: Shape
    public let check: @Sendable ([UInt8]) -> String?

    public init(name: String, seeds: [[UInt8]], shape: Shape, check: @escaping @Sendable ([UInt8]) -> String?) {
        self.name = name
        self.seeds = seeds
        self.shape = shape
        self.check = check
    }

    /// The repository root (for the shipped presets and configs as seeds).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func shipped(_ folder: String) -> [[UInt8]] {
        let dir = root.appendingPathComponent("configs/\(folder)")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return names.compactMap { FileManager.default.contents(atPath: dir.appendingPathComponent($0).path).map { Array($0) } }
    }

    /// Every line of a refusal starts with the file's name.
    static func namesFile(_ text: String, _ file: String) -> String? {
        let bad = text.split(separator: "\n", omittingEmptySubsequences: false).first { !$0.hasPrefix(file + ":") }
        return bad.map { "a refusal line does not start with \(file): '\($0.prefix(200))'" }
    }

    public static let preset = FuzzTarget(name: "preset", seeds: shipped("presets"), shape: .document) { bytes in
        let p: Preset
        do { p = try Preset.decode(Data(bytes), file: "fuzz.json") } catch { return namesFile("\(error)", "fuzz.json") }
        guard let again = try? Preset.decode(p.encoded(), file: "fuzz.json") else { return "a preset that loads does not load once saved" }
        return again == p ? nil : "a saved preset loads differently"
    }

    public static let audioConfig = FuzzTarget(name: "audio-config", seeds: shipped("audio"), shape: .document) { bytes in
        let c: AudioConfig
        do { c = try AudioConfig.decode(data: Data(bytes), file: "fuzz.json").config } catch {
            return (error as? JSONErrorList)?.errors.isEmpty != false ? "refused without a reason" : namesFile("\(error)", "fuzz.json")
        }
        guard let again = try? AudioConfig.decode(data: Data(c.jsonText.utf8), file: "fuzz.json").config else {
            return "a config that loads does not load once saved"
        }
        return again == c ? nil : "a saved config loads differently"
    }

    static let samplePresets: [Preset] = shipped("presets").prefix(3).compactMap { try? Preset.decode(Data($0), file: "seed.json") }

    public static let library = FuzzTarget(name: "library", seeds: librarySeeds(), shape: .document) { bytes in
        let doc: LibraryDocument
        do { doc = try LibraryCodec.decode(Data(bytes), file: "library.json").document } catch {
            return namesFile("\(error)", "library.json")
        }
        guard let again = try? LibraryCodec.decode(Data(LibraryCodec.encode(doc).utf8), file: "library.json").document else {
            return "a library that loads does not load once saved"
        }
        return again == doc ? nil : "a saved library loads differently"
    }

    static func librarySeeds() -> [[UInt8]] {
        var doc = LibraryDocument()
        for (i, p) in samplePresets.enumerated() {
            doc.slots[i * 5] = UserSlot(preset: Preset(id: "user:\(i + 1)", name: p.name, tags: p.tags, params: p.params), pinned: i == 1)
        }
        doc.pinnedFactory = samplePresets.map(\.id)
        doc.nextSerial = 4
        return [Array(LibraryCodec.encode(doc).utf8), Array(LibraryCodec.encode(LibraryDocument()).utf8)]
    }

    public static let session = FuzzTarget(name: "session", seeds: sessionSeeds(), shape: .document) { bytes in
        let s: Session
        do { s = try Session.decode(Data(bytes), file: "session.json") } catch { return namesFile("\(error)", "session.json") }
        guard let again = try? Session.decode(Data(s.jsonText.utf8), file: "session.json") else {
            return "a session that loads does not load once saved"
        }
        return again == s ? nil : "a saved session loads differently"
    }

    static func sessionSeeds() -> [[UInt8]] {
        var full = Session(windowX: 10, windowY: 20, uiScale: 1.5, presetID: samplePresets.first?.id, params: samplePresets.first?.params,
                           locks: ["global.exposure"], audioConfigPath: "/tmp/a.json", audio: .builtInDefault, source: "sink.monitor")
        full.fullscreen = true
        return [Array(full.jsonText.utf8), Array(Session().jsonText.utf8)]
    }

    static func remoteSeeds() -> [[UInt8]] {
        let params = samplePresets.first?.params ?? .defaults
        let messages: [RemoteMessage] = [
            .hello(RemoteHello(token: "0123456789abcdef0123456789abcdef", push: RemoteState(presetID: "alpha", params: params, playlist: true))),
            .hello(RemoteHello()),
            .intent(seq: 3, .jumpTo("user:2")), .intent(seq: 4, .next),
            .params(seq: 5, [.scalar(.exposure, 1.4), .blendMode(.paint), .speciesColor(1, RGBColor(r: 255, g: 51, b: 128))]),
            .state(RemoteState(revision: 9, ack: 5, presetID: "beta", params: params, playlist: false, overlay: true, edited: true)),
            .ping(7), .pong(7), .error(code: "replaced", message: "another remote took over"),
        ]
        return messages.map { Array($0.jsonText.utf8) }
    }

    public static let remoteMessage = FuzzTarget(name: "remote-message", seeds: remoteSeeds(), shape: .document) { bytes in
        guard case .message(let m) = RemoteMessage.decode(bytes) else { return nil }
        let again = RemoteMessage.decode(Array(m.jsonText.utf8))
        return again == .message(m) ? nil : "a decoded message decodes differently once re-encoded"
    }

    /// Frame streams: fed whole or in random pieces, the decoder finds the same
    /// frames, buffers no more than one frame within the limit, and is silent
    /// after a fatal error.
    public static let remoteFrames = FuzzTarget(name: "remote-frames", seeds: remoteSeeds(), shape: .frames(limit: RemoteProtocol.preHelloLimit)) { bytes in
        let limit = RemoteProtocol.preHelloLimit
        var whole = FrameDecoder(limit: limit)
        let all = bytes.withUnsafeBytes { whole.feed($0) }
        var pieces = FrameDecoder(limit: limit)
        var events: [FrameDecoder.Event] = []
        var cutter = FuzzMutator(seed: FuzzRunner.hash(bytes))
        var start = 0
        for end in cutter.chunks(bytes.count) {
            events += bytes[start..<end].withUnsafeBytes { pieces.feed($0) }
            if pieces.bufferedBytes > limit + 4 { return "buffered \(pieces.bufferedBytes) bytes with a limit of \(limit)" }
            start = end
        }
        if let k = events.firstIndex(where: { if case .fatal = $0 { true } else { false } }), k != events.count - 1 {
            return "events after a fatal error"
        }
        for case .frame(let f) in events where f.count > limit { return "a frame over the limit was delivered" }
        for case .frame(let f) in events { _ = RemoteMessage.decode(f, limit: limit) }
        return all == events ? nil : "pieces and whole stream decode differently"
    }

    /// The MIDI bindings file: what loads is written back and loads the same;
    /// a refusal names the file on every line.
    public static let midiBindings = FuzzTarget(name: "midi-bindings", seeds: bindingsSeeds(), shape: .document) { bytes in
        let b: [MidiBinding]
        do { b = try MidiBindingsFile.decode(Data(bytes), file: "midi-bindings.json") } catch {
            return namesFile("\(error)", "midi-bindings.json")
        }
        guard let again = try? MidiBindingsFile.decode(Data(MidiBindingsFile.text(b).utf8), file: "midi-bindings.json") else {
            return "bindings that load do not load once saved"
        }
        return again == b ? nil : "saved bindings load differently"
    }

    static func bindingsSeeds() -> [[UInt8]] {
        let text = """
        {"format": 1, "bindings": [
          {"control": {"type": "cc", "channel": 1, "number": 21}, "target": "param/global.exposure", "mode": "absolute", "low": 0, "high": 1},
          {"control": {"type": "cc14", "channel": 2, "number": 7}, "target": "param/effects.bloom", "mode": "absolute", "low": 0.2, "high": 0.8},
          {"control": {"type": "note", "channel": 10, "number": 36}, "target": "blackout", "mode": "button"},
          {"control": {"type": "pitchBend", "channel": 16}, "target": "route/1/depth"}]}
        """
        return [Array(text.utf8), Array(MidiBindingsFile.text([]).utf8)]
    }

    /// The set list file: what loads is written back and loads the same, every
    /// cue within the ranges the player relies on; a refusal names the file.
    public static let setList = FuzzTarget(name: "set-list", seeds: setListSeeds(), shape: .document) { bytes in
        let list: SetList
        do { list = try SetListFile.decode(Data(bytes), file: "setlist.json") } catch { return namesFile("\(error)", "setlist.json") }
        if list.cues.count > SetList.maxCues { return "\(list.cues.count) cues over the limit of \(SetList.maxCues)" }
        for c in list.cues {
            switch c.length {
            case .bars(let n) where !CueLength.barsRange.contains(n): return "a cue of \(n) bars was accepted"
            case .seconds(let s) where !CueLength.secondsRange.contains(s): return "a cue of \(s) s was accepted"
            default: break
            }
            if let b = c.transition.beats, !CueTransition.beatsRange.contains(b) { return "a transition of \(b) beats was accepted" }
        }
        guard let again = try? SetListFile.decode(Data(SetListFile.text(list).utf8), file: "setlist.json") else {
            return "a set list that loads does not load once saved"
        }
        return again == list ? nil : "a saved set list loads differently"
    }

    static func setListSeeds() -> [[UInt8]] {
        let text = """
        {"format": 1, "name": "Friday", "cues": [
          {"preset": "alpha", "bars": 16, "transition": "cut"},
          {"preset": "user:3f2a", "audioConfig": "drums", "seconds": 30, "transition": "fade", "beats": 4},
          {"preset": "beta", "bars": 8, "transition": "morph", "beats": 0.25}]}
        """
        return [Array(text.utf8), Array(SetListFile.text(SetList()).utf8)]
    }

    /// Controller templates (the shipped ones as seeds): a template that loads
    /// has a name and its bindings survive the bindings file (a template's
    /// bindings are exported and imported through it); a refusal names the file.
    public static let controllerTemplate = FuzzTarget(name: "controller-template", seeds: shipped("controllers"), shape: .document) { bytes in
        let t: ControllerTemplate
        do { t = try ControllerTemplateFile.decode(Data(bytes), file: "template.json", id: "fuzz") } catch {
            return namesFile("\(error)", "template.json")
        }
        if t.name.isEmpty { return "a template without a name was accepted" }
        guard let again = try? MidiBindingsFile.decode(Data(MidiBindingsFile.text(t.bindings).utf8), file: "midi-bindings.json") else {
            return "a template's bindings do not load once saved as a bindings file"
        }
        return again == t.bindings ? nil : "a template's bindings load differently once saved"
    }

    /// Every decoder fuzzed here (the OSC packet decoder, which lives in the
    /// app, is fuzzed by LiveAppTests' OSCFuzzTests). Link's messages are
    /// decoded by Ableton's library (ableton-link-dev), not by our code.
    public static let all: [FuzzTarget] = [preset, audioConfig, library, session, remoteMessage, remoteFrames, midiBindings,
                                           setList, controllerTemplate]
}
