import AudioReactive
import CLiblo
import Foundation
import LiveCore

/// OSC on the wire through liblo: datagrams → `OSCMessage`s (bundles
/// unpacked here, each element decoded by `lo_message_deserialise`, which
/// checks every length and type), and feature frames → one bundle sent with
/// `lo_send_bundle`. The only file that imports CLiblo.
enum OSCWire {
    /// Decodes one UDP datagram: its messages (a bundle may hold several,
    /// nested up to 4 deep) or the reason it is malformed.
    static func decode(_ data: UnsafeRawBufferPointer) -> (messages: [OSCMessage], problem: String?) {
        var out: [OSCMessage] = []
        if let problem = decode(data, depth: 0, into: &out) { return ([], problem) }
        return (out, nil)
    }

    private static let bundleTag = Array("#bundle\0".utf8)

    private static func decode(_ data: UnsafeRawBufferPointer, depth: Int, into out: inout [OSCMessage]) -> String? {
        guard data.count >= 4, data.count % 4 == 0 else { return "a packet of \(data.count) bytes is not an OSC packet (a multiple of 4)" }
        if data.count >= 16, Array(data[0..<8]) == bundleTag {
            guard depth < 4 else { return "bundles nested too deep" }
            var at = 16  // tag + time tag
            while at < data.count {
                guard at + 4 <= data.count else { return "truncated bundle element size" }
                let size = Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
                at += 4
                guard size > 0, size <= data.count - at else { return "bundle element of \(size) bytes overruns the packet" }
                if let p = decode(UnsafeRawBufferPointer(rebasing: data[at..<(at + size)]), depth: depth + 1, into: &out) { return p }
                at += size
            }
            return nil
        }
        guard let base = data.baseAddress else { return "empty packet" }
        var result: Int32 = 0
        // lo_message_deserialise validates the path, type tags and every argument's length.
        guard let msg = lo_message_deserialise(UnsafeMutableRawPointer(mutating: base), data.count, &result) else {
            return "malformed OSC message (liblo error \(result))"
        }
        defer { lo_message_free(msg) }
        guard let pathC = lo_get_path(UnsafeMutableRawPointer(mutating: base), data.count) else { return "malformed OSC path" }
        let address = String(cString: pathC)
        let argc = Int(lo_message_get_argc(msg))
        let types = lo_message_get_types(msg).map { String(cString: $0) } ?? ""
        if argc == 0 {
            out.append(OSCMessage(address))
            return nil
        }
        guard types.utf8.count == argc else { return "malformed OSC arguments" }
        // T, F, N and I carry no data (OSC 1.0/1.1): liblo gives them no argv
        // entry (argv itself is NULL when every argument is one of them).
        let argv = lo_message_get_argv(msg)
        var args: [OSCArgument] = []
        args.reserveCapacity(argc)
        for (i, t) in types.enumerated() {
            switch t {
            case "T": args.append(.bool(true)); continue
            case "F": args.append(.bool(false)); continue
            case "N": args.append(.nil); continue
            case "I": args.append(.impulse); continue
            default: break
            }
            guard let argv, let a = argv[i] else { return "malformed OSC argument \(i)" }
            switch t {
            case "i": args.append(.int(clo_arg_i(a)))
            case "f": args.append(.float(clo_arg_f(a)))
            case "d": args.append(.double(clo_arg_d(a)))
            case "h": args.append(.double(Double(clo_arg_h(a))))
            case "s", "S": args.append(.string(String(cString: clo_arg_s(a))))
            default: args.append(.other(t))
            }
        }
        out.append(OSCMessage(address, args))
        return nil
    }

}

/// One frame of analysis as sent over OSC (docs/live-control.md, "OSC out").
struct FeatureFrame: Sendable {
    var index: Int
    /// Seconds on the sender's clock (the sample clock for `analyze`, the frame clock in the window).
    var time: Double
    var features: AudioFeatures
}

/// A destination for the feature stream: an `lo_address` (UDP). Sends one
/// bundle per frame:
///
///     /physarum/frame     i d        frame index, time in seconds
///     /physarum/levels    f × 8      sub bass lowMid mid highMid presence brilliance full
///     /physarum/transients f × 8     the same order
///     /physarum/onset     i          1 when a broadband onset fell in this frame
///     /physarum/beat      f f i i i  tempo (BPM), phase 0…1, beat, bar, beat in bar
///
/// Used by one sender thread (`@unchecked Sendable`: the address is touched
/// only there after init).
final class OSCDestination: @unchecked Sendable {
    private let address: lo_address
    let label: String

    /// Resolves `host`:`port` now (getaddrinfo: a name that does not resolve
    /// is an error here, not silence later), then makes liblo's address
    /// (lo_address_new). Throws a readable message.
    init(host: String, port: Int) throws(NetError) {
        _ = try SocketAddress.resolve(host: host, port: port, passive: false)
        guard let a = lo_address_new(host, String(port)) else { throw NetError("cannot use \(host):\(port) as an OSC destination") }
        address = a
        label = "\(host):\(port)"
    }

    deinit { lo_address_free(address) }

    /// Sends messages as one bundle (lo_send_bundle): floats, ints, strings,
    /// true/false; false when the send failed.
    func send(_ messages: [OSCMessage]) -> Bool {
        guard !messages.isEmpty, let bundle = lo_bundle_new(clo_tt_immediate()) else { return messages.isEmpty }
        defer { lo_bundle_free_recursive(bundle) }
        for msg in messages {
            guard let m = lo_message_new() else { continue }
            for a in msg.arguments {
                switch a {
                case .int(let i): lo_message_add_int32(m, i)
                case .float(let f): lo_message_add_float(m, f)
                case .double(let d): lo_message_add_double(m, d)
                case .string(let t): lo_message_add_string(m, t)
                case .bool(let b): if b { lo_message_add_true(m) } else { lo_message_add_false(m) }
                case .nil: lo_message_add_nil(m)
                case .impulse: lo_message_add_infinitum(m)
                case .other: break
                }
            }
            lo_bundle_add_message(bundle, msg.address, m)
        }
        return lo_send_bundle(address, bundle) >= 0
    }

    /// Sends one frame as a bundle (lo_send_bundle); false when the send failed.
    func send(_ f: FeatureFrame) -> Bool {
        guard let bundle = lo_bundle_new(clo_tt_immediate()) else { return false }
        defer { lo_bundle_free_recursive(bundle) }
        func message(_ path: String, _ fill: (lo_message) -> Void) {
            guard let m = lo_message_new() else { return }
            fill(m)
            lo_bundle_add_message(bundle, path, m)
        }
        message("/physarum/frame") { m in
            lo_message_add_int32(m, Int32(truncatingIfNeeded: f.index))
            lo_message_add_double(m, f.time)
        }
        message("/physarum/levels") { m in for id in AudioSourceID.allCases { lo_message_add_float(m, f.features[id].level) } }
        message("/physarum/transients") { m in for id in AudioSourceID.allCases { lo_message_add_float(m, f.features[id].transient) } }
        message("/physarum/onset") { m in lo_message_add_int32(m, f.features.onset ? 1 : 0) }
        message("/physarum/beat") { m in
            let b = f.features.beat
            lo_message_add_float(m, b.tempo)
            lo_message_add_float(m, b.phase)
            lo_message_add_int32(m, b.beat ? 1 : 0)
            lo_message_add_int32(m, b.bar ? 1 : 0)
            lo_message_add_int32(m, Int32(b.beatInBar))
        }
        return lo_send_bundle(address, bundle) >= 0
    }
}
