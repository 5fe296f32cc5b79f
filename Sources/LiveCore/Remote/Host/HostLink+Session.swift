/// The host's frame-loop side in a live session: network events become
/// actions in the drain (then a pushed look whose fade reached its black
/// point gets its parameters), and the state is published after the frame.
extension HostLink: ActionSource, FrameFeedback {
    public func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        pump(model: { inbox.model }, apply: inbox.post)
        completePush(fadePending: fadePending(), model: { inbox.model }, apply: inbox.post)
    }

    public func frameDone(_ report: FrameReport) { publish(model: report.model) }

    /// A pushed look that changes the preset fades through `cycle` (out to
    /// black, switch, in) instead of cutting; register this link after the
    /// cycle so the switch is applied before the push completes.
    public func fade(through cycle: AutoCycleSource) {
        requestFade = { [unowned cycle] id in cycle.cycle.request(id) }
        fadePending = { [unowned cycle] in cycle.fadePending }
    }
}
