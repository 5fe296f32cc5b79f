import Engine

/// The one place where actions are applied, for every input (keys, panels,
/// the remote, files, timers): fresh seeds for randomize/mutate, the model's
/// `handle`, and the effects — a reseed goes to the pipeline, a notice to
/// the log, everything else to the shell (`perform`), whose follow-up
/// actions are applied in turn. Main thread only.
public final class ActionDispatcher {
    /// The app's state; `apply` is its only writer.
    public private(set) var model: AppModel
    /// The pipeline that a reseed restarts.
    public let pipeline: FramePipeline
    /// The last seed used (randomize, mutate, reseeds count up from it).
    public private(set) var seed: UInt64
    /// Shell work for effects other than `.reseed` and `.logNotice`; returns actions to apply next.
    public var perform: (AppEffect) -> [AppAction] = { _ in [] }
    /// Where notices go besides the model (stderr in the app).
    public var log: (String) -> Void = { _ in }
    /// Sees every action before the model; may consume it or watch the look change.
    public var observer: (any ActionObserver)?
    /// Keeps an action for later (mutate/randomize quantised to the beat):
    /// true when it was kept; the shell applies it with `applyNow` when due.
    public var keepForLater: ((AppAction) -> Bool)?

    public init(model: AppModel, pipeline: FramePipeline, seed: UInt64) {
        self.model = model
        self.pipeline = pipeline
        self.seed = seed
    }

    /// Applies `action` and the actions its effects lead to.
    public func apply(_ action: AppAction) {
        apply(action, deferrable: true)
    }

    /// Applies an action that was kept for later (it is not kept again).
    public func applyNow(_ action: AppAction) {
        apply(action, deferrable: false)
    }

    private func apply(_ action: AppAction, deferrable: Bool) {
        var a = action
        switch a {
        case .randomize(seed: 0):
            seed &+= 1
            a = .randomize(seed: seed)
        case .mutate(let amount, seed: 0):
            seed &+= 1
            a = .mutate(amount: amount, seed: seed)
        default:
            break
        }
        if deferrable, keepForLater?(a) == true { return }
        if observer?.intercept(a) == true { return }
        let before = model.base
        defer { observer?.applied(before: before, after: model.base) }
        for effect in model.handle(a) {
            switch effect {
            case .reseed:
                reseed()
            case .logNotice(let text):
                log(text)
            default:
                for next in perform(effect) { apply(next) }
            }
        }
    }

    /// Applies each action in order.
    public func apply(_ actions: [AppAction]) {
        for a in actions { apply(a) }
    }

    /// Restarts the simulation with the model's base and the next seed.
    public func reseed() {
        seed &+= 1
        pipeline.reseed(seed: seed, params: model.base)
    }
}

/// Watches the dispatcher: a remote editor sends intents to its host
/// instead of applying them, and mirrors local edits.
public protocol ActionObserver: AnyObject {
    /// True when the action was handled elsewhere and must not be applied.
    func intercept(_ action: AppAction) -> Bool
    /// After an action: the base before and after it.
    func applied(before: PresetParams, after: PresetParams)
}
