import LiveCore

/// The audio side as a session source: the frame's features (the frame rule
/// over the hops since the last frame; the picture's own at the pipeline's
/// late latch), whether sound drives the modulation,
/// capture notices, and the replies of config and source work.
extension AudioShell: ActionSource {
    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        if let link {
            // The picture latches again just before the post chain (the
            // pipeline's late latch, set by the window), unless the visual
            // offset delays the features anyway.
            let late = pipeline.lateFeatures != nil && inbox.model.control.visualOffsetMs == 0
            inputs.heard = link.frameFeatures(lateLatch: late)
            inputs.features = inputs.heard
            inputs.audioDriving = link.isDriving
            for n in link.takeNotices() { inbox.post(.notice(n, .warning)) }
        }
        inbox.post(drainActions())
    }
}
