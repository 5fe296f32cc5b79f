import AudioReactive
import Engine

/// One argument of an OSC message (the types the address space reads; the
/// rest are carried as `.other` with their type tag, to be refused).
/// OSC 1.0/1.1's data-less tags: `T`/`F` are `.bool`, `N` is `.nil`, `I`
/// (Infinitum in 1.0, Impulse — a "bang" — in 1.1) is `.impulse`.
public enum OSCArgument: Equatable, Sendable {
    case int(Int32)
    case float(Float)
    case double(Double)
    case string(String)
    case bool(Bool)
    /// `N`: no value.
    case `nil`
    /// `I`: an impulse ("bang"; Infinitum in OSC 1.0).
    case impulse
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
    /// The address as logged (cut by `OSCText.clip`).
    public var address: String
    public var reason: String
    public var description: String { "\(address): \(reason)" }
}

/// Text from the network as it may appear in a log line or a notice: at
/// most `limit` characters; longer text is cut and says how long it was
/// ("/physarum/xxxx… (27000 bytes)"), control characters shown as "?".
public enum OSCText {
    public static let limit = 80

    public static func clip(_ s: String, limit: Int = OSCText.limit) -> String {
        let bytes = s.utf8.count
        let shown = String(s.unicodeScalars.prefix(limit).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return s.unicodeScalars.count > limit ? "\(shown)… (\(bytes) bytes)" : shown
    }
}

/// What the address space needs to know of the app's state to refuse
/// addresses that name something absent (kept fresh by the frame; read on
/// the OSC thread).
public struct OSCContext: Equatable, Sendable {
    /// Routes in the audio config now (`/physarum/route/<n>/depth` needs n ≤ this).
    public var routeCount: Int

    public init(routeCount: Int = AudioConfig.maxRoutes) { self.routeCount = routeCount }
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
///     /physarum/link i              join (1) or leave (0) the Ableton Link session
///     /physarum/setlist/go, …/back, …/hold, …/skip, …/stop   the set list
///     /physarum/tempo f             tempo in BPM (held, like a lock)
///     /physarum/tap                 tap tempo
///     /physarum/mutate, /physarum/randomize
///     /physarum/morph f             0…1 toward the preset after the current one
///     /physarum/learn s             arm MIDI learn on a target id (`ControlTarget.id`)
public enum OSCAddressSpace {
    public static let prefix = "/physarum/"

    /// The actions for `m`. Numbers may come as i, f, d or T/F; an address
    /// without arguments also takes one N or I. `context`: refuses a route
    /// that does not exist.
    public static func actions(for m: OSCMessage, context: OSCContext = OSCContext()) -> Result<[AppAction], OSCRejection> {
        func reject(_ r: String) -> Result<[AppAction], OSCRejection> { .failure(OSCRejection(address: OSCText.clip(m.address), reason: r)) }
        guard m.address.hasPrefix(prefix) else { return reject("not under \(prefix)") }
        let path = String(m.address.dropFirst(prefix.count))
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        func number() -> Double? {
            guard m.arguments.count == 1, let v = m.arguments[0].number, v.isFinite else { return nil }
            return v
        }
        func none() -> Bool { m.arguments.isEmpty || m.arguments == [.impulse] || m.arguments == [.nil] }
        let head = parts[0], n = parts.count
        if head == "param" && n == 2 && !parts[1].isEmpty {
            let id = parts[1]
            guard let key = ParamRegistry.key(id: id) else {
                if let other = ParamRegistry.others.first(where: { $0.id == id }) {
                    let what = other.kind == .choice ? "a choice (\(other.choices.joined(separator: ", ")))" : "a colour (#rrggbb)"
                    return reject("'\(OSCText.clip(id, limit: 40))' is \(what), not a number: OSC sets numeric parameters only (set it in the editor, a preset or a remote)")
                }
                return reject("unknown parameter '\(OSCText.clip(id, limit: 40))' (see `physarum params`)")
            }
            guard !key.spec.respawn else { return reject("'\(id)' respawns the agents; load a preset instead") }
            guard let v = number() else { return reject("expects one number") }
            return .success([.setParam(key, key.spec.clamp(v))])
        }
        if head == "route" && n == 3 && parts[2] == "depth" {
            guard let i = Int(parts[1]), i >= 1, i <= AudioConfig.maxRoutes else { return reject("route number must be 1…\(AudioConfig.maxRoutes)") }
            guard i <= context.routeCount else {
                return reject(context.routeCount == 0 ? "there are no routes" : "there is no route \(i) (the config has \(context.routeCount))")
            }
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
        if head == "setlist" && n == 2 {
            guard let a = SetListCommand(rawValue: parts[1])?.action else { return reject("unknown set list command (go, back, hold, skip, stop)") }
            guard none() || number() != nil else { return reject("takes no arguments (or one number, ignored)") }
            return .success([.setList(a)])
        }
        guard n == 1 else { return reject("unknown address") }
        switch head {
        case "blackout", "cycle", "link":
            guard let v = number() else { return reject("expects 1 (on) or 0 (off)") }
            let on = v >= 0.5
            return .success([head == "blackout" ? .live(.setBlackout(on)) : head == "cycle" ? .live(.setCycling(on)) : .control(.setLink(on))])
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
            guard let t = ControlTarget(id: id) else { return reject("unknown target '\(OSCText.clip(id, limit: 40))'") }
            return .success([.control(.learn(t))])
        case "morph":
            guard let v = number() else { return reject("expects t in 0…1") }
            return .success([.control(.morph(min(max(v, 0), 1)))])
        default:
            return reject("unknown address")
        }
    }
}
