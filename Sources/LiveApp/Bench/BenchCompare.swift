import Foundation
import Storage

/// `physarum bench --compare FILE`: each scenario's headline figures as
/// ratios against the same scenario in a saved `bench --json` run, so a
/// change's effect is one line per scenario.
struct BenchBaseline {
    /// Numeric fields of each scenario in the saved run (nested objects
    /// flattened as `passMs.composite`).
    let scenarios: [String: [String: Double]]
    let path: String

    /// The figures worth comparing, in print order, and whether more is better.
    static let headline: [(key: String, higherIsBetter: Bool)] = [
        ("agentStepsPerSecond", true), ("msPerStep", false), ("cpuMsPerStep", false),
        ("msPerFrame", false), ("cpuMsPerFrame", false), ("framesPerSecond", true), ("renderMsPerFrame", false),
        ("simMsPerStep", false), ("presentMsPerFrame", false), ("usPerHop", false), ("percentOfCore", false),
        ("msPerLoad", false), ("maxRSSMiB", false),
    ]

    /// Reads the JSON lines of a saved run; a line that is not a bench result
    /// is an error naming the file and line.
    init(path: String) throws {
        self.path = path
        let data: Data
        do {
            data = try SafeFile.read(URL(fileURLWithPath: path), limit: 16 << 20)
        } catch {
            throw UsageError("--compare: \(path): \(error.reason)")
        }
        var out: [String: [String: Double]] = [:]
        for (n, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            guard let object = (try? StrictJSON.parse(text: text))?.object, let name = object["scenario"]?.string
            else { throw UsageError("--compare: \(path):\(n + 1): not a line of `physarum bench --json` output") }
            var figures: [String: Double] = [:]
            Self.flatten(object, prefix: "", into: &figures)
            out[name] = figures
        }
        guard !out.isEmpty else { throw UsageError("--compare: \(path) holds no bench results") }
        scenarios = out
    }

    static func flatten(_ object: JSONObject, prefix: String, into out: inout [String: Double]) {
        for m in object.members {
            if let sub = m.value.object {
                flatten(sub, prefix: prefix + m.key + ".", into: &out)
            } else if let n = m.value.number {
                out[prefix + m.key] = n
            }
        }
    }

    /// Ratios new/old of the headline figures both runs have.
    func ratios(scenario: String, fields: [(String, JSONNode)]) -> [(key: String, new: Double, old: Double, higherIsBetter: Bool)]? {
        guard let old = scenarios[scenario] else { return nil }
        let new = Dictionary(fields.compactMap { k, v in v.number.map { (k, $0) } }, uniquingKeysWith: { a, _ in a })
        return Self.headline.compactMap { h in
            guard let n = new[h.key], let o = old[h.key], o != 0, n.isFinite, o.isFinite else { return nil }
            return (h.key, n, o, h.higherIsBetter)
        }
    }

    /// `"compare"` JSON field: file and new/old ratio per figure.
    func jsonField(scenario: String, fields: [(String, JSONNode)]) -> (String, JSONNode) {
        guard let r = ratios(scenario: scenario, fields: fields) else {
            return ("compare", .object([("file", .string(path)), ("missing", .bool(true))]))
        }
        return ("compare", .object([("file", .string(path))] + r.map { ($0.key, JSONNode.rounded($0.new / $0.old, 3)) }))
    }

    /// One human line: `sim-1m-720p vs base.json: msPerStep 6.10 / 9.79 = 0.62x (better), …`.
    func line(scenario: String, fields: [(String, JSONNode)]) -> String {
        guard let r = ratios(scenario: scenario, fields: fields) else {
            return "\(scenario): not in \(path)"
        }
        let parts = r.map { f -> String in
            let ratio = f.new / f.old
            let verdict = abs(ratio - 1) < 0.02 ? "same" : ((ratio > 1) == f.higherIsBetter ? "better" : "worse")
            return "\(f.key) \(Self.short(f.new)) / \(Self.short(f.old)) = \(String(format: "%.2f", ratio))x (\(verdict))"
        }
        return "\(scenario) vs \((path as NSString).lastPathComponent): " + parts.joined(separator: ", ")
    }

    static func short(_ v: Double) -> String {
        abs(v) >= 1e6 ? String(format: "%.1fM", v / 1e6) : String(format: abs(v) >= 100 ? "%.0f" : "%.3g", v)
    }
}
