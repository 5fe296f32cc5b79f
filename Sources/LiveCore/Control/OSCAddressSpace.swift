import AudioReactive
import Engine

/// One argument of an OSC message (the types the address space reads; the
/// rest are carried as `.other` with their type tag, to be refused).
public enum OSCArgument: Equatable, Sendable {
    case int(Int32)
    case float(Float)
    case double(Double)
    case string(String)
    case bool(Bool)
    case other(Character)

    /// The number it holds (int, float, double, true/false as 1/0), if any.
    var number: Double? {
        switch self {
        case .int(let i): Double(i)
        case .float(let f): Double(f)
        case .double(let d): d
        case .bool(let b): b ? 1 : 0
        default: nil
        }
    }
}

/// A decoded OSC message.
public struct OSCMessage: Equatable, Sendable {
    public var address: String
    public var arguments: [OSCArgument]

    public init(_ address: String, _ arguments: [OSCArgument] = []) {
        self.address = address
        self.arguments = arguments
    }
}

/// Why a message was ignored (counted, never applied).
public struct OSCRejection: Error, Equatable, Sendable, CustomStringConvertible {
    public var address: String
    public var reason: String
    public var description: String { "\(address): \(reason)" }
}

/// The documented OSC address space (docs/live-control.md): an OSC message
/// → the actions it asks for, or why not. Pure; runs on the OSC thread, so
/// the frame only applies finished actions. Switches (`blackout`, `cycle`)
/// become set-to actions, so a repeated message changes nothing.
///
///     /physarum/param/<id> f        parameter value in its own units (clamped)
///     /physarum/route/<n>/depth f   route n (1-based) depth, −2…2
///     /physarum/preset/next         /physarum/preset/prev
///     /physarum/preset/slot i       library slot 1…24
///     /physarum/blackout i          1 on, 0 off
///     /physarum/cycle i             auto-cycle 1 on, 0 off
///     /physarum/tempo f             tempo in BPM (held, like a lock)
///     /physarum/tap                 tap tempo
///     /physarum/mutate, /physarum/randomize
///     /physarum/morph f             0…1 toward the preset after the current one
///     /physarum/learn s             arm MIDI learn on a target id (`ControlTarget.id`)
public enum OSCAddressSpace {
    public static let prefix = "/physarum/"

    /// The actions for `m`. Numbers may come as i, f, d or T/F.
    public static func actions(for m: OSCMessage) -> Result<[AppAction], OSCRejection> {
        func reject(_ r: String) -> Result<[AppAction], OSCRejection> { .failure(OSCRejection(address: String(m.address.prefix(120)), reason: r)) }
        guard m.address.hasPrefix(prefix) else { return reject("not under \(prefix)") }
        let path = String(m.address.dropFirst(prefix.count))
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        func number() -> Double? {
            guard m.arguments.count == 1, let v = m.arguments[0].number, v.isFinite else { return nil }
            return v
        }
        func none() -> Bool { m.arguments.isEmpty }
        let head = parts[0], n = parts.count
        if head == "param" && n == 2 && !parts[1].isEmpty {
            let id = parts[1]
            guard let key = ParamRegistry.key(id: id) else {
                if let other = ParamRegistry.others.first(where: { $0.id == id }) {
                    let what = other.kind == .choice ? "a choice (\(other.choices.joined(separator: ", ")))" : "a colour (#rrggbb)"
                    return reject("'\(id)' is \(what), not a number: OSC sets numeric parameters only (set it in the editor, a preset or a remote)")
                }
                return reject("unknown parameter '\(id)' (see `physarum params`)")
            }
            guard !key.spec.respawn else { return reject("'\(id)' respawns the agents; load a preset instead") }
            guard let v = number() else { return reject("expects one number") }
            return .success([.setParam(key, key.spec.clamp(v))])
        }
        if head == "route" && n == 3 && parts[2] == "depth" {
            guard let i = Int(parts[1]), i >= 1, i <= AudioConfig.maxRoutes else { return reject("route number must be 1…\(AudioConfig.maxRoutes)") }
            guard let v = number() else { return reject("expects one number") }
            return .success([.audio(.setDepth(i - 1, min(max(v, Route.depthRange.lowerBound), Route.depthRange.upperBound)))])
        }
        if head == "preset" && n == 2 {
            switch parts[1] {
            case "next": return none() ? .success([.next]) : reject("takes no arguments")
            case "prev": return none() ? .success([.previous]) : reject("takes no arguments")
            case "slot":
                guard let v = number(), v == v.rounded(), v >= 1, v <= Double(LibraryDocument.slotCount) else {
                    return reject("expects a slot number 1…\(LibraryDocument.slotCount)")
                }
                return .success([.library(.jumpToSlot(Int(v) - 1))])
            default: return reject("unknown address")
            }
        }
        guard n == 1 else { return reject("unknown address") }
        switch head {
        case "blackout", "cycle":
            guard let v = number() else { return reject("expects 1 (on) or 0 (off)") }
            return .success([head == "blackout" ? .live(.setBlackout(v >= 0.5)) : .live(.setCycling(v >= 0.5))])
        case "tempo":
            guard let v = number(), v >= 20, v <= 400 else { return reject("expects a tempo in BPM, 20…400") }
            return .success([.audio(.beat(.setTempo(Float(v))))])
        case "tap", "mutate", "randomize":
            guard none() || number() != nil else { return reject("takes no arguments (or one number, ignored)") }
            let a: AppAction = switch head {
            case "tap": .audio(.beat(.tap))
            case "mutate": .mutate(amount: 0.1, seed: 0)
            default: .randomize(seed: 0)
            }
            return .success([a])
        case "learn":
            guard m.arguments.count == 1, case .string(let id) = m.arguments[0] else { return reject("expects a target id (s)") }
            guard let t = ControlTarget(id: id) else { return reject("unknown target '\(id.prefix(100))'") }
            return .success([.control(.learn(t))])
        case "morph":
            guard let v = number() else { return reject("expects t in 0…1") }
            return .success([.control(.morph(min(max(v, 0), 1)))])
        default:
            return reject("unknown address")
        }
    }
}
