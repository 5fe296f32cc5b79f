import Dispatch
import LiveCore

/// The audio side as a session source: the frame's features (the frame rule
/// over the hops since the last frame), whether sound drives the modulation,
/// capture notices, and the replies of config and source work.
extension AudioShell: ActionSource {
    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        if let link {
            inputs.heard = link.frameFeatures()
            inputs.features = inputs.heard
            inputs.featuresDrainedAt = DispatchTime.now().uptimeNanoseconds
            inputs.audioDriving = link.isDriving
            for n in link.takeNotices() { inbox.post(.notice(n, .warning)) }
        }
        inbox.post(drainActions())
    }
}
