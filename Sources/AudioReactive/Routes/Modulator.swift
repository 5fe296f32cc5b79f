import Engine

#if canImport(Glibc)
import Glibc
#endif

/// Turns base parameters + the frame's audio features + routes into the
/// effective parameters the simulation and renderer use, every frame.
///
/// Per target: effective = clamp(from01(to01(base) + Σ depth × reactivity ×
/// fade × shaped signal)) on the parameter's own scale (linear, log or log
/// half-life); integer targets round with hysteresis so a signal hovering at
/// a rounding edge does not flicker. A target whose summed offset is exactly
/// zero keeps its base value bit for bit, and the master switch off returns the
/// base unchanged. The base is an input only — modulation never changes it.
///
/// A pure state machine (per-route smoothing, integer hold, activity), stepped
/// by the render thread; time comes from the features' sample clock, so offline
/// renders are deterministic. Not thread-safe: one owner.
public struct Modulator: Sendable {
    /// The routes, evaluated in order (their sum is order-independent).
    /// Replacing the list keeps the smoothing state of routes by index.
    public var routes: [Route] {
        didSet { resizeState() }
    }
    /// Master switch: off ⇒ `process` returns the base exactly.
    public var enabled: Bool = true
    /// Global sensitivity: scales every route's depth (1 = as authored).
    public var reactivity: Double = 1
    /// Fade toward base (1 = full modulation, 0 = base), e.g. while audio
    /// capture is lost. Ramp it with `advanceFade`.
    public var fade: Double = 1
    /// Per route: its signed contribution right now, in the target's 0…1 space
    /// (depth × reactivity × fade × shaped signal; 0 when muted or not soloed).
    /// For the editor's activity meters.
    public private(set) var activity: [Double] = []

    /// Hysteresis margin beyond the ±0.5 rounding edge, in integer units.
    public static let integerHysteresis = 0.2

    private var smoothed: [Double] = []
    /// Per route: the parameter indices its target expands to.
    private var targetIndices: [[Int]] = []
    private var offsets = [Double](repeating: 0, count: ParamKey.count)
    /// Last integer output per parameter (NaN = none yet).
    private var held = [Double](repeating: .nan, count: ParamKey.count)
    private var lastTime: Double?

    /// A modulator with `routes`, master on, reactivity 1, no fade.
    public init(routes: [Route] = []) {
        self.routes = routes
        resizeState()
    }

    /// Effective parameters for this frame. `features` hold the frame's level
    /// (last hop) and transient (maximum over the frame's hops) per source.
    public mutating func process(base: PresetParams, features: AudioFeatures) -> PresetParams {
        guard enabled else {
            reset()
            return base
        }
        let dt = lastTime.map { Swift.max(0, features.time - $0) } ?? 0
        lastTime = features.time
        let anySolo = routes.contains { $0.solo }
        let scale = Self.finite01(reactivity, upper: .infinity) * Self.finite01(fade, upper: 1)
        for i in offsets.indices { offsets[i] = 0 }

        // Fields are read in place (`routes[r].x`): binding each route to a
        // local copied the whole struct, strings and all, per route per frame.
        for r in routes.indices {
            let raw = Self.finite01(Double(routes[r].source.signal(features, mode: routes[r].mode)), upper: 1)
            var s = raw
            if let ms = routes[r].smoothing, ms > 0 {
                let alpha = 1 - exp(-dt / (ms / 1000))
                s = smoothed[r] + alpha * (raw - smoothed[r])
            }
            smoothed[r] = s
            let curve = routes[r].curve
            var shaped = curve == 1 ? s : pow(s, curve)
            if routes[r].invert { shaped = 1 - shaped }
            let playing = !routes[r].muted && (!anySolo || routes[r].solo)
            let contribution = playing ? routes[r].depth * scale * shaped : 0
            activity[r] = contribution
            if contribution != 0 {
                for k in targetIndices[r] { offsets[k] += contribution }
            }
        }

        var out = base
        for i in 0..<ParamKey.count {
            let key = ParamKey(index: i)
            let spec = key.spec
            guard offsets[i] != 0, offsets[i].isFinite else {
                held[i] = .nan
                continue
            }
            let u = Swift.min(Swift.max(spec.to01(base[key]) + offsets[i], 0), 1)
            var v = spec.from01(u)
            if spec.integer {
                v = Self.roundWithHysteresis(v, held: held[i])
                held[i] = v
            }
            out[key] = v
        }
        return out
    }

    /// Rounds `x` to an integer, keeping `held` while `x` stays within
    /// ±(0.5 + `integerHysteresis`) of it.
    public static func roundWithHysteresis(_ x: Double, held: Double) -> Double {
        if held.isFinite, abs(x - held) <= 0.5 + integerHysteresis { return held }
        return x.rounded()
    }

    /// Moves `fade` toward `target` (0…1) by `elapsed` seconds at a rate that
    /// covers 0→1 in `duration` seconds.
    public mutating func advanceFade(toward target: Double, elapsed: Double, duration: Double = 1) {
        let t = Self.finite01(target, upper: 1)
        let step = duration > 0 ? Swift.max(0, elapsed) / duration : 1
        fade = fade < t ? Swift.min(t, fade + step) : Swift.max(t, fade - step)
    }

    /// Clears smoothing, integer hold and activity (e.g. after a seek or when
    /// the master switch goes off).
    public mutating func reset() {
        for i in smoothed.indices { smoothed[i] = 0 }
        for i in activity.indices { activity[i] = 0 }
        for i in held.indices { held[i] = .nan }
        lastTime = nil
    }

    /// Replaces the routes with the default wiring.
    public mutating func applyDefaultWiring() {
        routes = DefaultWiring.routes
    }

    private mutating func resizeState() {
        targetIndices = routes.map { $0.target.keys.map(\.index) }
        if smoothed.count != routes.count {
            smoothed = Array(smoothed.prefix(routes.count)) + Array(repeating: 0, count: Swift.max(0, routes.count - smoothed.count))
            activity = Array(activity.prefix(routes.count)) + Array(repeating: 0, count: Swift.max(0, routes.count - activity.count))
        }
    }

    /// `v` clamped to 0…upper; NaN becomes 0.
    static func finite01(_ v: Double, upper: Double) -> Double {
        v.isNaN ? 0 : Swift.min(Swift.max(v, 0), upper)
    }
}
