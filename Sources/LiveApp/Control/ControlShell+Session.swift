import Dispatch
import LiveCore

/// The live controls in a session. As a source: OSC actions (decoded on
/// their thread), MIDI through the bindings, then this frame's tempo (MIDI
/// clock or the beat tracker on the heard features), the features behind
/// the visual offset, and the mutate/randomize whose beat has come. As a
/// feedback: MIDI feedback and the OSC feature frame (queued to their
/// threads), and the latency readout's measurements (the frame's latch to
/// its present, each onset it showed).
extension ControlShell: ActionSource, FrameFeedback {
    func drain(_ inputs: inout TickInputs, into inbox: ActionInbox) {
        applyInput(model: { inbox.model }, clockShift: clockShift, apply: { inbox.post($0) })
        (inputs.tempo, inputs.features) = beginFrame(time: inputs.tick.time, features: inputs.heard, link: inputs.link,
                                                     offsetMs: inbox.model.control.visualOffsetMs)
        for a in dueActions() { inbox.postDue(a) }
    }

    func frameDone(_ report: FrameReport) {
        tempo = report.inputs.tempo
        linkQuantum = report.model.control.link.quantum
        endFrame(model: report.model, features: report.inputs.heard, time: report.tick.time)
        if let audio {
            // The window presented in the pipeline's delivery: now is after the swap.
            measure(audio: audio, latched: audio.latchedAt, presented: DispatchTime.now().uptimeNanoseconds)
        }
    }
}
