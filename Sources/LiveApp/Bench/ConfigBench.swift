import AudioReactive
import Engine
import Foundation
import Storage

/// Routes and config scenarios: the per-frame modulator cost and strict
/// config parsing speed.
enum ConfigBench {
    static let scenarios: [BenchScenario] = [
        BenchScenario(name: "modulator-256", summary: "Modulator.process per frame with 256 routes (the config maximum)") { o in
            var routes: [Route] = []
            let targets = RouteTarget.allIDs.compactMap(RouteTarget.init(id:))
            for k in 0..<AudioConfig.maxRoutes {
                routes.append(Route(source: RouteSource(AudioSourceID.allCases[k % AudioSourceID.count]), target: targets[k % targets.count],
                                    mode: k % 3 == 0 ? .transient : .level, depth: 0.1, smoothing: k % 2 == 0 ? 50 : nil,
                                    curve: k % 5 == 0 ? 1.5 : 1))
            }
            var m = Modulator(routes: routes)
            let base = PresetParams()
            let frames = 20_000
            var sink = 0.0
            var times: [Double] = []
            for _ in 0..<o.repeats {
                times.append(timeSeconds {
                    for f in 0..<frames {
                        var feats = AudioFeatures(time: Double(f) / 60)
                        for s in AudioSourceID.allCases {
                            feats[s].level = Float((f + s.index * 7) % 60) / 60
                            feats[s].transient = f % 30 == 0 ? 1 : 0
                        }
                        sink += m.process(base: base, features: feats)[.bloom]
                    }
                })
            }
            let med = median(times)
            return [("routes", .int(routes.count)), ("frames", .int(frames)), ("repeats", .int(o.repeats)),
                    ("seconds", JSONNode.rounded(med, 6)), ("usPerFrame", JSONNode.rounded(med / Double(frames) * 1e6, 3)),
                    ("checksum", JSONNode.rounded(sink, 3))]
        },
        BenchScenario(name: "config-parse", summary: "strict load of a 256-route audio config (parse + validate)") { o in
            var c = AudioConfig.builtInDefault
            let targets = RouteTarget.allIDs.compactMap(RouteTarget.init(id:))
            c.routes = (0..<AudioConfig.maxRoutes).map {
                Route(source: .bass, target: targets[$0 % targets.count], depth: 0.25, smoothing: 40)
            }
            let data = Data(c.jsonText.utf8)
            let loops = 200
            var times: [Double] = []
            var count = 0
            for _ in 0..<o.repeats {
                times.append(timeSeconds {
                    for _ in 0..<loops { count += (try? AudioConfig.decode(data: data))?.config.routes.count ?? 0 }
                })
            }
            let med = median(times)
            return [("bytes", .int(data.count)), ("loops", .int(loops)), ("repeats", .int(o.repeats)),
                    ("seconds", JSONNode.rounded(med, 6)), ("msPerLoad", JSONNode.rounded(med / Double(loops) * 1000, 4)),
                    ("MBPerSecond", JSONNode.rounded(Double(data.count * loops) / med / 1e6, 1)), ("routesRead", .int(count / max(1, o.repeats * loops)))]
        },
    ]
}
