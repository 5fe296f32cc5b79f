import Foundation
import Glibc
import Testing
@testable import LiveApp
import TestSupport

/// The MIDI shim's failure paths, without a MIDI server: a JACK socket that
/// is left over with no server behind it (a server that died), and no ALSA
/// sequencer. RtMidi's error text must be copied while its exception lives
/// (Debian 12's rtmidi 5.0 C wrapper handed out a pointer into a destroyed
/// exception: different bytes each run), and the libraries' own chatter must
/// go to the library log, not stderr. Serialized: it sets
/// JACK_DEFAULT_SERVER and redirects file descriptor 2.
@Suite(.serialized) struct MidiShimTests {
    /// A Unix socket bound at JACK 2's socket path for `server` with nothing
    /// listening: what a killed jackd leaves behind. Removed by `close`.
    final class LeftOverJackSocket {
        let path: String
        let fd: Int32
        init(server: String, folder: String = "/dev/shm") throws {
            path = "\(folder)/jack_\(server)_\(getuid())_0"
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var a = sockaddr_un()
            a.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &a.sun_path) { raw in
                for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
            }
            unlink(path)
            let rc = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            guard rc == 0 else { throw ShimTestError("cannot bind \(path): \(String(cString: strerror(errno)))") }
        }
        func close() {
            Glibc.close(fd)
            unlink(path)
        }
    }

    /// Runs `body` with file descriptor 2 sent to a file; returns what the
    /// libraries wrote there. The test runner writes its own events to the
    /// same descriptor from tests running beside this one ("◇ Test … started",
    /// "✔ …", "↳ …" and their indented continuation lines: seen in CI): those
    /// lines are left out, so what remains is what a library printed.
    static func capturingStderr(_ body: () -> Void) throws -> String {
        try capturingWholeStderr(body).split(separator: "\n", omittingEmptySubsequences: true)
            .filter { line in
                guard let first = line.unicodeScalars.first else { return false }
                return first.value < 0x80 && first != " " && first != "\t"
            }
            .joined(separator: "\n")
    }

    static func capturingWholeStderr(_ body: () -> Void) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("midi-stderr-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let file = open(url.path, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
        guard file >= 0 else { throw ShimTestError("cannot open \(url.path)") }
        fflush(nil)  // every stream (stderr among them)
        let saved = dup(2)
        dup2(file, 2)
        body()
        fflush(nil)  // every stream (stderr among them)
        dup2(saved, 2)
        Glibc.close(saved)
        Glibc.close(file)
        defer { try? FileManager.default.removeItem(at: url) }
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    static func readable(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
    }

    @Test func rtMidiOnAJackSocketWithNoServerGivesItsOwnTextEveryTimeAndNoStderr() throws {
        let server = "physarum-gone-\(getpid())"
        let socket = try LeftOverJackSocket(server: server)
        defer { socket.close() }
        setenv("JACK_DEFAULT_SERVER", server, 1)
        defer { unsetenv("JACK_DEFAULT_SERVER") }
        MidiLibraryLog.install(verbose: false)
        #expect(MidiSystem.available(sequencer: "/nonexistent/seq") == .jack, "the left-over socket looks like a server")
        var texts: [String] = []
        let printed = try Self.capturingStderr {
            for _ in 0..<3 {
                do {
                    _ = try RtMidiDevice(.jack, output: false, client: "Physarum Probe", connectTo: nil, ownPort: "in")
                    texts.append("opened?")
                } catch {
                    texts.append("\(error)")
                }
            }
        }
        print("RtMidi on a dead JACK server: \(texts[0])")
        #expect(texts.allSatisfy { $0 == texts[0] }, "the same text each run: \(texts)")
        #expect(Self.readable(texts[0]), "printable text, not freed memory: \(texts[0].debugDescription)")
        #expect(texts[0].contains("JACK"), "RtMidi's own message: \(texts[0])")
        #expect(printed.isEmpty, "library noise kept off stderr: \(printed)")
        #expect(MidiLibraryLog.recent.contains { $0.contains("server") }, "the noise went to the library log: \(MidiLibraryLog.recent)")
    }

    @Test func theAppsJackClientSaysWhyWhenTheServerIsGone() throws {
        let server = "physarum-gone2-\(getpid())"
        let socket = try LeftOverJackSocket(server: server)
        defer { socket.close() }
        setenv("JACK_DEFAULT_SERVER", server, 1)
        defer { unsetenv("JACK_DEFAULT_SERVER") }
        MidiLibraryLog.install(verbose: false)
        var text = ""
        let printed = try Self.capturingStderr {
            do { _ = try JackMidiClient(name: "Physarum Probe") } catch { text = "\(error)" }
        }
        #expect(text.contains("no JACK server answers"), "\(text)")
        #expect(printed.isEmpty, "no library noise on stderr: \(printed)")
    }

    @Test(.enabled(if: access("/dev/snd/seq", F_OK) != 0, "this machine has an ALSA sequencer"))
    func rtMidiWithoutTheAlsaSequencerGivesItsTextAndNoStderr() throws {
        MidiLibraryLog.install(verbose: false)
        var texts: [String] = []
        let printed = try Self.capturingStderr {
            for output in [false, true, false] {
                do { _ = try RtMidiDevice(.alsa, output: output, client: "Physarum Probe", connectTo: nil, ownPort: "p") } catch {
                    texts.append("\(error)")
                }
            }
        }
        #expect(texts.count == 3)
        #expect(texts[0] == texts[2], "\(texts)")
        #expect(texts.allSatisfy { Self.readable($0) && $0.contains("ALSA") }, "\(texts)")
        #expect(printed.isEmpty, "ALSA lib's and RtMidi's messages kept off stderr: \(printed)")
    }

    @Test func jackOneAndJackTwoSocketsAreBothFound() throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["JACK_DEFAULT_SERVER": "studio"]
        #expect(MidiSystem.jackSocket(environment: env, folders: [dir.path]) == nil)
        // JACK 1 (jackd1): <tmp>/jack-<uid>/<server>/jack_0
        let one = dir.appendingPathComponent("jack-\(getuid())/studio")
        try FileManager.default.createDirectory(at: one, withIntermediateDirectories: true)
        let s1 = try LeftOverJackSocket(server: "unused", folder: dir.path)  // a socket to move into place
        defer { s1.close() }
        #expect(rename(s1.path, one.appendingPathComponent("jack_0").path) == 0)
        #expect(MidiSystem.jackSocket(environment: env, folders: [dir.path]) == one.appendingPathComponent("jack_0").path)
        #expect(MidiSystem.available(environment: env, sequencer: "/nonexistent", folders: [dir.path]) == .jack)
        // A regular file is not a server.
        #expect(MidiSystem.jackSocket(environment: ["JACK_DEFAULT_SERVER": "other"], folders: [dir.path]) == nil)
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("jack_other_\(getuid())_0").path, contents: Data())
        #expect(MidiSystem.jackSocket(environment: ["JACK_DEFAULT_SERVER": "other"], folders: [dir.path]) == nil)
        // JACK 2 (jackd2): <shm>/jack_<server>_<uid>_0
        let s2 = try LeftOverJackSocket(server: "studio2", folder: dir.path)
        defer { s2.close() }
        #expect(MidiSystem.jackSocket(environment: ["JACK_DEFAULT_SERVER": "studio2"], folders: [dir.path]) == s2.path)
    }
}

struct ShimTestError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
