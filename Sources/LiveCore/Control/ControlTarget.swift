import AudioReactive
import Engine

/// A momentary or switchable action a MIDI control can be bound to.
public enum ControlTrigger: Hashable, Sendable {
    case next, previous
    /// Library slot, 0-based (slot 1 is 0).
    case slot(Int)
    /// Switches: a button holds them, a toggle flips them, a CC ≥ 64 sets them on.
    case blackout, cycle
    case tap, mutate, randomize
    /// Ableton Link joined (a switch).
    case link
    /// A set list transport command (momentary).
    case setList(SetListCommand)
}

/// What a MIDI control (or an OSC address) drives: a parameter slider, a
/// route's depth, the morph toward the next preset, or an action. Values of
/// continuous targets travel as 0…1 on the target's own scale (a parameter's
/// `ParamSpec.to01`; a depth's −2…2 linearly), so one binding range works for
/// every target. Pure.
public enum ControlTarget: Hashable, Sendable {
    case param(ParamKey)
    /// Route depth, 0-based route index.
    case routeDepth(Int)
    /// Morph from the look at its start toward the preset after the current one (0…1).
    case morph
    case trigger(ControlTrigger)

    /// Stable id, the same as the target's OSC address after `/physarum/`:
    /// `param/global.exposure`, `route/1/depth` (1-based), `morph`,
    /// `preset/next`, `preset/prev`, `preset/slot/3`, `blackout`, `cycle`,
    /// `tap`, `mutate`, `randomize`.
    public var id: String {
        switch self {
        case .param(let k): "param/\(k.id)"
        case .routeDepth(let i): "route/\(i + 1)/depth"
        case .morph: "morph"
        case .trigger(let t):
            switch t {
            case .next: "preset/next"
            case .previous: "preset/prev"
            case .slot(let s): "preset/slot/\(s + 1)"
            case .blackout: "blackout"
            case .cycle: "cycle"
            case .tap: "tap"
            case .mutate: "mutate"
            case .randomize: "randomize"
            case .link: "link"
            case .setList(let c): "setlist/\(c.rawValue)"
            }
        }
    }

    /// The target with this id, or nil (unknown parameter, respawning
    /// parameter, route or slot number out of range).
    public init?(id: String) {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "param" where parts.count == 2:
            guard let k = ParamRegistry.key(id: parts[1]), !k.spec.respawn else { return nil }
            self = .param(k)
        case "route" where parts.count == 3 && parts[2] == "depth":
            guard let n = Int(parts[1]), (1...AudioConfig.maxRoutes).contains(n) else { return nil }
            self = .routeDepth(n - 1)
        case "preset" where parts.count == 2 && parts[1] == "next": self = .trigger(.next)
        case "preset" where parts.count == 2 && parts[1] == "prev": self = .trigger(.previous)
        case "setlist" where parts.count == 2:
            guard let c = SetListCommand(rawValue: parts[1]) else { return nil }
            self = .trigger(.setList(c))
        case "preset" where parts.count == 3 && parts[1] == "slot":
            guard let n = Int(parts[2]), (1...LibraryDocument.slotCount).contains(n) else { return nil }
            self = .trigger(.slot(n - 1))
        default:
            guard parts.count == 1 else { return nil }
            switch parts[0] {
            case "morph": self = .morph
            case "blackout": self = .trigger(.blackout)
            case "cycle": self = .trigger(.cycle)
            case "tap": self = .trigger(.tap)
            case "mutate": self = .trigger(.mutate)
            case "randomize": self = .trigger(.randomize)
            case "link": self = .trigger(.link)
            default: return nil
            }
        }
    }

    /// A short label for the MIDI panel.
    public var label: String {
        switch self {
        case .param(let k):
            let s = k.spec
            return s.species.map { "\(s.label) (species \($0 + 1))" } ?? s.label
        case .routeDepth(let i): return "Route \(i + 1) depth"
        case .morph: return "Morph to next preset"
        case .trigger(let t):
            switch t {
            case .next: return "Next preset"
            case .previous: return "Previous preset"
            case .slot(let s): return "Slot \(s + 1)"
            case .blackout: return "Blackout"
            case .cycle: return "Auto-cycle"
            case .tap: return "Tap tempo"
            case .mutate: return "Mutate"
            case .randomize: return "Randomize"
            case .link: return "Ableton Link"
            case .setList(let c): return c.label
            }
        }
    }

    /// Continuous targets take a value; the others fire or switch.
    public var isContinuous: Bool {
        switch self {
        case .param, .routeDepth, .morph: true
        case .trigger: false
        }
    }

    /// Targets with an on/off state (a toggle's light follows it).
    public var isSwitch: Bool { self == .trigger(.blackout) || self == .trigger(.cycle) || self == .trigger(.link) }

    /// The current value 0…1 (continuous targets; 1/0 for switches), nil when
    /// it has none (momentary actions, morph, a route that does not exist).
    public func value01(in model: AppModel) -> Double? {
        switch self {
        case .param(let k): return k.spec.to01(model.base[k])
        case .routeDepth(let i):
            let routes = model.audio.config.routes
            guard routes.indices.contains(i) else { return nil }
            let r = Route.depthRange
            return (routes[i].depth - r.lowerBound) / (r.upperBound - r.lowerBound)
        case .morph: return nil
        case .trigger(.blackout): return model.live.blackout ? 1 : 0
        case .trigger(.cycle): return model.playlistOn ? 1 : 0
        case .trigger(.link): return model.control.link.enabled ? 1 : 0
        case .trigger(.slot(let s)):
            // A slot's pad lights while its preset is the one loaded.
            guard model.library.slots.indices.contains(s), let slot = model.library.slots[s] else { return 0 }
            return model.currentPreset?.id == slot.preset.id ? 1 : 0
        case .trigger(.setList(.go)): return model.setList.transport == .playing ? 1 : 0
        case .trigger(.setList(.hold)): return model.setList.transport == .held ? 1 : 0
        case .trigger: return nil
        }
    }

    /// Actions that set a continuous target to `u` (0…1), or a switch on (u ≥ 0.5) or off.
    public func set(_ u: Double, in model: AppModel) -> [AppAction] {
        let u = u.isFinite ? min(max(u, 0), 1) : 0
        switch self {
        case .param(let k): return [.setParam(k, k.spec.clamp(k.spec.from01(u)))]
        case .routeDepth(let i):
            guard model.audio.config.routes.indices.contains(i) else { return [] }
            let r = Route.depthRange
            return [.audio(.setDepth(i, r.lowerBound + u * (r.upperBound - r.lowerBound)))]
        case .morph:
            return [.control(.morph(u))]
        case .trigger(.blackout): return [.live(.setBlackout(u >= 0.5))]
        case .trigger(.cycle): return [.live(.setCycling(u >= 0.5))]
        case .trigger(.link): return [.control(.setLink(u >= 0.5))]
        case .trigger: return u >= 0.5 ? fire(in: model) : []
        }
    }

    /// Actions of one press: momentary actions fire, switches flip.
    public func fire(in model: AppModel) -> [AppAction] {
        switch self {
        case .trigger(let t):
            switch t {
            case .next: return [.next]
            case .previous: return [.previous]
            case .slot(let s): return [.library(.jumpToSlot(s))]
            case .blackout: return [.live(.toggleBlackout)]
            case .cycle: return [.togglePlaylist]
            case .tap: return [.audio(.beat(.tap))]
            case .mutate: return [.mutate(amount: 0.1, seed: 0)]
            case .randomize: return [.randomize(seed: 0)]
            case .link: return [.control(.toggleLink)]
            case .setList(let c): return [.setList(c.action)]
            }
        default:
            return []
        }
    }

    /// The preset after the current one in play order (wrapping), other than it.
    static func nextPreset(_ model: AppModel) -> String? {
        let ids = model.presets.map(\.id)
        guard ids.count > 1 else { return nil }
        let i = model.currentPreset.flatMap { ids.firstIndex(of: $0.id) } ?? -1
        return ids[(i + 1) % ids.count]
    }
}
