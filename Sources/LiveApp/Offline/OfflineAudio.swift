import AudioReactive
import Engine
import Foundation

/// The audio side of an audio-reactive offline render, frame by frame as the
/// live loop does it: the file's analysis (the config's tuning, the file's own
/// sample rate) → DESIGN.md's frame rule at `fps` (`FrameFeatureFeed`) →
/// the features of each frame, for the pipeline's modulator (the config's routes).
///
/// Deterministic: the same file, config and fps give the same parameters.
/// Stateful (one pass over the file): use for one render, from one thread.
final class OfflineAudio {
    /// The audio file.
    let path: String
    /// The audio config in force.
    let config: AudioConfig
    /// Frames of the render: enough to cover the whole file at `fps`.
    let frameCount: Int
    /// Frames per second of the render.
    let fps: Double
    private let analysis: OfflineAnalysis
    private var feed: FrameFeatureFeed

    /// Opens `path` (libsndfile) and prepares its analysis with `config`.
    /// Throws a one-line message when the file cannot be read or holds no audio.
    init(path: String, config: AudioConfig, fps: Double) throws(AudioSourceError) {
        let source = try FileSource(path: path)
        guard source.frames > 0 else { throw AudioSourceError("audio file '\(path)' holds no samples") }
        self.path = path
        self.config = config
        frameCount = FrameFeatureFeed.frameCount(samples: source.frames, sampleRate: source.sampleRate, fps: fps)
        analysis = OfflineAnalysis(source: source, settings: config.tuning)
        feed = FrameFeatureFeed(fps: fps)
        self.fps = fps
    }

    /// The features of the next frame (the frame rule over the file's hops).
    func nextFeatures() throws(AudioSourceError) -> AudioFeatures {
        try feed.next(pulling: analysis.nextHop)
    }
}
