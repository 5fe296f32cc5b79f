/// Autonomous cycling for the headless host until the library's `AutoCycle`
/// (dwell, fade, hold) is wired in: while the playlist is on, every `dwell`
/// seconds it asks for the next preset. A manual preset change restarts the
/// dwell. Pure; the frame loop owns it.
struct PlaylistTimer: Sendable {
    var dwell: Double
    private var shown = 0.0
    private var lastSeen: String?

    init(dwell: Double) { self.dwell = dwell }

    /// Advances by `dt` seconds; true when the next preset is due now.
    mutating func tick(dt: Double, enabled: Bool, current: String?) -> Bool {
        if current != lastSeen {
            lastSeen = current
            shown = 0
        }
        guard enabled else {
            shown = 0
            return false
        }
        shown += dt.isFinite ? max(dt, 0) : 0
        guard shown >= dwell else { return false }
        shown = 0
        return true
    }
}
