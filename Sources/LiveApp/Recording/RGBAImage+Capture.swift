import Engine

extension RGBAImage {
    /// A copy of `width × height` RGBA pixels read from `bytes` (e.g. the
    /// renderer's output buffer) — for a screenshot, which needs its own copy
    /// to hand to the I/O worker.
    init(copying bytes: UnsafeRawBufferPointer, width: Int, height: Int) {
        precondition(bytes.count >= width * height * 4, "buffer smaller than the frame")
        self.init(width: width, height: height, pixels: Array(bytes.prefix(width * height * 4)))
    }
}
