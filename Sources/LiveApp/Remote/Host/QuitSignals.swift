import Foundation
import Synchronization

/// SIGTERM and SIGINT as a flag the headless loops poll (a dispatch signal
/// source on a background queue; the default actions are ignored once it is
/// installed). Thread-safe: the sources are only set up in init; the flag is atomic.
final class QuitSignals: @unchecked Sendable {
    private let flag = Atomic<Bool>(false)
    private let sources: [any DispatchSourceSignal]

    init() {
        var list: [any DispatchSourceSignal] = []
        let queue = DispatchQueue(label: "physarum.signals")
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            list.append(s)
        }
        sources = list
        for s in sources {
            s.setEventHandler { [unowned self] in flag.store(true, ordering: .relaxed) }
            s.resume()
        }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Whether a quit signal arrived.
    var received: Bool { flag.load(ordering: .relaxed) }
}
