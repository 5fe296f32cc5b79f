import Engine
import Foundation
import Testing
@testable import LiveApp
import TestSupport

/// `physarum render` and `physarum presets` as a user runs them.
@Suite struct RenderCommandTests {
    static let small = ["--preset", "neon-veins", "--size", "96x54", "--agents", "4000", "--steps-per-frame", "5"]

    /// The files of a folder, sorted, with their bytes.
    static func files(_ dir: String) throws -> [(String, Data)] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted().map {
            ($0, try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)))
        }
    }

    @Test func sameArgumentsGiveByteIdenticalPNGs() throws {
        let a = makeTempDir().path, b = makeTempDir().path
        #expect(try RenderCommand.run(Self.small + ["--frames", "3", "--out", a]) == 0)
        #expect(try RenderCommand.run(Self.small + ["--frames", "3", "--threads", "1", "--out", b]) == 0)
        let fa = try Self.files(a), fb = try Self.files(b)
        #expect(fa.map(\.0) == ["frame-000001.png", "frame-000002.png", "frame-000003.png"])
        #expect(fa.map(\.1) == fb.map(\.1), "same arguments (any thread count) ⇒ same bytes")
        #expect(fa[0].1 != fa[2].1, "the frames move on")
        let img = try PNGCodec.decode([UInt8](fa[2].1))
        #expect(img.width == 96 && img.height == 54)
        // Another seed gives another picture.
        let c = makeTempDir().path
        #expect(try RenderCommand.run(Self.small + ["--frames", "3", "--seed", "2", "--out", c]) == 0)
        #expect(try Self.files(c)[2].1 != fa[2].1)
    }

    @Test func progressGoesToStandardError() throws {
        let dir = makeTempDir().path
        let r = try PhysarumProcess.run(["render"] + Self.small + ["--frames", "4", "--out", dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("frame 4/4"), "\(r.stderr)")
        #expect(r.stderr.contains("fps") && r.stderr.contains("ETA"))
        #expect(r.stdout.isEmpty)
    }

    @Test func usageErrorsExitTwoWithOneLine() throws {
        let dir = makeTempDir().path
        for (args, message) in [
            (["render", "--out", dir], "--preset NAME is required"),
            (["render", "--preset", "no-such-look", "--out", dir], "unknown preset 'no-such-look'"),
            (["render", "--preset", "neon-veins", "--size", "95x54", "--out", dir + "/x.mp4"], "even width and height"),
            (["render", "--preset", "neon-veins", "--frames", "2", "--out", dir + "/one.png"], "give a folder"),
            (["render", "--preset", "neon-veins", "--size", "big", "--out", dir], "--size must look like"),
        ] {
            let r = try PhysarumProcess.run(args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test(.enabled(if: AudioRenderTests.ffmpegFound, AudioRenderTests.ffmpegReason))
    func videoGoesThroughFFmpeg() throws {
        let out = makeTempDir().path + "/clip.mp4"
        let r = try PhysarumProcess.run(["render"] + Self.small + ["--frames", "6", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: VideoEncoder.findExecutable("ffprobe")!)
        probe.arguments = ["-v", "error", "-select_streams", "v:0", "-count_frames",
                           "-show_entries", "stream=codec_name,pix_fmt,width,height,nb_read_frames", "-of", "csv=p=0", out]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,96,54,yuv420p,6", "ffprobe: \(text)")
    }

    @Test func missingFFmpegIsSaidClearly() throws {
        let out = makeTempDir().path + "/clip.mp4"
        let r = try PhysarumProcess.run(["render"] + Self.small + ["--out", out], environment: ["PATH": "/nonexistent"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("ffmpeg is not installed"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func presetsListShowsTheCatalog() throws {
        let r = try PhysarumProcess.run(["presets", "list"])
        #expect(r.status == 0, "\(r.stderr)")
        let ids = PresetCatalog.factory().presets.map(\.id)
        #expect(ids.count >= 16)
        for id in ids { #expect(r.stdout.contains(id)) }
        let json = try PhysarumProcess.run(["presets", "list", "--json"])
        #expect(json.stdout.split(separator: "\n").count == ids.count)
    }

    /// A configs folder holding the given preset files.
    static func configs(_ presets: [String: String]) throws -> String {
        let root = makeTempDir().path
        try FileManager.default.createDirectory(atPath: root + "/presets", withIntermediateDirectories: true)
        for (name, text) in presets { try text.write(toFile: root + "/presets/" + name, atomically: true, encoding: .utf8) }
        return root
    }

    @Test func aBrokenPresetFileIsReportedAndSkipped() throws {
        let root = try Self.configs([
            "fine.json": #"{"format":1,"name":"Fine","tags":[],"params":{"global.agents":2000}}"#,
            "broken.json": #"{"format":1,"name":"Broken","params":{"effects.bloom":5}}"#,
        ])
        let r = try PhysarumProcess.run(["presets", "list"], environment: ["PHYSARUM_CONFIG_DIR": root])
        #expect(r.status == 0)
        #expect(r.stdout.contains("fine") && !r.stdout.contains("broken"))
        #expect(r.stderr.contains("broken.json:1:") && r.stderr.contains(": params.effects.bloom: must be within"), "\(r.stderr)")
        let missing = try PhysarumProcess.run(["presets", "list"], environment: ["PHYSARUM_CONFIG_DIR": root + "/nope"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("PHYSARUM_CONFIG_DIR"), "\(missing.stderr)")
    }

    @Test func contactSheetTilesEveryPreset() throws {
        let root = try Self.configs([
            "a.json": #"{"format":1,"name":"Alpha","tags":[],"params":{"global.agents":20000}}"#,
            "b.json": ##"{"format":1,"name":"Beta","tags":[],"params":{"global.agents":20000,"render.blendMode":"paint","render.background":"#f0f0e8"}}"##,
            "c.json": #"{"format":1,"name":"Gamma","tags":[],"params":{"global.agents":20000,"effects.kaleidoscope":3}}"#,
        ])
        let out = makeTempDir().path + "/sheet.png"
        let r = try PhysarumProcess.run(["presets", "contact-sheet", "--out", out, "--steps", "20", "--tile", "64x36",
                                         "--field", "128x72", "--columns", "2"], environment: ["PHYSARUM_CONFIG_DIR": root])
        #expect(r.status == 0, "\(r.stderr)")
        let sheet = try PNGCodec.read(out)
        // 2 columns × 2 rows of (64 + 8) × (36 + 24 + 8) cells, plus the outer gap.
        #expect(sheet.width == 2 * 72 + 8 && sheet.height == 2 * 68 + 8)
        // The paint tile (second) shows its pale paper.
        #expect(sheet.pixel(x: 8 + 72 + 32, y: 8 + 18).r > 150 || sheet.pixel(x: 8 + 72 + 5, y: 8 + 5).r > 150)
    }
}
