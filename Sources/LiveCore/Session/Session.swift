import AudioReactive
import Engine
import Foundation
import Storage

/// What the app remembers between runs: window placement, UI scale, the last
/// preset, audio config and source, the auto-cycle's dwell and "pinned
/// only", which panels were open, and the live edit itself (parameters,
/// locks, routes) so unsaved edits survive a crash.
public struct Session: Equatable, Sendable {
    public static let formatVersion = 1

    public var windowX: Int?
    public var windowY: Int?
    public var windowWidth = 1280
    public var windowHeight = 720
    public var display = 0
    public var fullscreen = false
    public var uiScale = 1.0
    public var presetID: String?
    public var params: PresetParams?
    public var locks: [String] = []
    public var audioConfigPath: String?
    public var audio: AudioConfig?
    public var source: String?
    /// Auto-cycle dwell (seconds) and "pinned only" (nil: the defaults).
    public var dwell: Double?
    public var pinnedOnly: Bool?
    /// Which panels were open.
    public var libraryPanel = false
    public var audioPanel = false
    /// Live controls: OSC endpoints, tempo sync, visual offset (nil: the defaults).
    public var osc = OSCSettings()
    public var sync: TempoSyncSettings?
    public var visualOffsetMs: Double?
    /// Ableton Link: joined, quantum, start/stop sync (nil: the defaults, not joined).
    public var link: LinkSettings?
    /// The set list panel was open.
    public var setListPanel = false
    public var midiPanel = false
    /// The notices window was open.
    public var noticesWindow = false
    /// Theme, panel background opacity, panel widths.
    public var ui = UISettings()

    /// `$XDG_STATE_HOME/physarum/session.json` (fallback `~/.local/state/physarum/`).
    public static func defaultURL(environment env: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        UserFolders.app(.state, env).appendingPathComponent("session.json")
    }

    /// JSON text of the session.
    public var jsonText: String {
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
        var cycle: [(String, JSONNode)] = []
        if let dwell { cycle.append(("dwell", .number(dwell))) }
        if let pinnedOnly { cycle.append(("pinnedOnly", .bool(pinnedOnly))) }
        if !cycle.isEmpty { m.append(("cycle", .object(cycle))) }
        m.append(("panels", .object([("library", .bool(libraryPanel)), ("audio", .bool(audioPanel)), ("midi", .bool(midiPanel)),
                                     ("setList", .bool(setListPanel)), ("notices", .bool(noticesWindow))])))
        let widths = PanelLayout.Panel.allCases.compactMap { p in ui.panelWidths.values[p].map { (p.rawValue, JSONNode.number($0)) } }
        m.append(("ui", .object([("theme", .string(ui.theme.rawValue)), ("panelOpacity", .number(ui.panelOpacity)),
                                 ("panelWidths", .object(widths))])))
        var live: [(String, JSONNode)] = []
        if let p = osc.inPort { live.append(("oscIn", .number(Double(p)))) }
        if let h = osc.inHost, osc.inPort != nil { live.append(("oscInAddress", .string(h))) }
        if let t = osc.outTarget { live.append(("oscOut", .string(t))) }
        if let t = osc.feedbackTarget { live.append(("oscFeedback", .string(t))) }
        if let sync {
            live.append(("sync", .object([("bars", .number(Double(sync.bars))), ("fadeBeats", .number(sync.fadeBeats)),
                                          ("quantize", .bool(sync.quantize))])))
        }
        if let visualOffsetMs { live.append(("visualOffsetMs", .number(visualOffsetMs))) }
        if let link {
            live.append(("link", .object([("enabled", .bool(link.enabled)), ("quantum", .number(link.quantum)),
                                          ("startStopSync", .bool(link.startStopSync))])))
        }
        if !live.isEmpty { m.append(("liveControl", .object(live))) }
        return JSONWriter.pretty(.object(m))
    }

    /// Parses a session file strictly. Errors name the file, path and reason.
    public static func decode(_ data: Data, file: String) throws -> Session {
        let root = try RuntimeFailure.document(data, limit: 4 << 20, file: file)
        let d = JSONDiagnostics(file: file)
        var s = Session()
        guard var r = d.object(root, at: .root) else { throw RuntimeFailure(d.errors.first?.description ?? "\(file): not an object") }
        if let f = r.int("format", required: true, in: 0...1000), f != formatVersion {
            d.error("unknown session format \(f) (this build reads \(formatVersion))", at: JSONPath.root.appending("format"), position: root.position)
        }
        if var w = r.object("window") {
            s.windowX = w.int("x", in: -100_000...100_000)
            s.windowY = w.int("y", in: -100_000...100_000)
            if s.windowX == nil || s.windowY == nil {  // a position needs both (and is saved only so)
                s.windowX = nil
                s.windowY = nil
            }
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
        if var c = r.object("cycle") {
            s.dwell = c.number("dwell", in: CycleSettings.dwellRange)
            s.pinnedOnly = c.bool("pinnedOnly")
            _ = c.unknownMembers()
        }
        if var p = r.object("panels") {
            s.libraryPanel = p.bool("library") ?? false
            s.audioPanel = p.bool("audio") ?? false
            s.midiPanel = p.bool("midi") ?? false
            s.setListPanel = p.bool("setList") ?? false
            s.noticesWindow = p.bool("notices") ?? false
            _ = p.unknownMembers()
        }
        if var u = r.object("ui") {
            s.ui.theme = u.choice("theme", as: UITheme.ID.self) ?? .standard
            s.ui.panelOpacity = u.number("panelOpacity", in: UITheme.opacityRange) ?? UITheme.defaultOpacity
            if var w = u.object("panelWidths") {
                for p in PanelLayout.Panel.allCases {
                    if let v = w.number(p.rawValue, in: PanelWidths.range) { s.ui.panelWidths.set(p, v) }
                }
                _ = w.unknownMembers()
            }
            _ = u.unknownMembers()
        }
        if var l = r.object("liveControl") {
            s.osc.inPort = l.int("oscIn", in: 0...65535)
            s.osc.inHost = l.string("oscInAddress", maxLength: 255)
            s.osc.outTarget = l.string("oscOut", maxLength: 300)
            s.osc.feedbackTarget = l.string("oscFeedback", maxLength: 300)
            if var y = l.object("sync") {
                var t = TempoSyncSettings()
                t.bars = y.int("bars", in: TempoSyncSettings.barsRange) ?? t.bars
                t.fadeBeats = y.number("fadeBeats", in: TempoSyncSettings.fadeBeatsRange) ?? t.fadeBeats
                t.quantize = y.bool("quantize") ?? t.quantize
                _ = y.unknownMembers()
                s.sync = t
            }
            s.visualOffsetMs = l.number("visualOffsetMs", in: ControlState.visualOffsetRange)
            if var k = l.object("link") {
                var t = LinkSettings()
                t.enabled = k.bool("enabled") ?? t.enabled
                t.quantum = k.number("quantum", in: LinkSettings.quantumRange) ?? t.quantum
                t.startStopSync = k.bool("startStopSync") ?? t.startStopSync
                _ = k.unknownMembers()
                s.link = t
            }
            _ = l.unknownMembers()
        }
        _ = r.unknownMembers()
        if let e = d.errors.first { throw RuntimeFailure(e.description) }
        return s
    }

    /// What `load` found.
    public struct Restored: Sendable {
        /// The session; nil when there was none or it could not be read.
        public var session: Session?
        /// A notice for the user, if any.
        public var notice: String?
        /// The broken file could not be moved aside and is still at the
        /// session's path: autosave must stay off, or it would overwrite it
        /// (`notice` says so; show it as an error).
        public var keepAutosaveOff = false
    }

    /// Loads the session at `url`. A missing file (or a symbolic link to a
    /// file not made yet: autosave writes through the link) gives nothing
    /// quietly; a broken one (a link loop included) is moved to
    /// `session.broken-<seconds>[-N].json` (a name no file has: never
    /// overwritten) and reported in `notice`. When it cannot be moved,
    /// `keepAutosaveOff` is set.
    public static func load(from url: URL) -> Restored {
        guard SafeFile.entryExists(url) else { return Restored() }
        if let target = try? SafeFile.resolveLinks(url), !SafeFile.entryExists(target) { return Restored() }
        do {
            let data: Data
            do { data = try SafeFile.read(url, limit: 4 << 20) } catch { throw RuntimeFailure("\(url.path): \(error.reason)") }
            return Restored(session: try decode(data, file: url.path))
        } catch {
            let seconds = Int(Date().timeIntervalSince1970)
            do {
                let aside = try SafeFile.moveAside(url) { n in n == 0 ? "session.broken-\(seconds).json" : "session.broken-\(seconds)-\(n).json" }
                return Restored(notice: "Session could not be restored (\(error)); kept as \(aside.lastPathComponent), starting fresh")
            } catch let moveError {
                return Restored(notice: "Session could not be restored (\(error)) and could not be moved aside (\(moveError)); "
                                + "autosave is off so \(url.path) is not overwritten", keepAutosaveOff: true)
            }
        }
    }

    /// A value with these members (defaults as declared).
    public init(windowX: Int? = nil, windowY: Int? = nil, windowWidth: Int = 1280, windowHeight: Int = 720, display: Int = 0, fullscreen: Bool = false, uiScale: Double = 1.0, presetID: String? = nil, params: PresetParams? = nil, locks: [String] = [], audioConfigPath: String? = nil, audio: AudioConfig? = nil, source: String? = nil,
                dwell: Double? = nil, pinnedOnly: Bool? = nil, libraryPanel: Bool = false, audioPanel: Bool = false) {
        self.windowX = windowX
        self.windowY = windowY
        self.windowWidth = windowWidth
        self.windowHeight = windowHeight
        self.display = display
        self.fullscreen = fullscreen
        self.uiScale = uiScale
        self.presetID = presetID
        self.params = params
        self.locks = locks
        self.audioConfigPath = audioConfigPath
        self.audio = audio
        self.source = source
        self.dwell = dwell
        self.pinnedOnly = pinnedOnly
        self.libraryPanel = libraryPanel
        self.audioPanel = audioPanel
    }
}

/// Saves the session atomically on a background queue, at most every
/// `interval` seconds and only when it changed. The frame path only hands over
/// a value.
///
/// Thread safety: `offer`/`saveNow` from the main thread; writes on a private queue.
public final class SessionAutosaver: @unchecked Sendable {
    public let url: URL
    public let interval: Double
    private var lastSaved: Session?
    private var lastTime = -Double.infinity
    private let queue = DispatchQueue(label: "physarum.session")
    private let errorLock = NSLock()
    private var pendingError: String?

    public init(url: URL, interval: Double = 1) {
        self.url = url
        self.interval = interval
    }

    /// Schedules a save when the session changed and the interval has passed.
    public func offer(_ s: Session, now: Double) {
        guard s != lastSaved, now - lastTime >= interval else { return }
        lastSaved = s
        lastTime = now
        write(s)
    }

    /// Saves now (on quit), waiting for the write.
    public func saveNow(_ s: Session) {
        if s != lastSaved { write(s) }
        lastSaved = s
        queue.sync {}
    }

    /// A write error since the last call, if any (to show as a notice).
    public func takeError() -> String? {
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
