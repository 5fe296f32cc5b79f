import AudioReactive
import Engine
import Foundation
import LiveCore

/// `physarum render`: offline frames of a preset as PNGs or a video, optionally
/// driven by an audio file through an audio config.
enum RenderCommand: Subcommand {
    static let name = "render"
    static let summary = "render a preset offline (optionally driven by an audio file) to PNG frames or a video"
    static let help = """
    Usage: physarum render --preset NAME --out DIR|FILE.png|FILE.mp4 [--frames N]
                           [--audio FILE [--config CFG]]
                           [--size WxH] [--field WxH] [--agents N] [--seed S]
                           [--steps-per-frame K] [--warmup STEPS] [--fps F] [--threads N]
                           [--backend cpu|gpu]

    Simulates the preset and renders N frames (default 1), or, with --audio,
    as many frames as cover the whole audio file at --fps, the preset moved by
    the audio config's routes exactly as the live window moves it.
      --preset NAME          a factory preset (id or name, see `physarum presets list`)
                             or a path to a preset .json file
      --out DIR              numbered PNGs DIR/frame-000001.png … (folder created; a name
                             with another extension, such as x.gif, is refused)
      --out FILE.png         one PNG (with --frames 1)
      --out FILE.mp4         H.264 video (yuv420p) through ffmpeg, which must be installed;
                             with --audio the file's sound is muxed in (AAC)
      --audio FILE           an audio file (WAV, FLAC, OGG, … via libsndfile), analysed
                             offline on its own sample clock; the whole file is rendered
                             (--frames does not apply)
      --config CFG           the audio config: a path to a .json file or a name from
                             `physarum config list` (default: the built-in default
                             wiring, the same as configs/audio/default.json)
      --size WxH             output size (default 1280x720; even sides for video)
      --field WxH            simulation field size (default: the output size). A field
                             of another aspect ratio is scaled to cover the output,
                             centred, and the overhang is cropped (never stretched).
      --agents N             override the preset's agent count (presets are tuned for
                             a 1280x720 field; on a smaller field scale it by area to
                             keep their density, e.g. a quarter for 640x360)
      --seed S               randomness seed (default 1)
      --steps-per-frame K    simulation steps per frame (default: the preset's sim
                             speed; fractions accumulate as they do live)
      --warmup STEPS         steps before the first frame (default 0)
      --fps F                frame rate (default 60)
      --threads N            worker threads (default: one per core)
      --backend cpu|gpu      the engine (default cpu, the deterministic reference);
                             gpu renders with OpenGL 4.3 compute in an offscreen
                             context, and its frames are not bit-reproducible across
                             GPUs and drivers

    Tempo: sim speed is steps per displayed frame, live and offline alike, so
    --fps must match the live frame rate (60 on a 60 Hz display) for a render
    to move at the tempo the live window shows.

    Frame rule (with --audio): frame N is shown at t_N = N / fps seconds on
    the audio's sample clock. Each band's level is its value at the last
    analysis hop at or before t_N; its transient is the maximum over the hops
    in (t_N-1, t_N], so no hit between two frames is lost. The features are
    exactly what live analysis of the same samples gives.

    The same arguments always give byte-identical PNGs (on the CPU engine). Progress (frames done,
    fps, ETA) goes to stderr.
    """

    static func run(_ args: [String]) throws -> Int32 {
        var r = ArgumentReader(args)
        guard let presetArg = try r.string("--preset") else { throw UsageError("--preset NAME is required") }
        guard let out = try r.string("--out") else { throw UsageError("--out DIR|FILE.png|FILE.mp4 is required") }
        let framesArg = try r.int("--frames", in: 1...10_000_000)
        let audioPath = try r.string("--audio")
        let configArg = try r.string("--config")
        let size = try r.size("--size") ?? (1280, 720)
        let field = try r.size("--field")
        let agents = try r.int("--agents", in: 1...128_000_000)
        let seed = try r.int("--seed", in: 0...Int.max) ?? 1
        let spf = try r.double("--steps-per-frame", in: 0...1000)
        let warmup = try r.int("--warmup", in: 0...10_000_000) ?? 0
        let fps = try r.double("--fps", in: 1...240) ?? 60
        let threads = try r.int("--threads", in: 1...64) ?? Simulation.defaultThreads
        var backend = BackendKind.cpu
        if let b = try r.string("--backend") {
            guard let k = BackendKind(rawValue: b) else { throw UsageError("--backend: expected cpu or gpu, got '\(b)'") }
            backend = k
        }
        try r.finish()
        if audioPath == nil, configArg != nil { throw UsageError("--config needs --audio FILE (the config's routes follow the audio)") }
        if audioPath != nil, framesArg != nil { throw UsageError("--frames does not apply with --audio: the whole audio file is rendered") }
        let frames = framesArg ?? 1

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
        job.backend = backend
        if backend == .gpu {
            printError("physarum render: --backend gpu: frames are not bit-reproducible across GPUs and drivers (the CPU engine, the default, is)")
        }
        // An explicit count over the engine's limit is refused before anything is allocated; a preset's is lowered.
        if let agents, backend == .cpu {
            let limit = EngineSetup.cpuAgentLimit()
            if agents > limit.count { throw UsageError("--agents \(agents): over the most this machine runs, \(limit)") }
        }
        if let n = job.agentNotice { printError("physarum render: \(n)") }
        if let audioPath {
            let config = try configArg.map { arg in
                let loaded = try AudioConfigSource.resolve(arg)
                for w in loaded.warnings { printError("physarum render: " + ConfigCommand.warningLine(w, file: w.file ?? arg)) }
                return loaded.config
            } ?? AudioConfig.builtInDefault
            do {
                job.audio = try OfflineAudio(path: audioPath, config: config, fps: fps)
            } catch {
                throw RuntimeFailure(error.description)
            }
        }

        let total = job.frameCount
        let sink = try FrameSink.open(out, frames: total, width: size.width, height: size.height, fps: fps,
                                      audio: FrameSink.isVideo(out) ? audioPath : nil)
        var progress = ProgressReporter(total: total, label: "physarum render")
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
