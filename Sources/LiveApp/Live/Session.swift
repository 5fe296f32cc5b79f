import AudioReactive
import Engine
import Foundation
import Storage

/// What the app remembers between runs: window placement, UI scale, the last
/// preset, audio config and source, and the live edit itself (parameters,
/// locks, routes) so unsaved edits survive a crash.
struct Session: Equatable, Sendable {
    static let formatVersion = 1

    var windowX: Int?
    var windowY: Int?
    var windowWidth = 1280
    var windowHeight = 720
    var display = 0
    var fullscreen = false
    var uiScale = 1.0
    var presetID: String?
    var params: PresetParams?
    var locks: [String] = []
    var audioConfigPath: String?
    var audio: AudioConfig?
    var source: String?

    /// `$XDG_STATE_HOME/physarum/session.json` (fallback `~/.local/state/physarum/`).
    static func defaultURL(environment env: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        UserFolders.app(.state, env).appendingPathComponent("session.json")
    }

    /// JSON text of the session.
    var jsonText: String {
        var m: [(String, JSONNode)] = [("format", .number(Double(Self.formatVersion)))]
        var w: [(String, JSONNode)] = []
        if let windowX, let windowY { w += [("x", .number(Double(windowX))), ("y", .number(Double(windowY)))] }
        w += [("width", .number(Double(windowWidth))), ("height", .number(Double(windowHeight))),
              ("display", .number(Double(display))), ("fullscreen", .bool(fullscreen))]
        m.append(("window", .object(w)))
        m.append(("uiScale", .number(uiScale)))
        if let presetID { m.append(("preset", .string(presetID))) }
        if let params { m.append(("params", params.jsonNode)) }
        m.append(("locks", .array(locks.map(JSONNode.string))))
        if let audioConfigPath { m.append(("audioConfigPath", .string(audioConfigPath))) }
        if let audio { m.append(("audio", audio.jsonNode)) }
        if let source { m.append(("source", .string(source))) }
        return JSONWriter.pretty(.object(m))
    }

    /// Parses a session file strictly. Errors name the file, path and reason.
    static func decode(_ data: Data, file: String) throws -> Session {
        let root: JSONNode
        do {
            root = try StrictJSON.parse(data: data, limit: 4 << 20)
        } catch {
            throw RuntimeFailure(error.inFile(file).description)
        }
        let d = JSONDiagnostics(file: file)
        var s = Session()
        guard var r = d.object(root, at: .root) else { throw RuntimeFailure(d.errors.first?.description ?? "\(file): not an object") }
        if let f = r.int("format", required: true, in: 0...1000), f != formatVersion {
            d.error("unknown session format \(f) (this build reads \(formatVersion))", at: JSONPath.root.appending("format"), position: root.position)
        }
        if var w = r.object("window") {
            s.windowX = w.int("x", in: -100_000...100_000)
            s.windowY = w.int("y", in: -100_000...100_000)
            s.windowWidth = w.int("width", in: 160...16384) ?? s.windowWidth
            s.windowHeight = w.int("height", in: 120...16384) ?? s.windowHeight
            s.display = w.int("display", in: 0...64) ?? 0
            s.fullscreen = w.bool("fullscreen") ?? false
            _ = w.unknownMembers()
        }
        s.uiScale = r.number("uiScale", in: 0.5...3) ?? 1
        s.presetID = r.string("preset", maxLength: 256)
        if let p = r.value("params") {
            s.params = PresetParams(strict: p, path: JSONPath.root.appending("params"), diagnostics: d)
        }
        if let locks = r.array("locks", maxCount: 1000) {
            s.locks = locks.enumerated().compactMap { d.string($1, at: JSONPath.root.appending("locks").appending($0), maxLength: 256) }
        }
        s.audioConfigPath = r.string("audioConfigPath", maxLength: 4096)
        if let a = r.value("audio") {
            do {
                s.audio = try AudioConfig.decode(a, file: file).config
            } catch {
                for e in error.errors { d.record(e) }
            }
        }
        s.source = r.string("source", maxLength: 1024)
        _ = r.unknownMembers()
        if let e = d.errors.first { throw RuntimeFailure(e.description) }
        return s
    }

    /// Loads the session at `url`. A missing file gives nil quietly; a broken
    /// one is moved aside (never overwritten) and reported in `notice`.
    static func load(from url: URL) -> (session: Session?, notice: String?) {
        guard FileManager.default.fileExists(atPath: url.path) else { return (nil, nil) }
        do {
            let data = try SafeFile.read(url, limit: 4 << 20)
            return (try decode(data, file: url.path), nil)
        } catch {
            let aside = url.deletingLastPathComponent()
                .appendingPathComponent("session.broken-\(Int(Date().timeIntervalSince1970)).json")
            try? FileManager.default.moveItem(at: url, to: aside)
            return (nil, "Session could not be restored (\(error)); kept as \(aside.lastPathComponent), starting fresh")
        }
    }
}

/// Saves the session atomically on a background queue, at most every
/// `interval` seconds and only when it changed. The frame path only hands over
/// a value.
///
/// Thread safety: `offer`/`saveNow` from the main thread; writes on a private queue.
final class SessionAutosaver: @unchecked Sendable {
    let url: URL
    let interval: Double
    private var lastSaved: Session?
    private var lastTime = -Double.infinity
    private let queue = DispatchQueue(label: "physarum.session")
    private let errorLock = NSLock()
    private var pendingError: String?

    init(url: URL, interval: Double = 1) {
        self.url = url
        self.interval = interval
    }

    /// Schedules a save when the session changed and the interval has passed.
    func offer(_ s: Session, now: Double) {
        guard s != lastSaved, now - lastTime >= interval else { return }
        lastSaved = s
        lastTime = now
        write(s)
    }

    /// Saves now (on quit), waiting for the write.
    func saveNow(_ s: Session) {
        if s != lastSaved { write(s) }
        lastSaved = s
        queue.sync {}
    }

    /// A write error since the last call, if any (to show as a notice).
    func takeError() -> String? {
        errorLock.lock(); defer { errorLock.unlock() }
        let e = pendingError
        pendingError = nil
        return e
    }

    private func write(_ s: Session) {
        let text = s.jsonText
        let url = url
        queue.async { [self] in
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try SafeFile.writeAtomically(Data(text.utf8), to: url)
            } catch {
                errorLock.lock()
                pendingError = "Session autosave failed: \(error)"
                errorLock.unlock()
            }
        }
    }
}
