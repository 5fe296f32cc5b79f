import Foundation
@testable import Engine

/// The radially averaged luminance power spectrum of a picture: how much of
/// its variation sits at each spatial scale (fine lace vs. big cells vs.
/// smooth washes). Colour plays no part. Estimated Welch-style — the mean of
/// the spectra of overlapping Hann-windowed 128×128 tiles — so the estimate
/// is stable from one random seed to the next.
struct SpatialSpectrum {
    /// Tile side (a power of two) and step between tiles.
    static let tile = 128, step = 64
    /// Log-spaced radial bins between 1/128 and 1/2 cycles per pixel.
    static let bins = 10

    /// log10 of the mean power per bin.
    let shape: [Double]

    init(_ image: RGBAImage) {
        let T = Self.tile
        let luma = image.luma()
        var power = [Double](repeating: 0, count: Self.bins), count = power
        let lo = log(1.0 / Double(T)), hi = log(0.5)
        let window = (0..<T).map { 0.5 - 0.5 * cos(2 * .pi * (Double($0) + 0.5) / Double(T)) }
        var binOf = [Int](repeating: -1, count: T * T)
        for ky in 0..<T {
            let fy = Double(ky <= T / 2 ? ky : ky - T) / Double(T)
            for kx in 0..<T {
                let fx = Double(kx <= T / 2 ? kx : kx - T) / Double(T)
                let r = (fx * fx + fy * fy).squareRoot()
                guard r >= 1.0 / Double(T), r < 0.5 else { continue }
                binOf[ky * T + kx] = min(Self.bins - 1, Int((log(r) - lo) / (hi - lo) * Double(Self.bins)))
            }
        }
        var y0 = 0
        while y0 + T <= image.height {
            var x0 = 0
            while x0 + T <= image.width {
                var re = [Double](repeating: 0, count: T * T), im = re
                var mean = 0.0
                for y in 0..<T { for x in 0..<T { mean += Double(luma[(y + y0) * image.width + x + x0]) } }
                mean /= Double(T * T)
                for y in 0..<T {
                    for x in 0..<T {
                        re[y * T + x] = (Double(luma[(y + y0) * image.width + x + x0]) - mean) * window[x] * window[y]
                    }
                }
                Self.fft2D(&re, &im, width: T, height: T)
                for k in 0..<(T * T) where binOf[k] >= 0 {
                    power[binOf[k]] += re[k] * re[k] + im[k] * im[k]
                    count[binOf[k]] += 1
                }
                x0 += Self.step
            }
            y0 += Self.step
        }
        shape = (0..<Self.bins).map { log10(power[$0] / max(count[$0], 1) + 1e-12) }
    }

    /// Root-mean-square difference of two spectrum shapes, in decades of power.
    func distance(to other: SpatialSpectrum) -> Double {
        var s = 0.0
        for i in 0..<shape.count { s += (shape[i] - other.shape[i]) * (shape[i] - other.shape[i]) }
        return (s / Double(shape.count)).squareRoot()
    }

    /// In-place radix-2 FFT of rows, then columns.
    static func fft2D(_ re: inout [Double], _ im: inout [Double], width W: Int, height H: Int) {
        var rr = [Double](repeating: 0, count: max(W, H)), ri = rr
        for y in 0..<H {
            for x in 0..<W { rr[x] = re[y * W + x]; ri[x] = im[y * W + x] }
            fft(&rr, &ri, W)
            for x in 0..<W { re[y * W + x] = rr[x]; im[y * W + x] = ri[x] }
        }
        for x in 0..<W {
            for y in 0..<H { rr[y] = re[y * W + x]; ri[y] = im[y * W + x] }
            fft(&rr, &ri, H)
            for y in 0..<H { re[y * W + x] = rr[y]; im[y * W + x] = ri[y] }
        }
    }

    /// Iterative radix-2 Cooley–Tukey on the first n (a power of two) values.
    static func fft(_ re: inout [Double], _ im: inout [Double], _ n: Int) {
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var len = 2
        while len <= n {
            let ang = -2 * Double.pi / Double(len)
            let wr = cos(ang), wi = sin(ang)
            var i = 0
            while i < n {
                var cr = 1.0, ci = 0.0
                for k in 0..<(len / 2) {
                    let a = i + k, b = a + len / 2
                    let tr = re[b] * cr - im[b] * ci, ti = re[b] * ci + im[b] * cr
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                    let ncr = cr * wr - ci * wi
                    ci = cr * wi + ci * wr
                    cr = ncr
                }
                i += len
            }
            len <<= 1
        }
    }
}
