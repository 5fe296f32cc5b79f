import CSndfile
import Foundation
import Storage

/// An audio file (WAV, FLAC, OGG/Vorbis, … whatever libsndfile reads) as an
/// `AudioSource`: channels averaged to mono, at the file's own sample rate.
///
/// Thread-safety: use from one thread at a time (owns a `SNDFILE*`).
public final class FileSource: AudioSource {
    public let sampleRate: Double
    public let label: String
    /// Channels in the file (downmixed by averaging).
    public let channels: Int
    /// Frames (samples per channel) in the file.
    public let frames: Int64
    private let handle: OpaquePointer
    private var scratch: [Float] = []

    /// Opens `path` for reading (`sf_open`). Throws a one-line error naming the
    /// file and libsndfile's reason. Only regular files are opened (a FIFO
    /// would block `sf_open` forever; a device or directory is no audio file).
    public init(path: String) throws(AudioSourceError) {
        do { try SafeFile.requireRegularFile(URL(fileURLWithPath: path)) } catch {
            throw AudioSourceError("cannot read audio file '\(path)': \(error.reason)")
        }
        var info = SF_INFO()
        guard let h = sf_open(path, Int32(SFM_READ), &info) else {
            let reason = String(cString: sf_strerror(nil))
            throw AudioSourceError("cannot read audio file '\(path)': \(reason)")
        }
        guard info.channels > 0, info.samplerate >= 8000, info.samplerate <= 384_000 else {
            sf_close(h)
            throw AudioSourceError("cannot read audio file '\(path)': unsupported format "
                                   + "(\(info.channels) channels at \(info.samplerate) Hz)")
        }
        handle = h
        channels = Int(info.channels)
        sampleRate = Double(info.samplerate)
        frames = Int64(info.frames)
        label = "file \(path)"
    }

    deinit { sf_close(handle) }

    /// Reads the next frames (`sf_readf_float`), averaging channels.
    public func read(into buffer: inout [Float]) throws(AudioSourceError) -> AudioRead {
        let want = buffer.count
        guard want > 0 else { return AudioRead(count: 0) }
        if channels == 1 {
            let got = buffer.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress, Int64(want)) }
            return AudioRead(count: Int(max(0, got)), isEnd: got < want)
        }
        if scratch.count < want * channels { scratch = [Float](repeating: 0, count: want * channels) }
        let got = Int(max(0, scratch.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress, Int64(want)) }))
        let c = channels
        let inv = 1 / Float(c)
        for i in 0..<got {
            var s: Float = 0
            for ch in 0..<c { s += scratch[i * c + ch] }
            buffer[i] = s * inv
        }
        return AudioRead(count: got, isEnd: got < want)
    }
}

/// Audio file formats the writer produces.
public enum AudioFileFormat: String, Sendable, CaseIterable {
    /// WAV, 32-bit float.
    case wavFloat
    /// WAV, 16-bit PCM.
    case wav16
    /// FLAC, 16-bit.
    case flac
    /// OGG/Vorbis (lossy).
    case ogg

    var sndfileFormat: Int32 {
        switch self {
        case .wavFloat: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
        case .wav16: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        case .ogg: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        }
    }
}

/// Writes mono audio files (signals for tests, demo loops).
public enum AudioFileWriter {
    /// Writes `samples` (mono) to `path` atomically: a temporary file in the
    /// same folder, closed, then renamed over `path` (`sf_open`/`sf_writef_float`).
    public static func write(_ samples: [Float], sampleRate: Int = 48000, to path: String,
                             format: AudioFileFormat = .wavFloat) throws(AudioSourceError) {
        let temp = path + ".tmp-\(getpid())"
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = format.sndfileFormat
        guard sf_format_check(&info) != 0 else {
            throw AudioSourceError("cannot write '\(path)': libsndfile does not support \(format.rawValue) here")
        }
        guard let h = sf_open(temp, Int32(SFM_WRITE), &info) else {
            throw AudioSourceError("cannot write '\(path)': \(String(cString: sf_strerror(nil)))")
        }
        let written = samples.withUnsafeBufferPointer { sf_writef_float(h, $0.baseAddress, Int64(samples.count)) }
        let err = sf_error(h)
        let message = String(cString: sf_strerror(h))
        sf_write_sync(h)
        sf_close(h)
        guard written == samples.count, err == 0 else {
            unlink(temp)
            throw AudioSourceError("cannot write '\(path)': \(message)")
        }
        guard rename(temp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw AudioSourceError("cannot write '\(path)': \(reason)")
        }
    }
}
