import Engine

/// The picture of the last frame, wherever the backend left it: in CPU
/// memory (the CPU backend renders straight into `image`) or in a GL texture
/// (the GPU backend), read back into `image` only when an output touches it
/// (recorder, screenshots, thumbnails, a software-GL panel blend).
/// Not thread-safe: the pipeline's thread.
public final class FramePicture {
    private let backend: (any EngineBackend)?
    private var storage: RGBAImage
    /// Whether `storage` holds the last frame.
    private var current = true

    init(backend: any EngineBackend) {
        self.backend = backend
        storage = RGBAImage(width: backend.outputWidth, height: backend.outputHeight)
    }

    /// A picture that is `image` (on the CPU), for outputs driven without a pipeline.
    public init(image: RGBAImage) {
        backend = nil
        storage = image
    }

    /// The GL texture holding the frame (RGBA8, row 0 at the top), or nil when
    /// the picture is on the CPU. Valid until the next frame.
    public var texture: UInt32? { current ? nil : backend?.pictureTexture }

    /// Picture size.
    public var width: Int { backend?.outputWidth ?? storage.width }
    public var height: Int { backend?.outputHeight ?? storage.height }

    /// The picture in CPU memory; the first access of a GPU frame reads it back.
    /// Writing to it makes the CPU copy the picture (`texture` becomes nil).
    public var image: RGBAImage {
        get {
            ensureCurrent()
            return storage
        }
        _modify {
            ensureCurrent()
            yield &storage
        }
    }

    /// Whether the picture lives in CPU memory now (no read-back needed).
    public var isOnCPU: Bool { current }

    func render(params: PresetParams, brightness: Double) {
        guard let backend else { return }
        current = backend.render(params: params, brightness: brightness, into: &storage)
    }

    private func ensureCurrent() {
        guard !current, let backend else { return }
        backend.readPicture(into: &storage)
        current = true
    }
}
