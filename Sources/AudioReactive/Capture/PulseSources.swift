import CPulse
import Foundation

/// One PulseAudio capture source.
public struct PulseSourceInfo: Sendable, Equatable {
    /// The source's name (what `--source` takes).
    public var name: String
    /// Human-readable description.
    public var description: String
    /// True for a sink's monitor (captures what the machine plays).
    public var isMonitor: Bool
    /// True for the server's default source.
    public var isDefault: Bool
    /// Native channels and rate.
    public var channels: Int
    /// Native sample rate.
    public var sampleRate: Int
    /// True for the monitor of the server's default sink (what the machine plays).
    public var isDefaultSinkMonitor: Bool

    /// A source description (tests and UI models build these by hand).
    public init(name: String, description: String = "", isMonitor: Bool = false, isDefault: Bool = false,
                channels: Int = 2, sampleRate: Int = 48000, isDefaultSinkMonitor: Bool = false) {
        self.name = name
        self.description = description
        self.isMonitor = isMonitor
        self.isDefault = isDefault
        self.channels = channels
        self.sampleRate = sampleRate
        self.isDefaultSinkMonitor = isDefaultSinkMonitor
    }
}

/// Lists the capture sources of a PulseAudio server
/// (`pa_context_get_server_info`, `pa_context_get_source_info_list`).
public enum PulseSources {
    /// All sources, in the server's order. Throws a one-line error when no
    /// server is reachable within `timeout` seconds.
    public static func list(server: String? = nil, timeout: Double = 5) throws(AudioSourceError) -> [PulseSourceInfo] {
        let q = SourceQuery()
        return try q.run(server: server, timeout: timeout)
    }
}

/// One listing session on its own mainloop, on the calling thread. All
/// callbacks run inside `pa_mainloop_iterate` on that thread.
private final class SourceQuery {
    var sources: [PulseSourceInfo] = []
    var defaultName: String?
    var defaultSinkName: String?
    /// Per source (same order as `sources`): the sink it monitors, if any.
    var monitorOf: [String?] = []
    var failed: Int32 = 0
    var pending = 0
    var connected = false
    var done = false

    func run(server: String?, timeout: Double) throws(AudioSourceError) -> [PulseSourceInfo] {
        guard let ml = pa_mainloop_new() else { throw AudioSourceError("pa_mainloop_new failed") }
        defer { pa_mainloop_free(ml) }
        guard let ctx = pa_context_new(pa_mainloop_get_api(ml), "Physarum Live (sources)") else {
            throw AudioSourceError("pa_context_new failed")
        }
        defer { pa_context_disconnect(ctx); pa_context_unref(ctx) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(ctx, sourceQueryState, me)
        if pa_context_connect(ctx, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 { failed = pa_context_errno(ctx) }
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while failed == 0 && !done {
            if ContinuousClock.now > deadline {
                throw AudioSourceError("no answer from \(PulseCapture.describe(server: server)) within \(timeout) s")
            }
            // Bounded waits so the deadline is honoured even if the server stays silent.
            pa_mainloop_prepare(ml, 100_000)
            pa_mainloop_poll(ml)
            pa_mainloop_dispatch(ml)
        }
        pa_context_set_state_callback(ctx, nil, nil)
        if failed != 0 {
            throw AudioSourceError("cannot reach \(PulseCapture.describe(server: server)): \(String(cString: pa_strerror(failed)))")
        }
        return zip(sources, monitorOf).map { s, sink in
            var s = s
            s.isDefault = s.name == defaultName
            s.isDefaultSinkMonitor = sink != nil && sink == defaultSinkName
            return s
        }
    }

    func stateChanged(_ ctx: OpaquePointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        switch pa_context_get_state(ctx) {
        case PA_CONTEXT_READY:
            guard !connected else { return }
            connected = true
            pending = 2
            pa_operation_unref(pa_context_get_server_info(ctx, sourceQueryServer, me))
            pa_operation_unref(pa_context_get_source_info_list(ctx, sourceQuerySource, me))
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            if !done { failed = max(1, pa_context_errno(ctx)) }
        default:
            break
        }
    }

    func finishOne() {
        pending -= 1
        if pending == 0 { done = true }
    }
}

private func sourceQueryState(_ ctx: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let ctx, let userdata else { return }
    Unmanaged<SourceQuery>.fromOpaque(userdata).takeUnretainedValue().stateChanged(ctx)
}

private func sourceQueryServer(_ ctx: OpaquePointer?, _ info: UnsafePointer<pa_server_info>?,
                               _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    let q = Unmanaged<SourceQuery>.fromOpaque(userdata).takeUnretainedValue()
    if let info, let name = info.pointee.default_source_name { q.defaultName = String(cString: name) }
    if let info, let name = info.pointee.default_sink_name { q.defaultSinkName = String(cString: name) }
    q.finishOne()
}

private func sourceQuerySource(_ ctx: OpaquePointer?, _ info: UnsafePointer<pa_source_info>?, _ eol: Int32,
                               _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    let q = Unmanaged<SourceQuery>.fromOpaque(userdata).takeUnretainedValue()
    if eol != 0 || info == nil {
        q.finishOne()
        return
    }
    let i = info!.pointee
    q.sources.append(PulseSourceInfo(
        name: i.name.map { String(cString: $0) } ?? "",
        description: i.description.map { String(cString: $0) } ?? "",
        isMonitor: i.monitor_of_sink != UInt32.max,
        isDefault: false,
        channels: Int(i.sample_spec.channels),
        sampleRate: Int(i.sample_spec.rate)))
    q.monitorOf.append(i.monitor_of_sink_name.map { String(cString: $0) })
}
