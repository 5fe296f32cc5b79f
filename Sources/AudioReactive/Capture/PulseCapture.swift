import CPulse
import Dispatch
import Foundation
import Synchronization

/// Captures float32, 48 kHz, mono (the server downmixes) from a named
/// PulseAudio source or the server default, on its own thread, in small
/// fragments (5 ms by default, requested with `PA_STREAM_ADJUST_LATENCY`,
/// so the whole source latency follows it; left unset, servers such as
/// pipewire-pulse buffer seconds). Samples go through a wait-free ring that
/// drops the oldest audio when the reader falls behind; the sample clock
/// counts them anyway. When the server goes away, capture reports it and
/// retries with back-off (50 ms doubling to at most 1 s) until it comes
/// back, to the same named source (`PA_STREAM_DONT_MOVE`: a named stream is
/// never silently moved elsewhere; it waits for its source to reappear).
///
/// Thread invariant (why `@unchecked Sendable` is sound): the mainloop is
/// created in `init` and freed in `deinit` after the capture thread has
/// ended; the context, the stream and every `session*` field are touched
/// only on the capture thread (PulseAudio calls its callbacks there). Other
/// threads only call `pa_mainloop_wakeup` (thread-safe by libpulse's
/// contract) and use atomics and semaphores. The read callback — the audio
/// path — never locks, allocates, logs or waits.
public final class PulseCapture: LiveAudioSource, @unchecked Sendable {
    public let sampleRate: Double = 48000
    public let label: String
    /// The source captured (nil = the server's default source).
    public let sourceName: String?
    /// The server address (nil = libpulse's default: `PULSE_SERVER`, then the user's daemon).
    public let server: String?
    /// Requested fragment, seconds.
    public let fragmentSeconds: Double

    let channel = SampleChannel()
    private let mainloop: OpaquePointer
    private let state = Atomic<UInt8>(CaptureState.idle.rawValue)
    private let errorCode = Atomic<Int32>(0)
    private let latencyMicros = Atomic<Int>(-1)
    private let connectionCount = Atomic<Int>(0)
    private let stopRequested = Atomic<Bool>(false)
    private let startedFlag = Atomic<Bool>(false)
    private let outcomeSent = Atomic<Bool>(false)
    private let stopSignal = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let firstOutcome = DispatchSemaphore(value: 0)
    private let zeros = UnsafeMutableBufferPointer<Float>.allocate(capacity: 4096)

    /// Runs after each batch of fragments, on the capture thread (set before `start`).
    private var consumer: (@Sendable () -> Void)?

    // Capture thread only.
    private var context: OpaquePointer?
    private var stream: OpaquePointer?
    private var sessionEnded = false
    private var sessionError: Int32 = 0
    private var sessionCapturing = false

    /// A capture of `source` (nil = default) on `server` (nil = default);
    /// call `start()`.
    public init(source: String? = nil, server: String? = nil, fragmentSeconds: Double = 0.005) {
        sourceName = source
        self.server = server
        self.fragmentSeconds = max(0.001, min(0.1, fragmentSeconds))
        label = source.map { "PulseAudio source '\($0)'" } ?? "the default PulseAudio source"
        guard let ml = pa_mainloop_new() else { fatalError("pa_mainloop_new failed (out of memory)") }
        mainloop = ml
        zeros.initialize(repeating: 0)
    }

    deinit {
        stop()
        pa_mainloop_free(mainloop)
        zeros.deallocate()
    }

    /// Starts the capture thread (once).
    public func start() {
        guard !startedFlag.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in run() }
        thread.name = "physarum-capture"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Stops capturing and joins the thread.
    public func stop() {
        guard startedFlag.load(ordering: .acquiring), !stopRequested.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        pa_mainloop_wakeup(mainloop)
        stopSignal.signal()
        finished.wait()
        channel.wake()
    }

    /// Blocks until the first connection attempt has succeeded or failed (or
    /// `timeout` seconds pass), then returns the status.
    public func waitForFirstOutcome(timeout: Double) -> CaptureStatus {
        if firstOutcome.wait(timeout: .now() + timeout) == .success { firstOutcome.signal() }
        return status
    }

    public func waitForData(timeout: Double) { channel.wait(timeout: timeout) }

    /// The analysis runs on the capture thread, after each mainloop iteration
    /// that delivered samples (outside the read callback, which stays
    /// wait-free).
    public func runConsumerOnProducerThread(_ consumer: @escaping @Sendable () -> Void) -> Bool {
        guard !startedFlag.load(ordering: .acquiring) else { return false }
        self.consumer = consumer
        return true
    }

    public func read(into buffer: inout [Float]) throws(AudioSourceError) -> AudioRead {
        channel.read(into: &buffer)
    }

    public var status: CaptureStatus {
        let s = CaptureState(rawValue: state.load(ordering: .acquiring)) ?? .idle
        let code = errorCode.load(ordering: .acquiring)
        var message: String?
        if code != 0 && s != .capturing {
            if code == Int32(PA_ERR_NOENTITY.rawValue), let name = sourceName {
                message = "no PulseAudio source named '\(name)' (see `physarum sources`)"
            } else {
                message = "cannot reach \(PulseCapture.describe(server: server)): \(String(cString: pa_strerror(code)))"
            }
        }
        let lat = latencyMicros.load(ordering: .relaxed)
        return CaptureStatus(state: s, message: message, samples: channel.ring.written, dropped: channel.ring.droppedTotal,
                             latency: lat >= 0 ? Double(lat) / 1e6 : nil,
                             connections: connectionCount.load(ordering: .relaxed))
    }

    /// "the PulseAudio server at X" for messages (X from `server` or `PULSE_SERVER`).
    public static func describe(server: String?) -> String {
        if let s = server ?? ProcessInfo.processInfo.environment["PULSE_SERVER"], !s.isEmpty {
            return "the PulseAudio server at \(s)"
        }
        return "the PulseAudio server"
    }

    // MARK: capture thread

    private func run() {
        var backoff = 0.05
        while !stopRequested.load(ordering: .acquiring) {
            state.store(CaptureState.connecting.rawValue, ordering: .releasing)
            runSession()
            if stopRequested.load(ordering: .acquiring) { break }
            errorCode.store(sessionError != 0 ? sessionError : Int32(PA_ERR_CONNECTIONTERMINATED.rawValue),
                            ordering: .releasing)
            state.store(CaptureState.retrying.rawValue, ordering: .releasing)
            latencyMicros.store(-1, ordering: .relaxed)
            signalFirstOutcome()
            if sessionCapturing { backoff = 0.05 }
            _ = stopSignal.wait(timeout: .now() + backoff)
            backoff = min(1, backoff * 2)
        }
        state.store(CaptureState.stopped.rawValue, ordering: .releasing)
        signalFirstOutcome()
        finished.signal()
    }

    private func signalFirstOutcome() {
        if !outcomeSent.exchange(true, ordering: .acquiringAndReleasing) { firstOutcome.signal() }
    }

    private func runSession() {
        sessionEnded = false
        sessionError = 0
        sessionCapturing = false
        let api = pa_mainloop_get_api(mainloop)
        guard let ctx = pa_context_new(api, "Physarum Live") else {
            sessionError = Int32(PA_ERR_INTERNAL.rawValue)
            return
        }
        context = ctx
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(ctx, pulseCaptureContextState, me)
        if pa_context_connect(ctx, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            sessionError = pa_context_errno(ctx)
            sessionEnded = true
        }
        var handed = channel.ring.written
        while !sessionEnded && !stopRequested.load(ordering: .acquiring) {
            if pa_mainloop_iterate(mainloop, 1, nil) < 0 { break }
            if let consumer, channel.ring.written != handed {
                handed = channel.ring.written
                consumer()
            }
        }
        if let s = stream {
            pa_stream_set_read_callback(s, nil, nil)
            pa_stream_set_state_callback(s, nil, nil)
            pa_stream_disconnect(s)
            pa_stream_unref(s)
            stream = nil
        }
        pa_context_set_state_callback(ctx, nil, nil)
        pa_context_disconnect(ctx)
        pa_context_unref(ctx)
        context = nil
    }

    fileprivate func contextChanged(_ ctx: OpaquePointer) {
        switch pa_context_get_state(ctx) {
        case PA_CONTEXT_READY:
            createStream(ctx)
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            sessionError = pa_context_errno(ctx)
            sessionEnded = true
        default:
            break
        }
    }

    private func createStream(_ ctx: OpaquePointer) {
        var spec = pa_sample_spec(format: cpulse_sample_float32ne(), rate: 48000, channels: 1)
        guard let s = pa_stream_new(ctx, "Physarum Live capture", &spec, nil) else {
            sessionError = pa_context_errno(ctx)
            sessionEnded = true
            return
        }
        stream = s
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(s, pulseCaptureStreamState, me)
        pa_stream_set_read_callback(s, pulseCaptureRead, me)
        let bytesPerSecond = 48000.0 * 4
        var attr = pa_buffer_attr(maxlength: UInt32(bytesPerSecond), tlength: UInt32.max, prebuf: UInt32.max,
                                  minreq: UInt32.max, fragsize: UInt32((fragmentSeconds * 48000).rounded()) * 4)
        var flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
            | PA_STREAM_INTERPOLATE_TIMING.rawValue
        if sourceName != nil { flags |= PA_STREAM_DONT_MOVE.rawValue }
        if pa_stream_connect_record(s, sourceName, &attr, pa_stream_flags_t(rawValue: flags)) < 0 {
            sessionError = pa_context_errno(ctx)
            sessionEnded = true
        }
    }

    fileprivate func streamChanged(_ s: OpaquePointer) {
        switch pa_stream_get_state(s) {
        case PA_STREAM_READY:
            sessionCapturing = true
            errorCode.store(0, ordering: .releasing)
            connectionCount.add(1, ordering: .relaxed)
            state.store(CaptureState.capturing.rawValue, ordering: .releasing)
            signalFirstOutcome()
        case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
            sessionError = context.map { pa_context_errno($0) } ?? Int32(PA_ERR_UNKNOWN.rawValue)
            sessionEnded = true
        default:
            break
        }
    }

    /// The audio path: copy every readable fragment into the ring.
    fileprivate func readable(_ s: OpaquePointer) {
        while true {
            var data: UnsafeRawPointer?
            var bytes = 0
            if pa_stream_peek(s, &data, &bytes) < 0 || bytes == 0 { break }
            let n = bytes / 4
            if let data {
                channel.write(UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: n))
            } else { // a hole: silence keeps the sample clock honest
                var left = n
                while left > 0 {
                    let k = min(left, zeros.count)
                    channel.write(UnsafeBufferPointer(rebasing: zeros[0..<k]))
                    left -= k
                }
            }
            pa_stream_drop(s)
        }
        var usec: pa_usec_t = 0
        var negative: Int32 = 0
        if pa_stream_get_latency(s, &usec, &negative) == 0 {
            latencyMicros.store(negative != 0 ? 0 : Int(usec), ordering: .relaxed)
        }
    }
}

// C callbacks: context only through userdata; no captures, nonisolated.
private func pulseCaptureContextState(_ ctx: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let ctx, let userdata else { return }
    Unmanaged<PulseCapture>.fromOpaque(userdata).takeUnretainedValue().contextChanged(ctx)
}

private func pulseCaptureStreamState(_ s: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let s, let userdata else { return }
    Unmanaged<PulseCapture>.fromOpaque(userdata).takeUnretainedValue().streamChanged(s)
}

private func pulseCaptureRead(_ s: OpaquePointer?, _ bytes: Int, _ userdata: UnsafeMutableRawPointer?) {
    guard let s, let userdata else { return }
    Unmanaged<PulseCapture>.fromOpaque(userdata).takeUnretainedValue().readable(s)
}
