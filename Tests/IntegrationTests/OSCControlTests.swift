import Foundation
import Testing
import TestSupport

/// OSC through the real window under Xvfb: liblo's `oscsend` drives every
/// documented address on loopback and the effect shows in `--state-file`; a
/// flood of malformed packets is counted and decoded off the frame thread.
@Suite(.serialized) struct OSCControlTests {
    struct Window {
        let app: AppProcess
        let state: URL
        let port: Int

        var json: [String: Any]? { readJSON(state) }
        var live: [String: Any]? { json?["liveControl"] as? [String: Any] }
        var osc: [String: Any]? { live?["osc"] as? [String: Any] }
        func oscCount(_ key: String) -> Int { osc?[key] as? Int ?? -1 }
        func param(_ id: String) -> Double? { ((json?["params"] as? [String: Any])?[id] as? NSNumber)?.doubleValue }
    }

    /// A window listening for OSC on `port` (0: any), with the fixture's presets.
    static func open(_ fx: RemoteFixture, port: Int = 0, extra: [String] = [], session: Bool = false) throws -> Window {
        let display = try #require(TestDisplay.display, "Xvfb is needed (scripts/test installs it)")
        fx.env["DISPLAY"] = display
        let state = fx.file("osc-window-\(UUID().uuidString).json")
        let app = try AppProcess((session ? [] : ["--no-session"]) + ["--no-midi", "--size", "800x600", "--field", "320x180",
                                  "--agents", "20000", "--osc-in", String(port), "--state-file", state.path] + extra, environment: fx.env)
        var bound: Int?
        let up = poll(seconds: 90) {
            bound = ((readJSON(state)?["liveControl"] as? [String: Any])?["osc"] as? [String: Any])?["inPort"] as? Int
            return bound != nil
        }
        if !up { app.stop() }
        try #require(up, "the window listens for OSC: \(app.stderr)")
        return Window(app: app, state: state, port: bound!)
    }

    @Test func everyAddressDrivesTheWindow() throws {
        try #require(OSCTools.available, "oscsend is needed (liblo-tools; scripts/test installs it)")
        let fx = try RemoteFixture()
        let w = try Self.open(fx, extra: ["--demo", "--preset", "alpha"])
        defer { w.app.stop() }
        func expectSoon(_ what: String, _ cond: () -> Bool) {
            let ok = poll(seconds: 30, cond)
            #expect(ok, "\(what): \(w.app.stderr.suffix(2000))")
        }

        try OSCTools.send(port: w.port, "/physarum/param/effects.vignette", "f", "0.77")
        expectSoon("a parameter") { abs((w.param("effects.vignette") ?? 0) - 0.77) < 1e-6 }
        try OSCTools.send(port: w.port, "/physarum/preset/next")
        expectSoon("next preset") { w.json?["preset"] as? String == "beta" }
        try OSCTools.send(port: w.port, "/physarum/preset/prev")
        expectSoon("previous preset") { w.json?["preset"] as? String == "alpha" }
        try OSCTools.send(port: w.port, "/physarum/preset/slot", "i", "1")
        expectSoon("an empty slot is reported") {
            ((w.json?["notices"] as? [String: Any])?["history"] as? [[String: Any]])?.contains { ($0["text"] as? String)?.contains("lot 1") == true } == true
        }
        try OSCTools.send(port: w.port, "/physarum/blackout", "i", "1")
        expectSoon("blackout on") { w.live?["blackout"] as? Bool == true }
        try OSCTools.send(port: w.port, "/physarum/blackout", "i", "0")
        expectSoon("blackout off") { w.live?["blackout"] as? Bool == false }
        try OSCTools.send(port: w.port, "/physarum/cycle", "i", "1")
        expectSoon("cycling on") { w.json?["playlist"] as? Bool == true }
        try OSCTools.send(port: w.port, "/physarum/cycle", "i", "0")
        expectSoon("cycling off") { w.json?["playlist"] as? Bool == false }
        let depths = try #require(w.live?["routeDepths"] as? [NSNumber])
        try #require(!depths.isEmpty, "the default audio config has routes")
        try OSCTools.send(port: w.port, "/physarum/route/1/depth", "f", "1.25")
        expectSoon("route 1 depth") { ((w.live?["routeDepths"] as? [NSNumber])?.first?.doubleValue == 1.25) }
        try OSCTools.send(port: w.port, "/physarum/tempo", "f", "128")
        expectSoon("tempo from OSC, held by the beat tracker") {
            let t = w.live?["tempo"] as? [String: Any]
            return t?["source"] as? String == "tracker" && abs(((t?["bpm"] as? NSNumber)?.doubleValue ?? 0) - 128) < 1
        }
        let before = w.json?["params"] as? [String: Any]
        try OSCTools.send(port: w.port, "/physarum/mutate")
        expectSoon("mutate changes the look") { !NSDictionary(dictionary: w.json?["params"] as? [String: Any] ?? [:]).isEqual(to: before ?? [:]) }
        let mutated = w.json?["params"] as? [String: Any]
        try OSCTools.send(port: w.port, "/physarum/randomize")
        expectSoon("randomize changes the look") { !NSDictionary(dictionary: w.json?["params"] as? [String: Any] ?? [:]).isEqual(to: mutated ?? [:]) }
        try OSCTools.send(port: w.port, "/physarum/morph", "f", "1")
        expectSoon("morph to the next preset's exposure") { abs((w.param("global.exposure") ?? 0) - 1.5) < 1e-6 }
        try OSCTools.send(port: w.port, "/physarum/learn", "s", "param/effects.bloom")
        expectSoon("learn armed") { (w.live?["midi"] as? [String: Any])?["learning"] as? String == "param/effects.bloom" }
        let taps = w.oscCount("accepted")
        try OSCTools.send(port: w.port, "/physarum/tap")
        expectSoon("tap taken") { w.oscCount("accepted") == taps + 1 }
        #expect(w.oscCount("rejected") == 0)
        #expect(w.oscCount("decodedOnFrameThread") == 0)
        w.app.signal(SIGTERM)
        #expect(w.app.wait(seconds: 30) == 0)
    }

    @Test func tenThousandMalformedPacketsAreCountedOffTheFrameThread() throws {
        try #require(OSCTools.available, "oscsend is needed (liblo-tools; scripts/test installs it)")
        let fx = try RemoteFixture()
        let w = try Self.open(fx, extra: ["--no-audio"])
        defer { w.app.stop() }
        var rng = SystemRandomNumberGenerator()
        var packets: [[UInt8]] = []
        for i in 0..<10_000 {
            switch i % 5 {
            case 0: packets.append((0..<(1 + i % 61)).map { _ in UInt8.random(in: 0...255, using: &rng) })  // noise
            case 1: packets.append(Array("/physarum/param/effects.vignette\0\0\0\0,f\0\0".utf8))  // float missing
            case 2: packets.append(Array("/physarum/param".utf8))  // not padded
            case 3: packets.append(Array("#bundle\0\0\0\0\0\0\0\0\u{1}\0\0\0\u{40}".utf8))  // element overruns
            default: packets.append(Array("/physarum/nothing\0\0\0,i\0\0\0\0\0\u{7}".utf8))  // unknown address
            }
        }
        // In chunks of 500 (they fit the socket's buffer), each once the app has read the last.
        var drops = 0
        for start in stride(from: 0, to: packets.count, by: 500) {
            OSCTools.sendRaw(Array(packets[start..<min(start + 500, packets.count)]), port: w.port)
            let sent = min(start + 500, packets.count)
            #expect(poll(seconds: 120) {
                drops = OSCTools.kernelDrops(port: w.port)
                return w.oscCount("packets") + drops >= sent
            }, "every packet is either read and counted or dropped by the kernel (\(drops)): \(String(describing: w.osc))")
        }
        #expect(w.oscCount("packets") + drops == 10_000)
        #expect(drops == 0, "none lost on the way")
        #expect(w.oscCount("rejected") == w.oscCount("packets"), "every one of them is refused")
        #expect(w.oscCount("accepted") == 0)
        #expect(w.oscCount("decodedOnFrameThread") == 0)
        #expect(w.oscCount("decodedOnOSCThread") == w.oscCount("packets"), "all decoding ran on the OSC thread")
        #expect(w.app.isRunning)
        try OSCTools.send(port: w.port, "/physarum/param/effects.vignette", "f", "0.25")
        #expect(poll(seconds: 30) { abs((w.param("effects.vignette") ?? 0) - 0.25) < 1e-6 }, "still listening after the flood")
        w.app.signal(SIGTERM)
        #expect(w.app.wait(seconds: 30) == 0)
        print("OSC flood: \(w.oscCount("packets")) read, \(drops) dropped by the kernel")
    }

    @Test func edgesTrueFalseImpulseMissingRoutesLongAddressesAndKernelDrops() throws {
        try #require(OSCTools.available, "oscsend is needed (liblo-tools; scripts/test installs it)")
        let fx = try RemoteFixture()
        let w = try Self.open(fx, extra: ["--no-audio", "--preset", "alpha"])
        defer { w.app.stop() }
        // T, F and I with no data bytes (OSC 1.1): blackout on and off, a tap.
        try OSCTools.send(port: w.port, "/physarum/blackout", "T")
        #expect(poll(seconds: 30) { w.live?["blackout"] as? Bool == true }, "T: \(w.app.stderr.suffix(500))")
        try OSCTools.send(port: w.port, "/physarum/blackout", "F")
        #expect(poll(seconds: 30) { w.live?["blackout"] as? Bool == false }, "F")
        let taken = w.oscCount("accepted")
        try OSCTools.send(port: w.port, "/physarum/tap", "I")
        #expect(poll(seconds: 30) { w.oscCount("accepted") == taken + 1 }, "I (impulse)")
        #expect(w.oscCount("rejected") == 0)
        // A route past the config's routes is refused and counted, and changes nothing.
        let depths = try #require(w.live?["routeDepths"] as? [NSNumber]).map(\.doubleValue)
        try OSCTools.send(port: w.port, "/physarum/route/\(depths.count + 1)/depth", "f", "1.5")
        #expect(poll(seconds: 30) { w.oscCount("rejected") == 1 }, "refused and counted")
        #expect((w.live?["routeDepths"] as? [NSNumber])?.map(\.doubleValue) == depths)
        #expect(w.app.stderr.contains("there is no route \(depths.count + 1) (the config has \(depths.count))"), "\(w.app.stderr.suffix(500))")
        // A 27 KB address is logged cut, with its length.
        let long = "/physarum/param/" + String(repeating: "x", count: 27_000)
        var packet = Array(long.utf8) + [0]
        while packet.count % 4 != 0 { packet.append(0) }
        packet += Array(",f\0\0".utf8) + [0x3F, 0x80, 0, 0]
        OSCTools.sendRaw([packet], port: w.port)
        #expect(poll(seconds: 30) { w.oscCount("rejected") == 2 })
        #expect(poll(seconds: 10) { w.app.stderr.contains("(27016 bytes)") }, "the length is named")
        let longest = w.app.stderr.split(separator: "\n").map(\.utf8.count).max() ?? 0
        #expect(longest < 400, "no line echoes the address: longest \(longest) bytes")
        // A flood the kernel partly drops: the count shown is the kernel's.
        var kernel = 0
        for _ in 0..<40 where kernel == 0 {
            OSCTools.sendRaw(Array(repeating: Array("/physarum/nothing\0\0\0,\0\0\0".utf8), count: 5000), port: w.port)
            kernel = OSCTools.kernelDrops(port: w.port)
        }
        try #require(kernel > 0, "the kernel dropped nothing (cannot check the count)")
        // The count comes with each datagram read: one more after the flood carries the final one.
        #expect(poll(seconds: 60) {
            OSCTools.sendRaw([Array("/physarum/nothing\0\0\0,\0\0\0".utf8)], port: w.port)
            return w.oscCount("droppedByKernel") == OSCTools.kernelDrops(port: w.port) && w.oscCount("droppedByKernel") > 0
        },
                "shown \(w.oscCount("droppedByKernel")), /proc/net/udp says \(OSCTools.kernelDrops(port: w.port))")
        #expect(w.oscCount("dropped") >= w.oscCount("droppedByKernel"))
        print("OSC kernel drops: \(w.oscCount("droppedByKernel")) shown, \(OSCTools.kernelDrops(port: w.port)) in /proc/net/udp")
        w.app.signal(SIGTERM)
        #expect(w.app.wait(seconds: 30) == 0)
    }

    @Test func oscSettingsSurviveARestartThroughTheSession() throws {
        let fx = try RemoteFixture()
        let port = OSCTools.freeUDPPort()
        let first = try Self.open(fx, port: port, extra: ["--no-audio"], session: true)
        first.app.signal(SIGTERM)
        #expect(first.app.wait(seconds: 30) == 0)
        // A second start without --osc-in: the session brings the port back.
        let display = try #require(TestDisplay.display)
        fx.env["DISPLAY"] = display
        let state = fx.file("osc-restart.json")
        let third = try AppProcess(["--no-midi", "--no-audio", "--size", "800x600", "--field", "320x180", "--agents", "20000",
                                    "--state-file", state.path], environment: fx.env)
        defer { third.stop() }
        #expect(poll(seconds: 90) {
            ((readJSON(state)?["liveControl"] as? [String: Any])?["osc"] as? [String: Any])?["inPort"] as? Int == port
        }, "the restored session listens on \(port) again: \(third.stderr)")
        #expect(third.stderr.contains("OSC in: listening on UDP 0.0.0.0:\(port) (every interface: anyone on the network can control "
                                      + "this window; remembered from the last session, --osc-in off turns it off)"),
                "a notice says where it listens and why: \(third.stderr)")
        third.signal(SIGTERM)
        #expect(third.wait(seconds: 30) == 0)
        // --osc-in off: not even the session's port.
        let offState = fx.file("osc-off.json")
        let off = try AppProcess(["--no-midi", "--no-audio", "--size", "800x600", "--field", "320x180", "--agents", "20000",
                                  "--osc-in", "off", "--state-file", offState.path], environment: fx.env)
        defer { off.stop() }
        #expect(poll(seconds: 90) { (readJSON(offState)?["liveControl"] as? [String: Any])?["osc"] != nil })
        #expect(((readJSON(offState)?["liveControl"] as? [String: Any])?["osc"] as? [String: Any])?["inPort"] is NSNull)
        #expect(!off.stderr.contains("OSC in: listening"))
        off.signal(SIGTERM)
        #expect(off.wait(seconds: 30) == 0)
    }

    /// `--osc-in ADDR:PORT` binds that interface only (the kernel's socket
    /// table says so), the notice names it, and messages to it work;
    /// `--osc-out` to a name that does not resolve is an error notice.
    @Test func oscInOnOneInterfaceAndAnUnresolvableOutTarget() throws {
        try #require(OSCTools.available, "oscsend is needed (liblo-tools; scripts/test installs it)")
        let fx = try RemoteFixture()
        let port = OSCTools.freeUDPPort()
        let display = try #require(TestDisplay.display, "Xvfb is needed (scripts/test installs it)")
        fx.env["DISPLAY"] = display
        let state = fx.file("osc-loopback.json")
        let app = try AppProcess(["--no-session", "--no-midi", "--no-audio", "--size", "800x600", "--field", "320x180",
                                  "--agents", "20000", "--osc-in", "127.0.0.1:\(port)", "--osc-out", "nohost.invalid:9",
                                  "--state-file", state.path], environment: fx.env)
        defer { app.stop() }
        let w = Window(app: app, state: state, port: port)
        #expect(poll(seconds: 90) { w.osc?["inAddress"] as? String == "127.0.0.1:\(port)" }, "\(app.stderr)")
        let sockets = (try? String(contentsOfFile: "/proc/net/udp", encoding: .utf8)) ?? ""
        let local = String(format: "0100007F:%04X", port)
        #expect(sockets.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first.map(String.init) == local },
                "bound to 127.0.0.1 only, not 0.0.0.0: \(sockets)")
        #expect(app.stderr.contains("OSC in: listening on UDP 127.0.0.1:\(port) (this machine only)"), "\(app.stderr)")
        #expect(app.stderr.contains("OSC out to nohost.invalid:9: cannot resolve 'nohost.invalid'"), "a clear error: \(app.stderr)")
        #expect(w.osc?["out"] is NSNull, "nothing pretends to send")
        try OSCTools.send(port: port, "/physarum/param/effects.vignette", "f", "0.61")
        #expect(poll(seconds: 30) { abs((w.param("effects.vignette") ?? 0) - 0.61) < 1e-6 }, "loopback messages work")
        app.signal(SIGTERM)
        #expect(app.wait(seconds: 30) == 0)
    }

    @Test func aBadBindingsFileIsReportedWithLineAndReasonAndNeverOverwritten() throws {
        let fx = try RemoteFixture()
        let folder = fx.dir.appendingPathComponent("physarum")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("midi-bindings.json")
        let text = "{\"format\": 1, \"bindings\": [\n  {\"control\": {\"type\": \"cc\", \"channel\": 1, \"number\": 7},\n   \"target\": \"param/no.such\"}]}\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let w = try Self.open(fx, extra: ["--no-audio"])
        defer { w.app.stop() }
        let notice = "\(file.path):3:"
        #expect(poll(seconds: 30) {
            ((w.json?["notices"] as? [String: Any])?["history"] as? [[String: Any]])?.contains {
                let t = $0["text"] as? String ?? ""
                return t.contains(notice) && t.contains("unknown target 'param/no.such'") && $0["level"] as? String == "error"
            } == true
        }, "the notice names the file, line and reason: \(w.app.stderr)")
        // A learn armed and the window closed: the broken file is as it was.
        try OSCTools.send(port: w.port, "/physarum/learn", "s", "param/effects.bloom")
        w.app.signal(SIGTERM)
        #expect(w.app.wait(seconds: 30) == 0)
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
    }

    /// The window's own feature stream (`--osc-out`): one bundle per frame,
    /// received by liblo's `oscdump` — frame indices one after another, time
    /// rising, every frame with its eight levels and its onset flag, and the
    /// demo groove's hits among them.
    @Test func theWindowSendsItsFeaturesEveryFrame() throws {
        try #require(OSCTools.available, "oscdump is needed (liblo-tools; scripts/test installs it)")
        let fx = try RemoteFixture()
        let dump = try OSCTools.Dump(in: fx.dir)
        let w = try Self.open(fx, extra: ["--demo", "--osc-out", "127.0.0.1:\(dump.port)"])
        defer { w.app.stop() }
        var frames: [AnalyzeOSCTests.Frame] = []
        #expect(poll(seconds: 90) {
            frames = AnalyzeOSCTests.frames(dump.text)
            return frames.count >= 180 && frames.contains { $0.onset == true }
        }, "frames and an onset arrive: \(frames.count) frames, \(frames.filter { $0.onset == true }.count) onsets; \(w.app.stderr.suffix(1000))")
        let indices = frames.map(\.index)
        #expect(zip(indices, indices.dropFirst()).allSatisfy { $1 == $0 + 1 }, "one bundle per frame, none lost: \(indices.prefix(20))…")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.time > $0.time }, "the frame time rises")
        #expect(frames.dropLast().allSatisfy { $0.onset != nil }, "every frame carries its onset flag")
        let levels = dump.text.split(separator: "\n").filter { $0.contains(" /physarum/levels ") }
        #expect(levels.count >= frames.count - 1 && levels.allSatisfy { $0.split(separator: " ").count == 11 },
                "eight levels per frame: \(levels.first ?? "none")")
    }
}
