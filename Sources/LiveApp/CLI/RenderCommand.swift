import Engine
import Foundation

/// `physarum render`: offline frames of a preset as PNGs or a video.
enum RenderCommand: Subcommand {
    static let name = "render"
    static let summary = "render a preset offline to PNG frames or a video (ffmpeg)"
    static let help = """
    Usage: physarum render --preset NAME --out DIR|FILE.png|FILE.mp4 [--frames N]
                           [--size WxH] [--field WxH] [--agents N] [--seed S]
                           [--steps-per-frame K] [--warmup STEPS] [--fps F] [--threads N]

    Simulates the preset and renders N frames (default 1).
      --preset NAME          a factory preset (id or name, see `physarum presets list`)
                             or a path to a preset .json file
      --out DIR              numbered PNGs DIR/frame-000001.png … (folder created)
      --out FILE.png         one PNG (with --frames 1)
      --out FILE.mp4         H.264 video (yuv420p) through ffmpeg, which must be installed
      --size WxH             output size (default 1280x720; even sides for video)
      --field WxH            simulation field size (default: the output size). A field
                             of another aspect ratio is scaled to cover the output,
                             centred, and the overhang is cropped (never stretched).
      --agents N             override the preset's agent count (presets are tuned for
                             a 1280x720 field; on a smaller field scale it by area to
                             keep their density, e.g. a quarter for 640x360)
      --seed S               randomness seed (default 1)
      --steps-per-frame K    simulation steps per frame (default: the preset's sim
                             speed; fractions accumulate). Live, sim speed is steps
                             per displayed frame, so for the same tempo as a 60 Hz
                             display use --fps 60 with the same steps per frame.
      --warmup STEPS         steps before the first frame (default 0)
      --fps F                video frame rate (default 60)
      --threads N            worker threads (default: one per core)

    The same arguments always give byte-identical PNGs. Progress (frames done,
    fps, ETA) goes to stderr.
    """

    static func run(_ args: [String]) throws -> Int32 {
        var r = ArgumentReader(args)
        guard let presetArg = try r.string("--preset") else { throw UsageError("--preset NAME is required") }
        guard let out = try r.string("--out") else { throw UsageError("--out DIR|FILE.png|FILE.mp4 is required") }
        let frames = try r.int("--frames", in: 1...10_000_000) ?? 1
        let size = try r.size("--size") ?? (1280, 720)
        let field = try r.size("--field")
        let agents = try r.int("--agents", in: 1...8_000_000)
        let seed = try r.int("--seed", in: 0...Int.max) ?? 1
        let spf = try r.double("--steps-per-frame", in: 0...1000)
        let warmup = try r.int("--warmup", in: 0...10_000_000) ?? 0
        let fps = try r.double("--fps", in: 1...240) ?? 60
        let threads = try r.int("--threads", in: 1...64) ?? Simulation.defaultThreads
        try r.finish()

        let preset = try PresetSource.resolve(presetArg)
        var job = OfflineRender(preset: preset)
        job.frames = frames
        (job.width, job.height) = size
        job.fieldWidth = field?.width
        job.fieldHeight = field?.height
        job.agents = agents
        job.seed = UInt64(seed)
        job.stepsPerFrame = spf
        job.warmup = warmup
        job.threads = threads

        let sink = try FrameSink.open(out, frames: frames, width: size.width, height: size.height, fps: fps)
        var progress = ProgressReporter(total: frames, label: "physarum render")
        do {
            try job.run(progress: { progress.update($0) }) { i, image in
                do {
                    try sink.write(i, image)
                } catch let e as RuntimeFailure {
                    throw e
                } catch {
                    throw RuntimeFailure("cannot write frame \(i + 1): \(error)")
                }
            }
        } catch {
            try? sink.close()
            throw error
        }
        try sink.close()
        return 0
    }
}
