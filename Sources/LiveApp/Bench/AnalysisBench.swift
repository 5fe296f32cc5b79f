import AudioReactive
import Storage

/// The `analysis` scenario: the whole per-hop analysis on the demo groove.
enum AnalysisBench {
    static let scenarios: [BenchScenario] = [
        BenchScenario(name: "analysis", summary: "audio analysis per hop on 20 s of the demo groove (target <= 2 % of a core; usPerHop, percentOfCore, cpu*)") { o in
            let seconds = 20.0
            let rate = 48000.0
            var groove = Groove(seed: 1, sampleRate: rate)
            let samples = groove.render(count: Int(seconds * rate))
            var times: [Double] = [], cpu: [Double] = []
            var hops = 0
            var onsets = 0
            var layout = AnalysisLayout.standard(sampleRate: rate)
            for _ in 0..<max(1, o.repeats) {
                let analyzer = Analyzer(layout: layout, settings: AudioTuning(), network: OnsetNetworkWeights.shipped)
                layout = analyzer.layout
                var n = 0, on = 0
                let c0 = processCPUSeconds()
                times.append(timeSeconds {
                    analyzer.process(samples) { f in
                        n += 1
                        if f.onset { on += 1 }
                    }
                })
                cpu.append(processCPUSeconds() - c0)
                hops = n
                onsets = on
            }
            let med = median(times)
            let usPerHop = med / Double(hops) * 1e6
            let cpuUsPerHop = median(cpu) / Double(hops) * 1e6
            let hopsPerSecond = rate / Double(layout.hop)
            return [
                ("sampleRate", .int(Int(rate))), ("hop", .int(layout.hop)),
                ("windows", .array(layout.windows.map { .int($0) })), ("audioSeconds", .int(Int(seconds))),
                ("hops", .int(hops)), ("onsets", .int(onsets)), ("repeats", .int(o.repeats)),
                // Whether the onset network's veto ran (the shipped weights were found and loaded).
                ("onsetNetwork", .bool(OnsetNetworkWeights.shipped != nil)),
                ("seconds", JSONNode.rounded(med, 6)), ("usPerHop", JSONNode.rounded(usPerHop, 3)),
                ("hopsPerSecond", JSONNode.rounded(hopsPerSecond, 3)),
                ("percentOfCore", JSONNode.rounded(usPerHop * hopsPerSecond / 1e6 * 100, 4)),
                // CPU time is what the analysis costs when the machine is shared (wall time includes waiting).
                ("cpuUsPerHop", JSONNode.rounded(cpuUsPerHop, 3)),
                ("cpuPercentOfCore", JSONNode.rounded(cpuUsPerHop * hopsPerSecond / 1e6 * 100, 4)),
            ]
        },
    ]
}
