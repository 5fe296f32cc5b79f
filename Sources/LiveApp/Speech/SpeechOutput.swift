import CSpeechd
import Glibc
import Dispatch
import LiveCore
import Synchronization

/// Speaks through speech-dispatcher (libspeechd), the desktop's speech
/// service that screen readers use. The connection is opened, used and
/// closed on one serial worker queue, so the frame loop never waits on the
/// socket; at most `maxPending` messages wait, newer ones are dropped.
/// Two connections: the controls' words on one, where a new focus or help
/// interrupts what was not said yet (spd_cancel, then priority "text"); the
/// notices on the other ("message" priority), which nothing cancels.
///
/// Thread safety: the `SPDConnection` pointer is touched only on `queue`;
/// `say`, `takeProblem` and `deinit` may run on any thread.
final class SpeechOutput: @unchecked Sendable {
    static let maxPending = 32
    private let queue = DispatchQueue(label: "physarum.speech")
    private let pending = Mutex(0)
    private let problem = Mutex<(text: String?, reported: Bool)>((nil, false))
    /// The connections, touched only on `queue` (a box, so closing them can be
    /// queued from `deinit` without waiting for a connection attempt).
    private final class Connections: @unchecked Sendable {
        var controls: UnsafeMutablePointer<SPDConnection>?
        var notices: UnsafeMutablePointer<SPDConnection>?
    }
    private let box = Connections()

    /// Connects (spd_open2) to the service at `socketPath`, or by default at
    /// $SPEECHD_ADDRESS or the user's socket, starting the service when the
    /// desktop allows it.
    init(socketPath: String? = nil) {
        queue.async { [self] in
            for name in ["controls", "notices"] {
                var error: UnsafeMutablePointer<CChar>?
                var c: UnsafeMutablePointer<SPDConnection>?
                if let socketPath {
                    var address = SPDConnectionAddress()
                    address.method = SPD_METHOD_UNIX_SOCKET
                    address.unix_socket_name = strdup(socketPath)
                    c = spd_open2("physarum", name, nil, SPD_MODE_SINGLE, &address, 0, &error)
                    free(address.unix_socket_name)
                } else {
                    c = spd_open2("physarum", name, nil, SPD_MODE_SINGLE, nil, 1, &error)
                }
                guard let c else {
                    let why = error.map { String(cString: $0) } ?? "no reason given"
                    free(error)
                    problem.withLock { $0.text = "cannot reach speech-dispatcher (\(why))" }
                    return
                }
                if name == "controls" { box.controls = c } else { box.notices = c }
            }
        }
    }

    deinit {
        queue.async { [box] in
            if let p = box.controls { spd_close(p) }
            if let p = box.notices { spd_close(p) }
            box.controls = nil
            box.notices = nil
        }
    }

    /// Why speech does not work, once (then nil).
    func takeProblem() -> String? {
        problem.withLock { p in
            guard let t = p.text, !p.reported else { return nil }
            p.reported = true
            return t
        }
    }

    /// Queues `u` for speaking (dropped when `maxPending` are waiting).
    func say(_ u: SpeechFeedback.Utterance) {
        let ok = pending.withLock { n in
            guard n < Self.maxPending else { return false }
            n += 1
            return true
        }
        guard ok else { return }
        queue.async { [self] in
            pending.withLock { $0 -= 1 }
            let notice = u.kind == .notice
            guard let c = notice ? box.notices : box.controls else { return }
            if u.kind == .focus || u.kind == .help || u.kind == .popover { spd_cancel(c) }
            if spd_say(c, notice ? SPD_MESSAGE : SPD_TEXT, u.text) < 0 {
                problem.withLock { if $0.text == nil { $0.text = "speech-dispatcher refused a message" } }
            }
        }
    }
}
