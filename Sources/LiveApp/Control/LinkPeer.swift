import LinkShim

/// One Ableton Link instance (LinkShim over Debian's ableton-link): a peer
/// of the Link session on the local network once enabled. The only file
/// that imports LinkShim. Link runs its own network threads; every member
/// may be called from any thread (Link's app-thread functions).
final class LinkPeer: @unchecked Sendable {
    private let handle: OpaquePointer

    /// A peer at `bpm`, not yet on the network; nil when Link's network service cannot start.
    init?(bpm: Double = 120) {
        guard let h = linkshim_new(bpm) else { return nil }
        handle = h
    }

    deinit { linkshim_free(handle) }

    /// Joined to the session (linkshim_enable).
    var enabled: Bool {
        get { linkshim_enabled(handle) }
        set { linkshim_enable(handle, newValue) }
    }

    /// Share start/stop with peers that have it on too.
    var startStopSync: Bool = false {
        didSet { linkshim_enable_start_stop_sync(handle, startStopSync) }
    }

    /// Other peers in the session.
    var peers: Int { Int(linkshim_peers(handle)) }

    /// Link's clock now, in microseconds.
    var now: Int64 { linkshim_now(handle) }

    /// The session at `micros` with `quantum` beats per bar.
    func state(at micros: Int64, quantum: Double) -> (bpm: Double, beat: Double, phase: Double, playing: Bool) {
        let s = linkshim_capture(handle, micros, quantum)
        return (s.bpm, s.beat, s.phase, s.playing)
    }

    /// Proposes `bpm` to the session from `micros` on.
    func propose(tempo bpm: Double, at micros: Int64) { linkshim_set_tempo(handle, bpm, micros) }

    /// Proposes start (beat 0 of a bar at `micros`) or stop.
    func propose(playing: Bool, at micros: Int64, quantum: Double) { linkshim_set_playing(handle, playing, micros, quantum) }

    /// When the session reaches `beat` (microseconds on Link's clock).
    func time(atBeat beat: Double, quantum: Double) -> Int64 { linkshim_time_at_beat(handle, beat, quantum) }
}
