/// Scales RGBA frames of any size into a fixed frame size: uniformly, to
/// cover it (centred; the overhang of another aspect ratio is cropped, never
/// stretched), bilinear. The recorder uses it on its encoder thread so a
/// recording keeps its size while the governor changes the render size.
/// The column and row tables are made once per source size. One owner thread.
struct FrameScaler {
    let width: Int
    let height: Int
    private var source = (width: 0, height: 0)
    private var xs: [(i0: Int, i1: Int, w: Float)] = []
    private var ys: [(i0: Int, i1: Int, w: Float)] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Scales `src` (`sw × sh` RGBA) into `dst` (`width × height` RGBA).
    mutating func scale(_ src: UnsafeRawBufferPointer, width sw: Int, height sh: Int, into dst: UnsafeMutableRawBufferPointer) {
        precondition(src.count >= sw * sh * 4 && dst.count >= width * height * 4)
        if source != (sw, sh) { prepare(sw, sh) }
        let s = src.bindMemory(to: UInt8.self), d = dst.bindMemory(to: UInt8.self)
        for y in 0..<height {
            let (r0, r1, wy) = ys[y]
            let row0 = r0 * sw * 4, row1 = r1 * sw * 4, out = y * width * 4
            for x in 0..<width {
                let (c0, c1, wx) = xs[x]
                for ch in 0..<4 {
                    let a = Float(s[row0 + c0 * 4 + ch]), b = Float(s[row0 + c1 * 4 + ch])
                    let c = Float(s[row1 + c0 * 4 + ch]), e = Float(s[row1 + c1 * 4 + ch])
                    let top = a + (b - a) * wx, bottom = c + (e - c) * wx
                    d[out + x * 4 + ch] = UInt8(min(255, max(0, top + (bottom - top) * wy + 0.5)))
                }
            }
        }
    }

    private mutating func prepare(_ sw: Int, _ sh: Int) {
        source = (sw, sh)
        // Cover: the larger of the two ratios, so the source fills the frame.
        let k = max(Double(width) / Double(sw), Double(height) / Double(sh))
        func table(_ n: Int, _ sn: Int) -> [(Int, Int, Float)] {
            let offset = (Double(sn) * k - Double(n)) / 2  // the crop, in destination pixels
            return (0..<n).map { i in
                let p = min(max((Double(i) + 0.5 + offset) / k - 0.5, 0), Double(sn - 1))
                let i0 = Int(p)
                return (i0, min(i0 + 1, sn - 1), Float(p - Double(i0)))
            }
        }
        xs = table(width, sw).map { (i0: $0.0, i1: $0.1, w: $0.2) }
        ys = table(height, sh).map { (i0: $0.0, i1: $0.1, w: $0.2) }
    }
}
