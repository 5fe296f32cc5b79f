import AudioReactive
import Engine
import Foundation

/// The live session: the app's state (through its `ActionDispatcher`) and
/// the one `FramePipeline`, driven one tick at a time by a clock. Every
/// driver — the live window, the headless host, tests — builds one and
/// differs only in the sources and feedbacks it registers and its clock.
///
/// `tick(_:)` does four steps in a fixed order:
/// 1. drain every `ActionSource` in registration order (each posts actions,
///    applied at once through the dispatcher, and fills in its part of the
///    frame's inputs);
/// 2. the dispatcher is the one point where actions change the model;
/// 3. run the pipeline on the model's base and the inputs (modulation,
///    governor, steps, render, the pipeline's outputs — the window presents);
/// 4. give the finished frame to every `FrameFeedback` in registration order.
///
/// Not thread-safe: the driver's thread (the main thread) owns it.
public final class LiveSession {
    /// Applies actions to the model and their effects (reseeds here, the rest to `perform`).
    public let dispatcher: ActionDispatcher
    /// Modulation → governor → simulation → render → outputs.
    public let pipeline: FramePipeline
    private var sources: [any ActionSource] = []
    private var feedbacks: [any FrameFeedback] = []
    /// Seconds spent in each source's drain and each feedback, by object.
    private var spent: [ObjectIdentifier: Double] = [:]
    private let clock = ContinuousClock()
    /// The last tick's report (nil before the first).
    public private(set) var lastReport: FrameReport?

    /// A session on `pipeline` starting from `model`; `seed` is the first of
    /// the reseeds and of randomize/mutate.
    public init(model: AppModel, pipeline: FramePipeline, seed: UInt64) {
        self.pipeline = pipeline
        dispatcher = ActionDispatcher(model: model, pipeline: pipeline, seed: seed)
    }

    /// The app's state now.
    public var model: AppModel { dispatcher.model }

    /// Adds a source; sources are drained in the order they were added.
    public func add(source: any ActionSource) { sources.append(source) }

    /// Adds a feedback; feedbacks see each frame in the order they were added.
    public func add(feedback: any FrameFeedback) { feedbacks.append(feedback) }

    /// Applies actions outside a tick (start-up: restoring the session, options).
    public func apply(_ actions: [AppAction]) { dispatcher.apply(actions) }

    /// Applies one action outside a tick.
    public func apply(_ action: AppAction) { dispatcher.apply(action) }

    /// Seconds spent so far in `object`'s drains and feedbacks (for stats).
    public func seconds(spentIn object: AnyObject) -> Double { spent[ObjectIdentifier(object)] ?? 0 }

    /// One tick: drain → apply → pipeline → feedback. Returns what it did.
    @discardableResult
    public func tick(_ tick: FrameTick) -> FrameReport {
        let t0 = clock.now
        var inputs = TickInputs(tick: tick)
        dispatcher.apply(.expireNotices(now: tick.time))
        let inbox = ActionInbox(dispatcher: dispatcher)
        for s in sources {
            let start = clock.now
            s.drain(&inputs, into: inbox)
            spent[ObjectIdentifier(s), default: 0] += Self.seconds(clock.now - start)
        }
        if let driving = inputs.audioDriving {
            pipeline.modulator.advanceFade(toward: driving ? 1 : 0, elapsed: tick.dt, duration: 1)
        }
        let t1 = clock.now
        let input = FramePipeline.Input(base: model.base, features: inputs.features, brightness: inputs.brightness,
                                        outputSize: inputs.outputSize)
        let effective = pipeline.simulate(input)
        let t2 = clock.now
        pipeline.render(input, params: effective)
        let t3 = clock.now
        let frame = pipeline.deliver(tick: tick)
        let t4 = clock.now
        let timing = FrameReport.Timing(drain: Self.ms(t1 - t0), simulate: Self.ms(t2 - t1), render: Self.ms(t3 - t2),
                                        deliver: Self.ms(t4 - t3))
        let report = FrameReport(inputs: inputs, frame: frame, model: model, timing: timing)
        lastReport = report
        for f in feedbacks {
            let start = clock.now
            f.frameDone(report)
            spent[ObjectIdentifier(f), default: 0] += Self.seconds(clock.now - start)
        }
        return report
    }

    /// Runs ticks from `clock` until it ends.
    public func run(_ clock: inout some FrameClock, afterTick: (FrameReport) -> Void = { _ in }) {
        while let t = clock.next() { afterTick(tick(t)) }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func ms(_ d: Duration) -> Double { seconds(d) * 1000 }
}
