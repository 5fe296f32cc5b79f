import Foundation
import Storage

/// The set list file, `$XDG_CONFIG_HOME/physarum/setlist.json`:
///
///     {"format": 1, "name": "Friday", "cues": [
///       {"preset": "alpha", "bars": 16, "transition": "cut"},
///       {"preset": "user:3f2a", "audioConfig": "drums", "seconds": 30, "transition": "fade", "beats": 4},
///       {"preset": "beta", "bars": 8, "transition": "morph", "beats": 8}]}
///
/// Each cue has exactly one of `bars` (1…512) and `seconds` (1…3600);
/// `transition` is cut (no `beats`), fade or morph (`beats` 0.25…64).
/// Read strictly (FILE:LINE:COL: path: reason); written atomically. A file
/// that does not read is reported and never overwritten.
public enum SetListFile {
    public static let formatVersion = 1

    /// The file's place under the XDG config folder.
    public static func defaultURL(environment env: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        UserFolders.app(.config, env).appendingPathComponent("setlist.json")
    }

    /// JSON text of `list`.
    public static func text(_ list: SetList) -> String {
        let cues: [JSONNode] = list.cues.map { c in
            var m: [(String, JSONNode)] = [("preset", .string(c.preset))]
            if let a = c.audioConfig { m.append(("audioConfig", .string(a))) }
            switch c.length {
            case .bars(let n): m.append(("bars", .number(Double(n))))
            case .seconds(let s): m.append(("seconds", .number(s)))
            }
            m.append(("transition", .string(c.transition.kind)))
            if let b = c.transition.beats { m.append(("beats", .number(b))) }
            return .object(m)
        }
        return JSONWriter.pretty(.object([("format", .number(Double(formatVersion))), ("name", .string(list.name)), ("cues", .array(cues))]))
    }

    /// Parses the file's text; throws the first problem as `FILE:LINE:COL: path: reason`.
    public static func decode(_ data: Data, file: String) throws -> SetList {
        let root = try RuntimeFailure.document(data, limit: 4 << 20, file: file)
        let d = JSONDiagnostics(file: file)
        guard var r = d.object(root, at: .root) else { throw RuntimeFailure(d.errors.first?.description ?? "\(file): not an object") }
        if let f = r.int("format", required: true, in: 0...1000), f != formatVersion {
            d.error("unknown set list format \(f) (this build reads \(formatVersion))", at: JSONPath.root.appending("format"), position: root.position)
        }
        var list = SetList(name: r.string("name", maxLength: 200) ?? "Set list")
        let listPath = JSONPath.root.appending("cues")
        for (i, node) in (r.array("cues", required: true, maxCount: SetList.maxCues) ?? []).enumerated() {
            let path = listPath.appending(i)
            guard var c = d.object(node, at: path) else { continue }
            let preset = c.string("preset", required: true, maxLength: 300, nonEmpty: true)
            let audio = c.string("audioConfig", maxLength: 300, nonEmpty: true)
            let bars = c.int("bars", in: CueLength.barsRange)
            let seconds = c.number("seconds", in: CueLength.secondsRange)
            var length: CueLength?
            switch (bars, seconds) {
            case (let b?, nil): length = .bars(b)
            case (nil, let s?): length = .seconds(s)
            case (.some, .some): d.error("give either 'bars' or 'seconds', not both", at: path, position: c.node.position)
            case (nil, nil):
                if !c.has("bars") && !c.has("seconds") { d.error("missing 'bars' or 'seconds' (how long the cue plays)", at: path, position: c.node.position) }
            }
            let kind = c.string("transition", maxLength: 20) ?? "cut"
            let beats = c.number("beats", in: CueTransition.beatsRange)
            var transition: CueTransition?
            switch kind {
            case "cut":
                if c.has("beats") { d.error("a cut has no 'beats'", at: path.appending("beats"), position: c.object["beats"]?.position ?? c.node.position) }
                transition = .cut
            case "fade", "morph":
                if let beats {
                    transition = kind == "fade" ? .fade(beats: beats) : .morph(beats: beats)
                } else if !c.has("beats") {
                    d.error("a \(kind) needs 'beats' (\(CueTransition.beatsRange.lowerBound)…\(Int(CueTransition.beatsRange.upperBound)))",
                            at: path, position: c.node.position)
                }
            default:
                d.error("unknown transition '\(kind)' (cut, fade or morph)", at: path.appending("transition"),
                        position: c.object["transition"]?.position ?? c.node.position)
            }
            c.rejectUnknown()
            if let preset, let length, let transition {
                list.cues.append(Cue(preset: preset, audioConfig: audio, length: length, transition: transition))
            }
        }
        r.rejectUnknown()
        if let e = d.errors.first { throw RuntimeFailure(e.description) }
        return list
    }

    /// Reads the file: the list, or a problem when it is broken (then the
    /// list is empty and the file must not be written over); no file reads
    /// as an empty list and no problem.
    public static func load(from url: URL) -> (list: SetList, problem: String?) {
        guard FileManager.default.fileExists(atPath: url.path) else { return (SetList(), nil) }
        do {
            let data: Data
            do { data = try SafeFile.read(url, limit: 4 << 20) } catch { throw RuntimeFailure("\(url.path): \(error.reason)") }
            return (try decode(data, file: url.path), nil)
        } catch {
            return (SetList(), "Set list not loaded: \(error)")
        }
    }

    /// Writes the file atomically (creating its folder).
    public static func save(_ list: SetList, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try SafeFile.writeAtomically(Data(text(list).utf8), to: url)
    }
}
