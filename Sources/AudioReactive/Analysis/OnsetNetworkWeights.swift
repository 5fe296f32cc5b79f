import Foundation
import Storage

/// Why a weights file for the onset network was refused: one line a user can act on.
public struct OnsetNetworkError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file.
    public let path: String
    /// What is wrong with it.
    public let reason: String

    public var description: String { "\(path): \(reason)" }
}

/// The onset network's weights, read strictly from a file made by
/// `scripts/onset-train` (format in `scripts/onset_network.py`):
///
///     physarum-onset-network 2
///     {"bands":40,"lowHz":30,"highHz":16000,"perOctave":6,"floorRise":10,
///      "perBand":3,"detector":8,
///      "layers":[{"in":128,"out":32,"kernel":3,"dilation":1},…],"threshold":0.3,
///      "candidates":0.9,                    (optional: the `full` detector's sensitivity)
///      "floats":N,"fnv1a64":"…"}
///     N little-endian float32: per layer weights [out][in][kernel] (kernel 0 =
///     the oldest hop), biases [out]; then the output's weights [in] and bias.
///
/// Everything is checked before use: the magic line, the header's fields,
/// that the inputs are the ones this analysis computes (`perBand` and
/// `detector` as `OnsetNetworkInput`'s), that the layers chain (first input =
/// perBand × bands + detector, each input = the previous output), the float count against the shapes and the file's length, the
/// FNV-1a 64 checksum of the floats, and that every value is finite. A file
/// that fails any check is refused whole (`OnsetNetworkError`), and the
/// analysis runs the DSP detector alone. Immutable; safe from any thread.
public struct OnsetNetworkWeights: Sendable, Equatable {
    /// One causal convolution layer: `weights[o][j][i]` (reordered so the
    /// input index runs fastest), `bias[o]`.
    public struct Layer: Sendable, Equatable {
        public let inputs: Int, outputs: Int, kernel: Int, dilation: Int
        public let weights: [Float]
        public let bias: [Float]
    }

    /// Bands of the input (each gives `OnsetNetworkInput.perBand` inputs: level, height over its floor, flux).
    public let bands: Int
    public let lowHz: Double, highHz: Double, perOctave: Double
    /// The floor tracker's rise, dB per second.
    public let floorRise: Float
    public let layers: [Layer]
    public let outputWeights: [Float]
    public let outputBias: Float
    /// The probability under which a DSP onset is vetoed at sensitivity 0.5 (chosen on the tuning sources).
    public let threshold: Float
    /// The sensitivity (0…1) of the DSP `full` detector whose onsets the
    /// network was trained to judge (header `candidates`; nil when absent:
    /// the user's sensitivity).
    public let candidates: Double?

    static let magic = "physarum-onset-network 2"
    /// Where the shipped weights lie, under the configs directory.
    public static let shippedPath = "onset/onset-network.weights"

    private struct Header: Decodable {
        struct Shape: Decodable { let `in`: Int, out: Int, kernel: Int, dilation: Int }
        let bands: Int, lowHz: Double, highHz: Double, perOctave: Double, floorRise: Double
        let perBand: Int, detector: Int
        let layers: [Shape]
        let threshold: Double, floats: Int, fnv1a64: String
        let candidates: Double?
    }

    /// Reads and checks `path`.
    public static func load(path: String) throws(OnsetNetworkError) -> OnsetNetworkWeights {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OnsetNetworkError(path: path, reason: "cannot be read")
        }
        return try parse(data, path: path)
    }

    /// Checks and decodes the bytes of a weights file (`path` names it in errors).
    public static func parse(_ data: Data, path: String) throws(OnsetNetworkError) -> OnsetNetworkWeights {
        func fail(_ reason: String) -> OnsetNetworkError { OnsetNetworkError(path: path, reason: reason) }
        let bytes = [UInt8](data)
        guard let first = bytes.firstIndex(of: 10), let second = bytes[(first + 1)...].firstIndex(of: 10) else {
            throw fail("not an onset network file (no header lines)")
        }
        guard String(decoding: bytes[..<first], as: UTF8.self) == magic else {
            throw fail("not an onset network file (first line is not \"\(magic)\")")
        }
        let head: Header
        do { head = try JSONDecoder().decode(Header.self, from: Data(bytes[(first + 1)..<second])) } catch {
            throw fail("header is not valid JSON with bands, lowHz, highHz, perOctave, floorRise, perBand, detector, layers, threshold, floats, fnv1a64")
        }
        guard head.bands > 0, head.bands <= 256, !head.layers.isEmpty, head.layers.count <= 16,
              head.lowHz > 0, head.highHz > head.lowHz, head.perOctave > 0, head.floorRise >= 0,
              head.threshold > 0, head.threshold < 1, (head.candidates ?? 0.5) >= 0, (head.candidates ?? 0.5) <= 1
        else { throw fail("header values out of range") }
        guard head.perBand == OnsetNetworkInput.perBand, head.detector == OnsetNetworkInput.detectorCount else {
            throw fail("made for other inputs (\(head.perBand) per band and \(head.detector) of the detector; this analysis gives \(OnsetNetworkInput.perBand) and \(OnsetNetworkInput.detectorCount))")
        }
        var expected = 0
        var inputs = head.perBand * head.bands + head.detector
        for (n, l) in head.layers.enumerated() {
            guard l.in == inputs else { throw fail("layer \(n) takes \(l.in) inputs, expected \(inputs)") }
            guard l.out > 0, l.out <= 512, l.kernel > 0, l.kernel <= 16, l.dilation > 0, l.dilation <= 256 else {
                throw fail("layer \(n) has an out-of-range shape")
            }
            expected += l.out * l.in * l.kernel + l.out
            inputs = l.out
        }
        expected += inputs + 1
        guard head.floats == expected else { throw fail("header says \(head.floats) floats, its layers need \(expected)") }
        let payload = bytes[(second + 1)...]
        guard payload.count == 4 * expected else {
            throw fail("holds \(payload.count) bytes of weights, expected \(4 * expected) (truncated or padded)")
        }
        let sum = String(fnv1a64(payload), radix: 16)
        let want = String(repeating: "0", count: max(0, 16 - sum.count)) + sum
        guard want == head.fnv1a64.lowercased() else {
            throw fail("checksum mismatch (header \(head.fnv1a64), weights give \(want)): the file is damaged")
        }
        var values = [Float]()
        values.reserveCapacity(expected)
        var i = payload.startIndex
        while i < payload.endIndex {
            let bits = UInt32(payload[i]) | UInt32(payload[i + 1]) << 8 | UInt32(payload[i + 2]) << 16 | UInt32(payload[i + 3]) << 24
            values.append(Float(bitPattern: bits))
            i += 4
        }
        guard values.allSatisfy(\.isFinite) else { throw fail("holds a value that is not a finite number") }
        var pos = 0
        var layers: [Layer] = []
        for l in head.layers {
            // File order [out][in][kernel] → ours [out][kernel][in].
            var w = [Float](repeating: 0, count: l.out * l.in * l.kernel)
            for o in 0..<l.out {
                for c in 0..<l.in {
                    for j in 0..<l.kernel { w[(o * l.kernel + j) * l.in + c] = values[pos + (o * l.in + c) * l.kernel + j] }
                }
            }
            pos += l.out * l.in * l.kernel
            layers.append(Layer(inputs: l.in, outputs: l.out, kernel: l.kernel, dilation: l.dilation,
                                weights: w, bias: Array(values[pos..<(pos + l.out)])))
            pos += l.out
        }
        return OnsetNetworkWeights(bands: head.bands, lowHz: head.lowHz, highHz: head.highHz, perOctave: head.perOctave,
                                   floorRise: Float(head.floorRise), layers: layers,
                                   outputWeights: Array(values[pos..<(pos + inputs)]), outputBias: values[pos + inputs],
                                   threshold: Float(head.threshold), candidates: head.candidates)
    }

    /// 64-bit FNV-1a of `bytes`.
    static func fnv1a64<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h
    }

    /// The shipped weights, read once per process from the configs directory
    /// (`ConfigDirectory`): nil when there is no configs directory or no file
    /// (the DSP detector alone), and nil with one line on stderr when the
    /// file is refused.
    public static let shipped: OnsetNetworkWeights? = {
        guard let dir = ConfigDirectory.locate().path else { return nil }
        let path = (dir as NSString).appendingPathComponent(shippedPath)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return loadReporting(path: path) { try? FileHandle.standardError.write(contentsOf: Data(($0 + "\n").utf8)) }
    }()

    /// The weights at `path`, or nil after passing one line for the user to
    /// `report` (the file and what is wrong; the analysis then runs the DSP
    /// detector alone).
    public static func loadReporting(path: String, report: (String) -> Void) -> OnsetNetworkWeights? {
        do { return try load(path: path) } catch {
            report("physarum: onset network refused: \(error); onsets come from the DSP detector alone")
            return nil
        }
    }
}
