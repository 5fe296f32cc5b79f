import Dispatch
import Synchronization

/// What one `AudioSource.read` delivered.
public struct AudioRead: Sendable, Equatable {
    /// Samples written to the front of the buffer.
    public var count: Int
    /// Samples lost just before these (dropped on overflow): the sample clock
    /// advances over them.
    public var dropped: Int
    /// True when the source has ended (a file's end); no more samples will come.
    public var isEnd: Bool

    /// A read result.
    public init(count: Int, dropped: Int = 0, isEnd: Bool = false) {
        self.count = count
        self.dropped = dropped
        self.isEnd = isEnd
    }
}

/// A failure of an audio source, as one readable line.
public struct AudioSourceError: Error, CustomStringConvertible, Sendable {
    /// The message (names what failed and where).
    public let description: String
    /// An error with `message`.
    public init(_ message: String) { description = message }
}

/// Where the analysis gets its samples: mono Float at `sampleRate`
/// (PulseAudio capture, an audio file, a synthetic signal). Test doubles
/// implement it too.
public protocol AudioSource: AnyObject {
    /// Samples per second.
    var sampleRate: Double { get }
    /// A short description for messages ("file song.flac", "pulse default source").
    var label: String { get }
    /// Copies the next available samples to the front of `buffer` (at most
    /// `buffer.count`). Never blocks; a live source may return 0 samples.
    func read(into buffer: inout [Float]) throws(AudioSourceError) -> AudioRead
}

/// The state of a live source's connection.
public enum CaptureState: UInt8, Sendable {
    /// Not started.
    case idle
    /// Connecting (first attempt or after a loss).
    case connecting
    /// Samples are flowing.
    case capturing
    /// Lost or failed; retrying with back-off (≤ 1 s).
    case retrying
    /// Stopped for good.
    case stopped
}

/// A live source's health, cheap to read from any thread.
public struct CaptureStatus: Sendable, Equatable {
    /// Connection state.
    public var state: CaptureState
    /// The last problem, readable (nil when none).
    public var message: String?
    /// Samples delivered so far (the sample clock, drops included).
    public var samples: Int
    /// Samples dropped because the reader fell behind.
    public var dropped: Int
    /// Capture latency the server reports (source + buffering), seconds; nil if unknown.
    public var latency: Double?
    /// How many times the connection was (re)established.
    public var connections: Int

    /// A status value.
    public init(state: CaptureState, message: String? = nil, samples: Int = 0, dropped: Int = 0,
                latency: Double? = nil, connections: Int = 0) {
        self.state = state
        self.message = message
        self.samples = samples
        self.dropped = dropped
        self.latency = latency
        self.connections = connections
    }
}

/// A source with its own producer thread (capture, real-time synthetic),
/// which hands samples over through a wait-free ring.
public protocol LiveAudioSource: AudioSource, Sendable {
    /// Starts the producer thread (returns at once).
    func start()
    /// Stops and joins the producer thread.
    func stop()
    /// Blocks the consumer up to `timeout` seconds until new samples may be there.
    func waitForData(timeout: Double)
    /// Current health.
    var status: CaptureStatus { get }
    /// Asks the producer thread to call `consumer` itself after each batch
    /// of samples it hands over, instead of the consumer waiting on a thread
    /// of its own (one thread wake-up less per fragment). Call before
    /// `start()`; returns false when the source does not offer it.
    func runConsumerOnProducerThread(_ consumer: @escaping @Sendable () -> Void) -> Bool
}

extension LiveAudioSource {
    /// Not offered: the consumer runs its own thread.
    public func runConsumerOnProducerThread(_ consumer: @escaping @Sendable () -> Void) -> Bool { false }
}

/// The hand-over between a live producer thread and the consumer: a sample
/// ring plus a semaphore the producer signals after each write (posting is
/// an atomic increment and at most one futex wake: no lock, no allocation).
///
/// Thread-safety: `write` from the producer thread; `read`/`wait` from the consumer thread.
final class SampleChannel: Sendable {
    let ring: SPSCRing<Float>
    private let signal = DispatchSemaphore(value: 0)

    /// A channel holding `capacity` samples (≈ 0.34 s at 48 kHz by default).
    init(capacity: Int = 16384) {
        ring = SPSCRing(capacity: capacity)
    }

    /// Producer: appends samples and wakes the consumer.
    func write(_ samples: UnsafeBufferPointer<Float>) {
        ring.write(samples)
        signal.signal()
    }

    /// Consumer: the oldest unread samples (skipping overwritten ones).
    func read(into buffer: inout [Float]) -> AudioRead {
        let r = buffer.withUnsafeMutableBufferPointer { ring.read(into: $0) }
        return AudioRead(count: r.count, dropped: r.dropped)
    }

    /// Consumer: waits until the producer writes (or `timeout` seconds pass).
    func wait(timeout: Double) {
        _ = signal.wait(timeout: .now() + timeout)
    }

    /// Wakes a waiting consumer without data (on stop).
    func wake() { signal.signal() }
}
