import Engine

/// Constants of the remote-control protocol (docs/remote-protocol.md).
public enum RemoteProtocol {
    /// The protocol version this build speaks (sent in `hello`).
    public static let version = 1
    /// Largest frame accepted before a valid `hello`.
    public static let preHelloLimit = 64 * 1024
    /// Largest frame accepted after a valid `hello`.
    public static let frameLimit = 8 * 1024 * 1024
    /// A `hello` must arrive this many seconds after connecting (a remote
    /// sends it at once; a short deadline frees places held by slow hellos).
    public static let helloTimeout = 2.0
    /// Each side pings the other this often (seconds).
    public static let pingInterval = 1.0
    /// A peer silent this long (seconds) is dropped.
    public static let silenceLimit = 3.0
    /// Connections waiting for their `hello`, at most, in all and from one
    /// address (an IPv6 /64); see `Admission`.
    public static let maxPending = 64
    public static let maxPendingPerAddress = 32
    /// Wrong tokens from one address answered at once; the refusals of the
    /// next ones wait `firstRefusalDelay` seconds, doubling up to
    /// `maxRefusalDelay`; an address's failures are forgotten after
    /// `forgetFailuresAfter` seconds without one. See `Admission`.
    public static let freeTokenFailures = 3
    public static let firstRefusalDelay = 0.5
    public static let maxRefusalDelay = 30.0
    public static let forgetFailuresAfter = 600.0
    /// Parameter messages per second a remote sends, at most.
    public static let paramsPerSecond = 20.0
}

/// A command the remote sends the host; the host applies it through the app's action layer.
public enum RemoteIntent: Equatable, Sendable {
    case next
    case previous
    case togglePlaylist
    /// Load a preset by id (a factory id, or `user:N` for a slot of the host's library).
    case jumpTo(String)
    /// Show the stats overlay on the host's output.
    case showOverlay
    /// Hide it.
    case dismissOverlay
    /// A set list command (go, back, hold, skip, stop) on the host.
    case setList(SetListCommand)

    /// The `intent` field's value.
    public var name: String {
        switch self {
        case .next: "next"
        case .previous: "previous"
        case .togglePlaylist: "togglePlaylist"
        case .jumpTo: "jumpTo"
        case .showOverlay: "showOverlay"
        case .dismissOverlay: "dismissOverlay"
        case .setList: "setList"
        }
    }

    /// Every `intent` name, for messages.
    public static let names = ["next", "previous", "togglePlaylist", "jumpTo", "showOverlay", "dismissOverlay", "setList"]
}

/// What a host shows: the loaded preset, the full parameters, cycling and
/// overlay, plus the host's revision counter and the last remote message it
/// applied (`ack`). In a pushed `hello`, only preset, params and playlist count.
public struct RemoteState: Equatable, Sendable {
    /// Increases by at least one whenever the host's state changes (0 in a push).
    public var revision: UInt64 = 0
    /// `seq` of the last intent/params message from this connection applied (0: none yet).
    public var ack: UInt64 = 0
    /// The loaded preset's id; nil when the look did not come from a preset.
    public var presetID: String?
    /// The base parameters (what presets save; modulation excluded).
    public var params: PresetParams = .defaults
    /// Autonomous cycling through presets is on.
    public var playlist = false
    /// The stats overlay is showing.
    public var overlay = false
    /// The params differ from the loaded preset's.
    public var edited = false

    /// A value with these members (defaults as declared).
    public init(revision: UInt64 = 0, ack: UInt64 = 0, presetID: String? = nil, params: PresetParams = .defaults, playlist: Bool = false, overlay: Bool = false, edited: Bool = false) {
        self.revision = revision
        self.ack = ack
        self.presetID = presetID
        self.params = params
        self.playlist = playlist
        self.overlay = overlay
        self.edited = edited
    }
}

/// The first message of a connection, from the remote.
public struct RemoteHello: Equatable, Sendable {
    public var version = RemoteProtocol.version
    /// The host's token (required when the host listens beyond loopback or was given `--token`).
    public var token: String?
    /// The remote's own state, to load on the host (`--push`); nil to pull the host's.
    public var push: RemoteState?

    /// A value with these members (defaults as declared).
    public init(version: Int = RemoteProtocol.version, token: String? = nil, push: RemoteState? = nil) {
        self.version = version
        self.token = token
        self.push = push
    }
}

/// One protocol message. Encoded as an explicit JSON object with a `type`
/// field (RemoteMessage+JSON.swift), never Swift's synthesised coding.
public enum RemoteMessage: Equatable, Sendable {
    case hello(RemoteHello)
    /// `seq` numbers a remote's intents and params together (increasing; echoed as `ack`).
    case intent(seq: UInt64, RemoteIntent)
    /// Live parameter changes (only the values that changed).
    case params(seq: UInt64, [ParamAssignment])
    case state(RemoteState)
    /// Asks for a `pong` with the same id.
    case ping(UInt64)
    case pong(UInt64)
    /// A problem report; `code` is one of `RemoteErrorCode`'s raw values.
    case error(code: String, message: String)

    /// The `type` field's value.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .intent: "intent"
        case .params: "params"
        case .state: "state"
        case .ping: "ping"
        case .pong: "pong"
        case .error: "error"
        }
    }
}

/// Error codes a host sends before it closes a connection or skips a frame.
public enum RemoteErrorCode: String, Sendable, CaseIterable {
    /// The token in `hello` is missing or wrong.
    case unauthorized
    /// The remote speaks another protocol version.
    case version
    /// The first message was not a `hello`.
    case helloFirst = "hello-first"
    /// No `hello` within `RemoteProtocol.helloTimeout` seconds.
    case helloTimeout = "hello-timeout"
    /// Too many connections were waiting for their `hello`: this one, the
    /// longest waiting of its address (or of the fullest one), made room.
    case busy
    /// Another remote took over after its valid `hello`.
    case replaced
    /// A frame could not be decoded and was skipped.
    case badMessage = "bad-message"
    /// An intent could not be carried out (e.g. an unknown preset).
    case rejected
}
