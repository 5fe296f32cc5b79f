import Foundation
import Glibc
import MidiShim
import Synchronization

/// Which MIDI system the app talks to.
enum MidiSystem: String, Sendable {
    case alsa = "ALSA sequencer"
    case jack = "JACK"

    /// The ALSA sequencer where `sequencer` (/dev/snd/seq) can be opened, else
    /// JACK when a JACK server's socket is there (`jackSocket`), else nil.
    /// Checked before asking a library, so a machine with neither gets no
    /// library chatter.
    static func available(environment env: [String: String] = ProcessInfo.processInfo.environment,
                          sequencer: String = "/dev/snd/seq", folders: [String] = ["/dev/shm", "/tmp"]) -> MidiSystem? {
        if access(sequencer, R_OK | W_OK) == 0 { return .alsa }
        return jackSocket(environment: env, folders: folders) != nil ? .jack : nil
    }

    /// The socket of the JACK server named by $JACK_DEFAULT_SERVER (else
    /// "default"), JACK 2 or JACK 1, or nil:
    /// - JACK 2 (jackd2): `<folder>/jack_<server>_<uid>_0`;
    /// - JACK 1 (jackd1): `<folder>/jack-<uid>/<server>/jack_0`, or
    ///   `<folder>/jack/<server>/jack_0` with $JACK_PROMISCUOUS_SERVER;
    /// in /dev/shm, or /tmp where a system has no /dev/shm.
    static func jackSocket(environment env: [String: String], folders: [String]) -> String? {
        let server = env["JACK_DEFAULT_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let uid = getuid()
        let userFolder = env["JACK_PROMISCUOUS_SERVER"] != nil ? "jack" : "jack-\(uid)"
        for folder in folders {
            for path in ["\(folder)/jack_\(server)_\(uid)_0", "\(folder)/\(userFolder)/\(server)/jack_0"] {
                var st = stat()
                if stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK { return path }
            }
        }
        return nil
    }
}

/// A MIDI library failure, with the library's text copied (never a pointer into it).
struct MidiError: Error, CustomStringConvertible {
    let description: String
}

/// The MIDI libraries' own messages (JACK's, ALSA lib's, RtMidi's warnings):
/// kept off stderr unless `--verbose`, and the last few kept for tests and
/// the report. Thread safety: any thread.
enum MidiLibraryLog {
    private static let verbose = Atomic<Bool>(false)
    private static let recentLines = Mutex<[String]>([])

    /// Routes the libraries' messages here (midishim_set_log); `verbose` prints them too.
    static func install(verbose on: Bool) {
        verbose.store(on, ordering: .relaxed)
        midishim_set_log { line in
            guard let line else { return }
            MidiLibraryLog.add(String(cString: line))
        }
    }

    static func add(_ line: String) {
        recentLines.withLock { r in
            r.append(line)
            if r.count > 64 { r.removeFirst(r.count - 64) }
        }
        if verbose.load(ordering: .relaxed) { printError("physarum: MIDI library: \(line)") }
    }

    /// The last messages the libraries gave (at most 64).
    static var recent: [String] { recentLines.withLock { $0 } }
}

/// A list of names from a shim function that fills a buffer and returns the length it needs.
private func nameList(_ fill: (UnsafeMutablePointer<CChar>, Int) -> Int) -> [String] {
    var size = 4096
    while true {
        var buffer = [CChar](repeating: 0, count: size)
        let needed = buffer.withUnsafeMutableBufferPointer { fill($0.baseAddress!, $0.count) }
        if needed < size { return cText(buffer).split(separator: "\n").map(String.init) }
        size = needed + 1
    }
}

/// Runs `body` with a C buffer for an error text; returns its result and the text.
private func withErrorText<T>(_ body: (UnsafeMutablePointer<CChar>, Int) -> T) -> (T, String) {
    var buffer = [CChar](repeating: 0, count: 512)
    let result = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
    return (result, cText(buffer))
}

/// The text in a C buffer, up to its terminating zero.
private func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// One RtMidi input or output (RtMidi's C++ API through MidiShim, every
/// error caught and copied there): a virtual port others connect to, or
/// connected to one port. Used for the ALSA sequencer. Owned by one thread
/// (the MIDI thread; `@unchecked Sendable` only to hand it over at creation).
final class RtMidiDevice: @unchecked Sendable {
    private let handle: OpaquePointer
    let name: String

    /// `port` nil: a virtual port named `ownPort`; else the port with that name.
    init(_ system: MidiSystem, output: Bool, client: String, connectTo port: String?, ownPort: String) throws(MidiError) {
        let api = system == .jack ? Int32(MIDISHIM_API_JACK) : Int32(MIDISHIM_API_ALSA)
        let (h, text) = withErrorText { midishim_rt_open(api, output, client, port, ownPort, $0, $1) }
        guard let h else { throw MidiError(description: "\(output ? "MIDI output" : "MIDI input") \(port ?? ownPort): \(text)") }
        handle = h
        name = port ?? "\(client):\(ownPort)"
    }

    deinit { midishim_rt_free(handle) }

    /// Names of the ports this device could connect to.
    var portNames: [String] { nameList { midishim_rt_ports(handle, $0, $1) } }

    /// The next queued message (an input): its size, or nil when none waits.
    func next(into buffer: inout [UInt8]) -> Int? {
        for _ in 0..<64 {
            let n = buffer.withUnsafeMutableBufferPointer { midishim_rt_read(handle, $0.baseAddress, $0.count) }
            if n > 0 { return Int(n) }
            if n == 0 { return nil }
        }
        return nil
    }

    /// Sends one message (an output); false on failure.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { midishim_rt_send(handle, $0.baseAddress, $0.count) } }
}

/// One JACK client with one MIDI input port ("in") and one MIDI output port
/// ("out") (libjack through MidiShim). It notices the server going away
/// (`alive`) and ports coming and going (`takeChanged`). Used by the MIDI
/// thread, and by tests as a virtual controller. Thread safety: one thread
/// at a time (sending from two is serialised in the shim).
final class JackMidiClient: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The client's name (with a suffix when the asked name was taken).
    let name: String

    /// Opens the client on the server named `server`, by default the one
    /// $JACK_DEFAULT_SERVER names (never starting one). Tests name theirs:
    /// setting the variable in a process whose other threads read it is a race.
    /// `activate` false: the ports exist but cannot be connected until
    /// `activate()` (what a client shows between registering its ports and
    /// activating; tests use it to plug a controller in at that moment).
    init(name asked: String, server: String? = nil, activate: Bool = true) throws(MidiError) {
        let (h, text) = withErrorText { e, n in
            if let server { server.withCString { midishim_jack_open(asked, $0, activate, e, n) } } else { midishim_jack_open(asked, nil, activate, e, n) }
        }
        guard let h else { throw MidiError(description: text) }
        handle = h
        name = nameList { midishim_jack_name(h, $0, $1) }.first ?? asked
    }

    deinit { midishim_jack_close(handle) }

    /// Activates a client opened with `activate: false`.
    func activate() throws(MidiError) {
        let (ok, text) = withErrorText { midishim_jack_activate(handle, $0, $1) }
        if !ok { throw MidiError(description: text) }
    }

    /// False once the server shut the client down.
    var alive: Bool { midishim_jack_alive(handle) }
    /// True once after ports appeared, went away or were (dis)connected.
    func takeChanged() -> Bool { midishim_jack_take_changed(handle) }
    /// Other clients' MIDI outputs (`sources`) or inputs.
    func ports(sources: Bool) -> [String] { nameList { midishim_jack_ports(handle, sources, $0, $1) } }
    /// Connects `port` to our input (`fromPort`) or our output to `port`.
    func connect(_ port: String, fromPort: Bool) throws(MidiError) {
        let (ok, text) = withErrorText { midishim_jack_connect(handle, port, fromPort, $0, $1) }
        if !ok { throw MidiError(description: text) }
    }
    /// How many ports our output feeds now.
    var outputConnections: Int { Int(midishim_jack_output_connections(handle)) }
    /// The next message that came in: its size, or nil when none waits.
    func next(into buffer: inout [UInt8]) -> Int? {
        let n = buffer.withUnsafeMutableBufferPointer { midishim_jack_read(handle, $0.baseAddress, $0.count) }
        return n > 0 ? Int(n) : nil
    }
    /// Queues one message for our output; false when the queue is full.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { midishim_jack_send(handle, $0.baseAddress, $0.count) } }
    /// Messages dropped because a queue was full.
    var dropped: Int { Int(midishim_jack_dropped(handle)) }
}
