import Engine
import Foundation
import LiveCore

/// Options of the live window (`physarum [OPTIONS]`).
struct LiveOptions: Sendable {
    var source: String?
    var noAudio = false
    var demo = false
    /// `--play FILE`: loop this audio file through the live analysis instead of capturing.
    var play: String?
    var fullscreen = false
    var display: Int?
    var outputDisplay: Int?
    var preset: String?
    var config: String?
    var stats: String?
    var stateFile: String?
    /// Seconds between two rewrites of the state file.
    var stateInterval = 1.0
    var windowSize: (width: Int, height: Int)?
    var field: (width: Int, height: Int)?
    var agents: Int?
    var seed: UInt64?
    var threads: Int?
    var noGovernor = false
    /// `--no-hit-reaction`: a hit waits for its frame (HitReaction).
    var noHitReaction = false
    /// `--max-fps N`: pace the loop with a timer at N frames per second instead of vsync.
    var maxFPS: Double?
    /// `--frame-times FILE`: one JSON line per frame (time, frame and pass times, steps).
    var frameTimes: String?
    /// Which engine runs (`--backend`).
    var backend = BackendRequest.auto
    var noSession = false
    /// Open the audio panel at start (A toggles it).
    var audioPanel = false
    /// Start with every panel hidden (`--no-ui`; Tab shows them).
    var noUI = false
    /// Spoken feedback through speech-dispatcher from the start.
    var speak = false
    /// `--ui-scale S`: the UI scale to start with (else the session's; with no
    /// session, the desktop's HiDPI scale from `Xft.dpi`).
    var uiScale: Double?
    /// Quit by itself after this many seconds (tests, demos).
    var quitAfter: Double?
    /// Save the window (with panels) as PNG at `screenshotAt` seconds.
    var screenshot: String?
    var screenshotAt = 3.0
    /// Live control: OSC in on this `[ADDR:]PORT` (`oscInOff`: not even the
    /// session's), the feature stream out to HOST:PORT, MIDI off, the MIDI panel at start.
    var oscIn: HostPort?
    var oscInOff = false
    var oscOut: String?
    /// `--osc-feedback HOST:PORT`: the app's values back to a tablet (configs/osc/tablet-layout.json).
    var oscFeedback: String?
    var noMIDI = false
    var midiPanel = false
    /// `--set-list-panel`: the set list panel open at start (S toggles it).
    var setListPanel = false
    /// `--verbose`: the MIDI libraries' own messages (JACK, ALSA, RtMidi) on stderr too.
    var verbose = false
    /// Open the library panel / the notices window at start (`--library-panel`, `--notices-window`).
    var libraryPanel = false
    var noticesWindow = false
    /// `--theme`: the panels' theme (else the session's).
    var theme: UITheme.ID?
    /// Remote control: listen for a remote editor here (`--listen`).
    var listen: HostPort?
    /// The token remotes must send (`--token`; made up when listening beyond loopback).
    var token: String?
    /// What to do when the remote leaves (`--on-disconnect`).
    var onDisconnect = DisconnectPolicy.cycle
    /// Most agents a remote may set (nil: `HostLink.defaultMaxAgents`).
    var maxAgents: Int?
    /// Set by `physarum remote`: mirror this editor to a host.
    var remote: RemoteTarget?
    /// Video out beside the window (docs/video-out.md): the PipeWire camera,
    /// a network stream (with a PulseAudio source's sound), a v4l2loopback
    /// device; their size (nil: the output window's) and frame rate.
    var pipewire = false
    var stream: String?
    var streamAudio: String?
    var v4l2: String?
    var videoSize: (width: Int, height: Int)?
    var videoFPS = 30

    static let help = """
    physarum — an audio-reactive multi-species Physarum visualiser

    Usage: physarum [OPTIONS]            open the live window
           physarum SUBCOMMAND [...]     (see below)

    Window options:
      --source NAME         capture from this PulseAudio source (default: the server's default)
      --no-audio            no capture; modulation stays at rest
      --demo                play the built-in demo groove instead of capturing (labelled DEMO)
      --play FILE           play an audio file (WAV/FLAC/OGG, up to 20 min) in a loop, in real time,
                            through the live analysis instead of capturing (no sound server needed)
      --config FILE         audio config to start with (JSON file, or the name of a shipped config;
                            see docs/audio-config.md); it reloads live when the file is saved
      --audio-panel         open the audio panel (meters, routes, configs, source) at start; A toggles it
      --library-panel       open the library panel at start; L toggles it
      --notices-window      open the notices window at start (View ▸ Notices)
      --theme T             the panels' look: default, or dark-room (dim, warm, larger targets);
                            the session remembers it (View ▸ Theme)
      --no-ui               start with the panels hidden (Tab shows them)
      --speak               spoken feedback through speech-dispatcher: the focused control's
                            label and value, its help on Ctrl+H, new notices (View ▸ Speak controls)
      --ui-scale S          UI scale 0.5...3 (Ctrl+= / Ctrl+- change it; the session remembers it;
                            the first start follows the desktop's Xft.dpi, 192 = 2x)
      --preset NAME         start with this preset (id, name, or a preset .json file)
      --fullscreen          start fullscreen (F11 toggles)
      --display N           open on display N (0-based)
      --output-display N    also open an output-only fullscreen window (no panels) on display N
      --size WxH            window size (default 1280x720)
      --field WxH           simulation field size (default 1280x720)
      --agents N            the agent count of every preset loaded (given twice, the last wins)
      --seed S              simulation seed
      --threads N           worker threads (default: one per core)
      --backend B           auto (default): the GPU engine (OpenGL 4.3 compute) when the GL context has
                            compute shaders and is not a software rasteriser (llvmpipe); cpu; gpu
      --stats FILE          write one JSON line per second: fps, frame times, bands, onsets, dropped audio,
                            recording (active, frames written, frames dropped)
      --state-file FILE     write the current preset/parameters, audio source/config and the audio
                            panel's control rectangles (for scripted UI tests) as JSON once per second
      --state-interval S    rewrite the state file every S seconds instead (0.02...60)
      --no-governor         never lower quality to keep the frame rate
      --no-hit-reaction     do not show a hit on the picture already on screen while the next frame
                            is simulated (it then waits for its frame; see docs/live-control.md)
      --max-fps N           pace frames with a timer at N per second (vsync off); without it the
                            display's vsync paces (or a 60 Hz timer where there is none)
      --frame-times FILE    write one JSON line per frame: start time, frame time (total and
                            split), interval since the previous frame, simulation steps
      --no-session          neither restore nor save the session
      --quit-after SECONDS  quit by itself (for scripts)
      --screenshot FILE     save the whole window (panels included) as PNG, then quit
      --screenshot-at SECS  when to take it (default 3)
      --listen [ADDR:]PORT  let a remote editor (`physarum remote`) control this window;
                            ADDR defaults to 127.0.0.1 (see docs/remote-protocol.md)
      --token T             the secret remotes must send (made up and printed when ADDR is
                            not loopback); traffic is not encrypted
      --on-disconnect M     cycle (default): resume cycling presets when the remote leaves; hold
      --osc-in [ADDR:]PORT  take OSC messages on this UDP port (docs/live-control.md): on every
                            interface, or only on ADDR (e.g. 127.0.0.1:9000 for this machine only);
                            0 = any free port (the state file names it). The session remembers it
                            (a notice says where it listens); --osc-in off turns it off
      --osc-out HOST:PORT   send the audio features to HOST:PORT as OSC, one bundle per frame
      --osc-feedback HOST:PORT  send the app's values to a tablet there (the layout in
                            configs/osc/tablet-layout.json), so its faders follow; the session remembers it
      --no-midi             do not open MIDI ports (by default: the ALSA sequencer, else a running JACK
                            server; ports named "Physarum Live"; bindings in ~/.config/physarum/midi-bindings.json)
      --midi-panel          open the MIDI panel (bindings, learn, tempo sync, latency) at start
      --set-list-panel      open the set list panel (cues, go/back/hold/skip) at start; S toggles it
      --verbose             also print the MIDI libraries' own messages (JACK, ALSA, RtMidi) on stderr
      --max-agents N        most agents a remote may set (default: one million per core); more is
                            capped with a notice

    Video out (docs/video-out.md; each off by default, and a row of the Output menu):
      --pipewire            publish the picture as a PipeWire camera: a node "Physarum Live"
                            (Video/Source, BGRx/RGBx/BGRA/RGBA or YUY2) for OBS, browsers, other apps
      --stream URL          send it as low-latency H.264 in MPEG-TS through ffmpeg, e.g.
                            srt://0.0.0.0:9000?mode=listener or udp://127.0.0.1:1234
      --stream-audio SRC    add this PulseAudio source's sound to the stream (AAC)
      --v4l2 DEVICE         write it to a v4l2loopback device (/dev/videoN; needs the kernel module)
      --video-size WxH      the size these outputs send (default: the output window's size)
      --video-fps N         their frame rate, 1...120 (default 30)

    Keys: F11 fullscreen, Tab hide panels, F3 stats overlay, PageUp/PageDown or [ ] previous/next
    preset, Ctrl+Z / Ctrl+Shift+Z undo/redo, Ctrl+= / Ctrl+- UI scale, M mutate, Ctrl+R randomize,
    Ctrl+Q quit, A audio panel, Alt or F10 menu bar, Ctrl+Tab next panel. Over a slider: arrows step by
    1/100 of the range (Shift ×0.1, Alt ×10), and so does the wheel once the pointer rested on it (0.3 s)
    or it has the keyboard focus (else the wheel scrolls the panel); Home/End jump to the ends,
    Ctrl+click to type a value, double-click the label to reset. docs/keyboard.md has them all.
    """

    /// Parses window options; throws a usage error for anything unknown.
    static func parse(_ args: [String]) throws -> LiveOptions {
        var r = ArgumentReader(args)
        var o = LiveOptions()
        o.source = try r.string("--source")
        o.noAudio = r.flag("--no-audio")
        o.demo = r.flag("--demo")
        o.play = try r.string("--play")
        o.fullscreen = r.flag("--fullscreen")
        o.display = try r.int("--display", in: 0...64)
        o.outputDisplay = try r.int("--output-display", in: 0...64)
        o.preset = try r.string("--preset")
        o.config = try r.string("--config")
        o.stats = try r.string("--stats")
        o.stateFile = try r.string("--state-file")
        o.stateInterval = try r.double("--state-interval", in: 0.02...60) ?? 1
        o.windowSize = try r.size("--size")
        o.field = try r.size("--field", max: 4096)
        o.agents = try r.int("--agents", in: 1_000...128_000_000)
        o.seed = try r.int("--seed", in: 0...Int.max).map(UInt64.init)
        o.threads = try r.int("--threads", in: 1...64)
        o.noGovernor = r.flag("--no-governor")
        o.noHitReaction = r.flag("--no-hit-reaction")
        o.maxFPS = try r.double("--max-fps", in: 1...1000)
        o.frameTimes = try r.string("--frame-times")
        if let b = try r.string("--backend") {
            guard let k = BackendRequest(rawValue: b) else { throw UsageError("--backend: expected auto, cpu or gpu, got '\(b)'") }
            o.backend = k
        }
        o.noSession = r.flag("--no-session")
        o.audioPanel = r.flag("--audio-panel")
        o.noUI = r.flag("--no-ui")
        o.speak = r.flag("--speak")
        o.uiScale = try r.double("--ui-scale", in: 0.5...3)
        o.quitAfter = try r.double("--quit-after", in: 0...1e9)
        o.screenshot = try r.string("--screenshot")
        o.screenshotAt = try r.double("--screenshot-at", in: 0...3600) ?? 3
        (o.listen, o.token, o.onDisconnect) = try HostOptions.parseRemote(&r)
        o.maxAgents = try r.int("--max-agents", in: 1_000...8_000_000)
        if let s = try r.string("--osc-in") {
            if s == "off" { o.oscInOff = true } else { o.oscIn = try HostPort.parse(s, option: "--osc-in") }
        }
        if let t = try r.string("--osc-out") { o.oscOut = try HostPort.parse(t, option: "--osc-out", requireHost: true).description }
        if let t = try r.string("--osc-feedback") { o.oscFeedback = try HostPort.parse(t, option: "--osc-feedback", requireHost: true).description }
        o.noMIDI = r.flag("--no-midi")
        o.midiPanel = r.flag("--midi-panel")
        o.pipewire = r.flag("--pipewire")
        o.stream = try r.string("--stream")
        o.streamAudio = try r.string("--stream-audio")
        o.v4l2 = try r.string("--v4l2")
        o.videoSize = try r.size("--video-size", max: 4096)
        o.videoFPS = try r.int("--video-fps", in: 1...120) ?? 30
        o.verbose = r.flag("--verbose")
        o.setListPanel = r.flag("--set-list-panel")
        o.libraryPanel = r.flag("--library-panel")
        o.noticesWindow = r.flag("--notices-window")
        if let t = try r.string("--theme") {
            guard let id = UITheme.ID(rawValue: t == "default" ? UITheme.ID.standard.rawValue : t) else {
                throw UsageError("--theme: expected default or dark-room, got '\(t)'")
            }
            o.theme = id
        }
        if let p = r.positionals().first { throw UsageError("unknown subcommand '\(p)' (see `physarum --help`)") }
        try r.finish()
        if o.noAudio && o.demo { throw UsageError("--no-audio and --demo cannot be combined") }
        if o.noAudio && o.source != nil { throw UsageError("--no-audio and --source cannot be combined") }
        if let url = o.stream, !url.contains("://") {
            throw UsageError("--stream: expected a URL such as srt://0.0.0.0:9000?mode=listener or udp://127.0.0.1:1234, got '\(url)'")
        }
        if o.streamAudio != nil && o.stream == nil { throw UsageError("--stream-audio needs --stream URL") }
        if o.play != nil && (o.noAudio || o.demo || o.source != nil) {
            throw UsageError("--play cannot be combined with --no-audio, --demo or --source")
        }
        return o
    }
}
