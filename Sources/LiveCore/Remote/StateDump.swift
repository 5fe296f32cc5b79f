import AudioReactive
import Engine
import Foundation
import Storage

/// The `--state-file` document of the window, the headless host and the
/// remote: the look and cycling state, then whatever the writer adds
/// (revision, remote connection, frames rendered). One JSON object; the
/// `params` object is the flat preset format. Pure.
public enum StateDump {
    /// JSON text: preset, edited, playlist, overlay, `extra` members, params.
    public static func text(_ s: RemoteState, extra: [(String, JSONNode)] = []) -> String {
        JSONNode.object([
            ("preset", s.presetID.map { .string($0) } ?? .null),
            ("edited", .bool(s.edited)),
            ("playlist", .bool(s.playlist)),
            ("overlay", .bool(s.overlay)),
        ] + extra + [
            ("params", s.params.jsonNode),
        ]).text
    }
}

/// Rewrites state files atomically on a serial background queue; `write(sync:)`
/// waits for the write (the last one, at exit), after any queued before it.
/// Thread-safe.
public final class StateDumpWriter: Sendable {
    public static let shared = StateDumpWriter()
    private let queue = DispatchQueue(label: "physarum.state-dump")

    /// Writes `text` to `path` (temp file + rename), off the caller's thread unless `sync`.
    public func write(_ text: String, to path: String, sync: Bool = false) {
        let work: @Sendable () -> Void = { try? SafeFile.writeAtomically(Data(text.utf8), to: URL(fileURLWithPath: path)) }
        if sync { queue.sync(execute: work) } else { queue.async(execute: work) }
    }
}
