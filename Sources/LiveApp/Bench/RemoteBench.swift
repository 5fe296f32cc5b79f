import Engine
import Foundation
import LiveCore
import Storage

/// Remote-control scenarios: what one message costs the network thread
/// (framing + strict decoding), and how fast garbage is skipped.
enum RemoteBench {
    static let scenarios: [BenchScenario] = [
        BenchScenario(name: "remote-decode", summary: "decode a state and a params frame (1 KiB reads); 1 MiB garbage frames refused per second") { o in
            var p = PresetParams.defaults
            p[.exposure] = 1.234
            let state = RemoteMessage.state(RemoteState(revision: 9, ack: 3, presetID: "user:1", params: p, playlist: true)).frame
            let params = RemoteMessage.params(seq: 4, [.scalar(.exposure, 1.5), .scalar(.decay, 0.97), .blendMode(.paint)]).frame
            let stream = state + params
            let loops = 2000
            var times: [Double] = []
            var decoded = 0
            for _ in 0..<o.repeats {
                times.append(timeSeconds {
                    for _ in 0..<loops {
                        var d = FrameDecoder(limit: RemoteProtocol.frameLimit)
                        var i = 0
                        while i < stream.count {
                            let n = min(1024, stream.count - i)
                            for e in d.feed(Array(stream[i..<(i + n)])) {
                                if case .frame(let b) = e, case .message = RemoteMessage.decode(b) { decoded += 1 }
                            }
                            i += n
                        }
                    }
                })
            }
            // 64 × 1 MiB garbage frames that start like an object: buffered whole,
            // then refused by the strict reader (the worst case for the network thread).
            var rng = SystemRandomNumberGenerator()
            var garbage = (0..<(4 + (1 << 20))).map { _ in UInt8.random(in: 0...255, using: &rng) }
            garbage[0] = 0; garbage[1] = 0x10; garbage[2] = 0; garbage[3] = 0; garbage[4] = UInt8(ascii: "{")
            var refused = 0
            let skipSeconds = timeSeconds {
                var d = FrameDecoder(limit: RemoteProtocol.frameLimit)
                for _ in 0..<64 {
                    garbage.withUnsafeBytes { raw in
                        var i = 0
                        while i < raw.count {
                            let n = min(65536, raw.count - i)
                            for e in d.feed(UnsafeRawBufferPointer(rebasing: raw[i..<(i + n)])) {
                                if case .frame(let b) = e, case .invalid = RemoteMessage.decode(b) { refused += 1 }
                            }
                            i += n
                        }
                    }
                }
            }
            let med = median(times)
            return [("stateBytes", .int(state.count)), ("paramsBytes", .int(params.count)), ("loops", .int(loops)),
                    ("repeats", .int(o.repeats)), ("seconds", JSONNode.rounded(med, 6)),
                    ("usPerStateAndParams", JSONNode.rounded(med / Double(loops) * 1e6, 2)),
                    ("decoded", .int(decoded / max(1, o.repeats * loops))),
                    ("garbageMiBPerSecond", JSONNode.rounded(64 / skipSeconds, 0)), ("garbageFramesRefused", .int(refused))]
        },
    ]
}
