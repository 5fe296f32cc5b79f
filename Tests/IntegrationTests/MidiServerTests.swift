import Foundation
import LiveCore
import Testing
@testable import LiveApp
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

// One after another with the other suites that open JACK clients here (JackClientSuites).
extension JackClientSuites {
/// The MIDI edges under the real window: one JACK client with one input and
/// one output port; a JACK server that dies (SIGKILL) is noticed and MIDI
/// comes back when a server of that name returns; a socket left over by a
/// dead server gives one clear notice and no library noise on stderr
/// (unless --verbose).
@Suite(.serialized) struct MidiServerTests {
    static let noise = ["Cannot connect to server", "JackShmReadWritePtr", "jack server is not running", "MidiInJack::"]

    static func open(_ fx: RemoteFixture, _ jackName: String, extra: [String] = []) throws -> (AppProcess, URL) {
        fx.env["JACK_DEFAULT_SERVER"] = jackName
        fx.env["JACK_NO_AUDIO_RESERVATION"] = "1"
        fx.env["DISPLAY"] = try #require(TestDisplay.display, "Xvfb is needed")
        let state = fx.file("midi-\(UInt32.random(in: 0...UInt32.max)).json")
        let app = try AppProcess(["--no-session", "--no-audio", "--preset", "alpha", "--size", "640x360", "--field", "160x90",
                                  "--agents", "5000", "--state-file", state.path, "--state-interval", "0.1"] + extra, environment: fx.env)
        return (app, state)
    }

    /// The user's bindings: CC 7 on channel 1 drives the vignette.
    static func bindVignetteToCC7(_ fx: RemoteFixture) throws {
        let folder = fx.dir.appendingPathComponent("physarum")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try MidiBindingsFile.save([MidiBinding(control: MidiControl(.cc, channel: 0, number: 7), target: .param(.vignette))],
                                  to: folder.appendingPathComponent("midi-bindings.json"))
    }

    static func vignette(_ state: URL) -> Double {
        ((readJSON(state)?["params"] as? [String: Any])?["effects.vignette"] as? NSNumber)?.doubleValue ?? -1
    }

    static func noticeHistory(_ state: URL) -> [String] {
        ((readJSON(state)?["notices"] as? [String: Any])?["history"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    static func midi(_ state: URL) -> [String: Any]? { (readJSON(state)?["liveControl"] as? [String: Any])?["midi"] as? [String: Any] }
    static func status(_ state: URL) -> String { midi(state)?["status"] as? String ?? "" }

    @Test(.enabled(if: JackServer.available, "jackd2 is needed (scripts/test installs it)"))
    func oneJackClientAServerThatDiesIsNoticedAndComesBack() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let fx = try RemoteFixture()
        try Self.bindVignetteToCC7(fx)
        let (app, state) = try Self.open(fx, jack.name)
        defer { app.stop() }
        #expect(poll(seconds: 90) { Self.status(state).hasPrefix("MIDI on JACK") }, "\(app.stderr)")
        var pad: JackMidiClient? = try JackMidiClient(name: "Probe Pad", server: jack.name)
        #expect(poll(seconds: 30) { (Self.midi(state)?["inputs"] as? [String])?.contains("Probe Pad:out") == true })
        // One client, one input port and one output port, with a controller connected.
        let ours = try jack.ports().filter { $0.hasPrefix("Physarum Live") }
        #expect(ours.sorted() == ["Physarum Live:in", "Physarum Live:out"], "\(ours)")
        pad = nil

        // SIGKILL: the server cannot say goodbye and its socket stays.
        let killed = ContinuousClock.now
        jack.kill9()
        #expect(poll(seconds: 30) { Self.status(state).contains("went away") }, "noticed: \(Self.status(state))")
        let noticed = (ContinuousClock.now - killed) / .seconds(1)
        print(String(format: "JACK server killed: the state file said so after %.2f s (state written every 0.1 s)", noticed))
        #expect(app.isRunning)

        // The server comes back under its name: MIDI comes back, controllers with it.
        let again = try JackServer(name: jack.name)
        defer { again.stop() }
        #expect(poll(seconds: 30) { Self.status(state).hasPrefix("MIDI on JACK") }, "back: \(Self.status(state)) \(app.stderr.suffix(800))")
        let pad2 = try JackMidiClient(name: "Probe Pad", server: again.name)
        #expect(poll(seconds: 30) { (Self.midi(state)?["inputs"] as? [String])?.contains("Probe Pad:out") == true })
        for v in [0, 127, 64] { pad2.send(MidiMessage.controlChange(channel: 0, controller: 7, value: v).bytes) }
        #expect(poll(seconds: 30) {
            abs(Self.vignette(state) - 64.0 / 127) < 1e-6
        }, "a control drives its binding again")
        let history = Self.noticeHistory(state)
        #expect(history.contains { $0.contains("went away") } && history.contains { $0.contains("again") }, "\(history)")
        for n in Self.noise { #expect(!app.stderr.contains(n), "library noise on stderr: \(app.stderr)") }
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }

    /// A JACK client's ports appear before it activates, and JACK refuses to
    /// connect an inactive client's ports. A controller the app finds in
    /// that moment is picked up once it is active: its controls drive their
    /// bindings and it is sent every bound value (the controller-template
    /// window test once caught its first controller there, and the app then
    /// listened to it but never sent it a value), with no notice about a
    /// refusal that fixed itself.
    @Test(.enabled(if: JackServer.available, "jackd2 is needed (scripts/test installs it)"))
    func aControllerFoundBeforeItsClientIsActiveIsPickedUpOnceItIs() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let fx = try RemoteFixture()
        try Self.bindVignetteToCC7(fx)
        let (app, state) = try Self.open(fx, jack.name, extra: ["--verbose"])
        defer { app.stop() }
        #expect(poll(seconds: 90) { Self.status(state).hasPrefix("MIDI on JACK") }, "\(app.stderr)")
        let pad = try JackMidiClient(name: "Late Pad", server: jack.name, activate: false)
        // The app found both ports and JACK refused to connect them (the library log, shown under --verbose).
        #expect(poll(seconds: 30) { app.stderr.contains("cannot listen to Late Pad:out") && app.stderr.contains("cannot send to Late Pad:in") },
                "\(app.stderr.suffix(1500))")
        try pad.activate()
        #expect(poll(seconds: 30) { (Self.midi(state)?["inputs"] as? [String])?.contains("Late Pad:out") == true }, "listened to once active")
        var buffer = [UInt8](repeating: 0, count: 256)
        var values: [Int] = []
        let fed = poll(seconds: 30) {
            while let n = pad.next(into: &buffer) {
                if case .controlChange(0, 7, let v)? = MidiMessage(bytes: buffer[0..<n]) { values.append(v) }
            }
            return !values.isEmpty
        }
        #expect(fed, "the bound value is sent once the pad is active: \(app.stderr.suffix(1500))")
        for v in [0, 127, 64] { pad.send(MidiMessage.controlChange(channel: 0, controller: 7, value: v).bytes) }
        #expect(poll(seconds: 30) {
            abs(Self.vignette(state) - 64.0 / 127) < 1e-6
        }, "its control drives its binding")
        let history = Self.noticeHistory(state)
        #expect(!history.contains { $0.contains("cannot") }, "no notice for a refusal that fixed itself: \(history)")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }

    @Test(.enabled(if: JackServer.available, "jackd2 is needed (scripts/test installs it)"))
    func aLeftOverSocketGivesOneClearLineAndALaterServerIsPickedUp() throws {
        let name = "physarum-gone-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let path = "/dev/shm/jack_\(name)_\(getuid())_0"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_un()
        a.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &a.sun_path) { raw in for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b } }
        let bound = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        try #require(bound == 0, "cannot bind \(path)")
        defer { close(fd); unlink(path) }
        let fx = try RemoteFixture()
        let (app, state) = try Self.open(fx, name)
        defer { app.stop() }
        #expect(poll(seconds: 90) { Self.status(state).contains("no JACK server answers") }, "\(Self.status(state)) \(app.stderr)")
        let history = Self.noticeHistory(state)
        let midiLines = history.filter { $0.hasPrefix("MIDI") }
        #expect(midiLines.count == 1 && Self.readable(midiLines[0]), "one readable notice: \(midiLines)")
        #expect(app.stderr.components(separatedBy: "MIDI off").count == 2, "one line on stderr: \(app.stderr)")
        for n in Self.noise { #expect(!app.stderr.contains(n), "library noise on stderr: \(app.stderr)") }
        // The server starts after all: MIDI comes on by itself.
        close(fd)
        unlink(path)
        let jack = try JackServer(name: name)
        defer { jack.stop() }
        #expect(poll(seconds: 30) { Self.status(state).hasPrefix("MIDI on JACK") }, "picked up: \(Self.status(state))")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }

    @Test(.enabled(if: JackServer.available, "jackd2 is needed (scripts/test installs it)"))
    func verboseShowsTheLibrariesOwnMessages() throws {
        let fx = try RemoteFixture()
        let (app, state) = try Self.open(fx, "physarum-none-\(getpid())", extra: ["--verbose", "--quit-after", "60"])
        defer { app.stop() }
        // No socket at all: nothing is asked of a library, so nothing to show; a left-over socket shows JACK's lines.
        #expect(poll(seconds: 90) { Self.status(state).contains("no JACK server running") })
        app.signal(SIGTERM)
        _ = app.wait(seconds: 30)
        let name = "physarum-gone-v-\(getpid())"
        let path = "/dev/shm/jack_\(name)_\(getuid())_0"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_un()
        a.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &a.sun_path) { raw in for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b } }
        _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        defer { close(fd); unlink(path) }
        let (loud, loudState) = try Self.open(fx, name, extra: ["--verbose"])
        defer { loud.stop() }
        #expect(poll(seconds: 90) { Self.status(loudState).contains("no JACK server answers") })
        #expect(loud.stderr.contains("MIDI library:"), "--verbose prints the libraries' lines: \(loud.stderr)")
        loud.signal(SIGTERM)
        _ = loud.wait(seconds: 30)
    }

    static func readable(_ s: String) -> Bool { s.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && $0.value != 0xFFFD } }
}
}  // extension JackClientSuites
